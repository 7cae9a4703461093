/**
 * Anthropic's rules on the blocks of a message, checked on the exact JSON the converter builds and by the fake brain's
 * request rules (Anthropic's own 400 texts).
 */
import { describe, expect, it } from 'vitest';
import { checkAnthropicRequest } from '../../../../e2e/fake-brains/anthropic-messages-rules';
import { anthropicThinkingSignature } from '../../../../e2e/fake-brains/derived-tokens';
import type { LiveTurn, ReplayCall, ReplayTurn } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { fixtureRequest } from './replay-fixture';

const MODEL = 'claude-sonnet-4-6';
const THINKING = 'Check the clock first.';
const SIGNATURE = anthropicThinkingSignature(MODEL, THINKING);
const NEXT_REPLY_LINE = "[System line, notice: neither the assistant's words nor the user's]\nThe reply above ended there; another reply follows.";

const question: ReplayTurn = { messageId: 'u1', role: 'user', kind: 'chat', text: 'What time is it?', calls: [] };
const stopped: ReplayTurn = { messageId: '01STOPPED', role: 'assistant', kind: 'chat', text: 'Let me', calls: [], brain: 'claude', model: MODEL };

function timeCall(messageId: string): ReplayCall {
  return { callId: `call_${messageId}_0`, name: 'current_time', input: {}, answer: '12:00', isError: false, server: null };
}

function thinkingReply(messageId: string, text: string, calls: readonly ReplayCall[]): ReplayTurn {
  return {
    messageId, role: 'assistant', kind: 'chat', text, calls, brain: 'claude', model: MODEL,
    reasoning: { brain: 'claude', model: MODEL, text: THINKING, opaque: { blocks: [{ type: 'thinking', thinking: THINKING, signature: SIGNATURE }] } },
  };
}

/** The messages of a request to Claude with thinking on, after the fake brain found it valid. */
function validMessages(turns: readonly ReplayTurn[], live?: ReplayTurn): unknown[] {
  const liveTurn: LiveTurn | undefined = live && { messageId: live.messageId, brain: 'claude', model: MODEL, rounds: [{ text: live.text, calls: live.calls, ...(live.reasoning ? { reasoning: live.reasoning } : {}) }] };
  const { body } = convertToAnthropicMessages(fixtureRequest({ turns, reasoningLevel: 'high', ...(liveTurn ? { live: liveTurn } : {}) }));
  expect(checkAnthropicRequest(body as unknown as Record<string, unknown>)).toBeNull();
  return body.messages;
}

describe('a reply with thinking right after another reply (a stopped reply, then its retry)', () => {
  it('keeps the live retry, thinking first, in a message of its own behind a labelled line', () => {
    const retry = thinkingReply('01RETRY', '', [timeCall('01RETRY')]);
    expect(validMessages([question, stopped], retry)).toEqual([
      // The stopped reply's request ended here.
      { role: 'user', content: [{ type: 'text', text: 'What time is it?', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me' }] },
      { role: 'user', content: [{ type: 'text', text: NEXT_REPLY_LINE, cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
          { type: 'tool_use', id: 'call_01RETRY_0', name: 'current_time', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_01RETRY_0', content: '12:00', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('keeps the finished retry in the history the same way, and the next request keeps the live one as its prefix', () => {
    const retry = thinkingReply('01RETRY', 'It is noon.', [timeCall('01RETRY')]);
    const next: ReplayTurn = { messageId: 'u2', role: 'user', kind: 'chat', text: 'Thanks.', calls: [] };
    expect(validMessages([question, stopped, retry, next])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me' }] },
      { role: 'user', content: [{ type: 'text', text: NEXT_REPLY_LINE, cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
          { type: 'tool_use', id: 'call_01RETRY_0', name: 'current_time', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_01RETRY_0', content: '12:00', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is noon.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks.', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('still merges two replies in a row when the later one carries no thinking', () => {
    const retry: ReplayTurn = { ...stopped, messageId: '01RETRY', text: 'It is noon.' };
    const { body } = convertToAnthropicMessages(fixtureRequest({ turns: [question, stopped, retry, { ...question, messageId: 'u2', text: 'Thanks.' }] }));
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me' }, { type: 'text', text: 'It is noon.' }] });
  });
});

describe('blank text', () => {
  it('sends no text block for a reply of only blank lines before its calls, in the history and live', () => {
    const blank = thinkingReply('01BLANK', '\n\n', [timeCall('01BLANK')]);
    const next: ReplayTurn = { messageId: 'u2', role: 'user', kind: 'chat', text: 'And now?', calls: [] };
    const thinkingAndCall = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
        { type: 'tool_use', id: 'call_01BLANK_0', name: 'current_time', input: {} },
      ],
    };
    expect(validMessages([question, blank, next])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it?', cache_control: { type: 'ephemeral' } }] },
      thinkingAndCall,
      {
        role: 'user',
        content: [
          // The reply's last request ended with its call's answer: it wrote nothing after it.
          { type: 'tool_result', tool_use_id: 'call_01BLANK_0', content: '12:00', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'And now?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
    expect(validMessages([question], blank)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it?', cache_control: { type: 'ephemeral' } }] },
      thinkingAndCall,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_01BLANK_0', content: '12:00', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('leaves out a blank reply without calls, whatever kind of blank it is', () => {
    const blank: ReplayTurn = { ...stopped, text: ' \t\u00a0\u3000\u001c\u0085\r\n' };
    const next: ReplayTurn = { messageId: 'u2', role: 'user', kind: 'chat', text: 'Hello?', calls: [] };
    expect(validMessages([question, blank, next])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it?' }, { type: 'text', text: 'Hello?', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('replays a user message of only blank space as a labelled line', () => {
    expect(validMessages([{ ...question, text: ' \n ' }])).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: "[System line, notice: neither the assistant's words nor the user's]\nThe user sent a message with no visible text.", cache_control: { type: 'ephemeral' } }],
      },
    ]);
  });
});
