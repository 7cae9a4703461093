/**
 * The reply being written, inside its tool loop, on every wire: one assistant message per round with that round's own
 * words and reasoning, its calls and answers whole, and never a request that ends on the assistant's words.
 */
import { describe, expect, it } from 'vitest';
import type { BrainId } from '../../../../src-shared/brains';
import type { LiveTurn, ReplayCall, ReplayReasoning, ReplayTurn } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages } from './chat-completions';
import { convertToGeminiContents, DUMMY_THOUGHT_SIGNATURE } from './gemini-generate-content';
import { buildWireRequest } from './index';
import { convertToOllamaMessages } from './ollama-chat';
import { convertToOpenAiResponsesInput } from './openai-responses';
import { fixtureRequest } from './replay-fixture';

const REPLY_ID = '01LIVEREPLY000000000000000';
const ASKED: ReplayTurn[] = [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Read a.md, then tell me the time.', calls: [] }];
/** Longer than the 500 characters an answer in the history is cut to. */
const FILE_TEXT = `# a.md\n${'Seoul at night. '.repeat(40)}`;

const READ_CALL: ReplayCall = {
  callId: `call_${REPLY_ID}_0`, providerCallId: 'functions.read_file:0', name: 'read_file', input: { path: 'a.md' }, answer: FILE_TEXT, isError: false, server: null,
};
const CLOCK_CALL: ReplayCall = {
  callId: `call_${REPLY_ID}_1`, providerCallId: 'functions.current_time:1', name: 'current_time', input: { zone: 'UTC' }, answer: 'noon', isError: false, server: null,
};

/** Two rounds: words, reasoning and a read_file call, then words, reasoning and a current_time call. */
function twoRounds(brain: BrainId, model: string, reasoning: readonly [Omit<ReplayReasoning, 'brain' | 'model'>, Omit<ReplayReasoning, 'brain' | 'model'>], calls: readonly [ReplayCall, ReplayCall] = [READ_CALL, CLOCK_CALL]): LiveTurn {
  return {
    messageId: REPLY_ID,
    brain,
    model,
    rounds: [
      { text: 'Let me read a.md. ', reasoning: { brain, model, ...reasoning[0] }, calls: [calls[0]] },
      { text: 'Now the clock. ', reasoning: { brain, model, ...reasoning[1] }, calls: [calls[1]] },
    ],
  };
}

describe('a two-round live loop', () => {
  it('anthropic-messages: one assistant message per round, each opening with its own thinking', () => {
    const thinking = [
      { type: 'thinking', thinking: 'Read first.', signature: 'c2lnMQ==' },
      { type: 'thinking', thinking: 'Then the clock.', signature: 'c2lnMg==' },
    ];
    const live = twoRounds('claude', 'claude-sonnet-4-6', [
      { text: 'Read first.', opaque: { blocks: [thinking[0]] } },
      { text: 'Then the clock.', opaque: { blocks: [thinking[1]] } },
    ]);
    const { body, warnings } = convertToAnthropicMessages(fixtureRequest({ turns: ASKED, live, reasoningLevel: 'medium' }));
    expect(warnings).toEqual([]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read a.md, then tell me the time.', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [thinking[0], { type: 'text', text: 'Let me read a.md. ' }, { type: 'tool_use', id: `call_${REPLY_ID}_0`, name: 'read_file', input: { path: 'a.md' } }],
      },
      // Where the previous round's request ended: a breakpoint, so this request reads that one back from the cache.
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `call_${REPLY_ID}_0`, content: FILE_TEXT, cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [thinking[1], { type: 'text', text: 'Now the clock. ' }, { type: 'tool_use', id: `call_${REPLY_ID}_1`, name: 'current_time', input: { zone: 'UTC' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `call_${REPLY_ID}_1`, content: 'noon', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('chat-completions (kimi): each tool-call message carries its own round\u2019s reasoning_content and Kimi\u2019s ids', () => {
    const live = twoRounds('kimi', 'kimi-k2.6', [{ text: 'Read first.', opaque: { blocks: [] } }, { text: 'Then the clock.', opaque: { blocks: [] } }]);
    const { body, warnings } = convertToChatCompletionsMessages(fixtureRequest({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high', turns: ASKED, live }));
    expect(warnings).toEqual([]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'Read a.md, then tell me the time.' },
      {
        role: 'assistant',
        content: 'Let me read a.md. ',
        reasoning_content: 'Read first.',
        tool_calls: [{ id: 'functions.read_file:0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } }],
      },
      { role: 'tool', tool_call_id: 'functions.read_file:0', content: FILE_TEXT },
      {
        role: 'assistant',
        content: 'Now the clock. ',
        reasoning_content: 'Then the clock.',
        tool_calls: [{ id: 'functions.current_time:1', type: 'function', function: { name: 'current_time', arguments: '{"zone":"UTC"}' } }],
      },
      { role: 'tool', tool_call_id: 'functions.current_time:1', content: 'noon' },
    ]);
  });

  it('openai-responses (codex): each round\u2019s reasoning item before its own words and call', () => {
    const items = [
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ZW5jMQ==' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'ZW5jMg==' },
    ];
    const live = twoRounds('codex', 'gpt-5.5-codex', [{ text: '', opaque: { blocks: [items[0]] } }, { text: '', opaque: { blocks: [items[1]] } }]);
    const { body, warnings } = convertToOpenAiResponsesInput(fixtureRequest({ brain: 'codex', model: 'gpt-5.5-codex', reasoningLevel: 'high', turns: ASKED, live }));
    expect(warnings).toEqual([]);
    expect(body.input).toEqual([
      { role: 'user', content: 'Read a.md, then tell me the time.' },
      items[0],
      { role: 'assistant', content: 'Let me read a.md. ' },
      { type: 'function_call', call_id: `call_${REPLY_ID}_0`, name: 'read_file', arguments: '{"path":"a.md"}' },
      { type: 'function_call_output', call_id: `call_${REPLY_ID}_0`, output: FILE_TEXT },
      items[1],
      { role: 'assistant', content: 'Now the clock. ' },
      { type: 'function_call', call_id: `call_${REPLY_ID}_1`, name: 'current_time', arguments: '{"zone":"UTC"}' },
      { type: 'function_call_output', call_id: `call_${REPLY_ID}_1`, output: 'noon' },
    ]);
  });

  it('gemini-generate-content: one model turn per round, its first functionCall part signed', () => {
    const signed: ReplayCall = { ...READ_CALL, opaque: { thoughtSignature: 'Y2FsbFNpZzE=' } };
    const live = twoRounds('gemini', 'gemini-3.1-pro-preview', [{ text: '', opaque: { blocks: [] } }, { text: '', opaque: { blocks: [] } }], [signed, CLOCK_CALL]);
    const { body, warnings } = convertToGeminiContents(fixtureRequest({ brain: 'gemini', model: 'gemini-3.1-pro-preview', reasoningLevel: 'low', turns: ASKED, live }));
    expect(warnings).toEqual([]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Read a.md, then tell me the time.' }] },
      { role: 'model', parts: [{ text: 'Let me read a.md. ' }, { functionCall: { name: 'read_file', args: { path: 'a.md' } }, thoughtSignature: 'Y2FsbFNpZzE=' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: FILE_TEXT } } }] },
      // A call Gemini returned no signature for still needs one on the first functionCall part of its model turn.
      { role: 'model', parts: [{ text: 'Now the clock. ' }, { functionCall: { name: 'current_time', args: { zone: 'UTC' } }, thoughtSignature: DUMMY_THOUGHT_SIGNATURE }] },
      { role: 'user', parts: [{ functionResponse: { name: 'current_time', response: { output: 'noon' } } }] },
    ]);
  });

  it('ollama-chat: each round\u2019s thinking with its own calls', () => {
    const live = twoRounds('ollama', 'qwen3', [{ text: 'Read first.', opaque: { blocks: [] } }, { text: 'Then the clock.', opaque: { blocks: [] } }]);
    const { body, warnings } = convertToOllamaMessages(fixtureRequest({ brain: 'ollama', model: 'qwen3', reasoningLevel: 'medium', turns: ASKED, live }));
    expect(warnings).toEqual([]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'Read a.md, then tell me the time.' },
      { role: 'assistant', content: 'Let me read a.md. ', thinking: 'Read first.', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.md' } } }] },
      { role: 'tool', content: FILE_TEXT, tool_name: 'read_file' },
      { role: 'assistant', content: 'Now the clock. ', thinking: 'Then the clock.', tool_calls: [{ function: { name: 'current_time', arguments: { zone: 'UTC' } } }] },
      { role: 'tool', content: 'noon', tool_name: 'current_time' },
    ]);
  });
});

describe('the live loop on every wire', () => {
  const wires = ['anthropic-messages', 'chat-completions', 'openai-responses', 'gemini-generate-content', 'ollama-chat'] as const;

  it.each(wires)('%s sends all 14 calls of a round whole, with 2,000-character inputs and answers', (wire) => {
    const calls: ReplayCall[] = Array.from({ length: 14 }, (_, index) => ({
      callId: `call_${REPLY_ID}_${index}`, name: 'read_file', input: { path: `${index}-${'p'.repeat(2000)}` }, answer: `${index}-${'z'.repeat(2000)}`, isError: false, server: null,
    }));
    const live: LiveTurn = { messageId: REPLY_ID, brain: 'claude', model: 'claude-sonnet-4-6', rounds: [{ text: '', calls }] };
    const { body, warnings } = buildWireRequest(wire, fixtureRequest({ turns: ASKED, live }));
    const text = JSON.stringify(body);
    for (let index = 0; index < 14; index += 1) {
      expect(text).toContain(`${index}-${'p'.repeat(2000)}`);
      expect(text).toContain(`${index}-${'z'.repeat(2000)}`);
    }
    expect(text).not.toContain('[cut]');
    expect(text).not.toContain('not shown');
    expect(warnings).toEqual([]);
  });
});

describe('a live round whose calls all went to tools not offered', () => {
  const rockets: ReplayCall = {
    callId: `call_${REPLY_ID}_0`, name: 'launch_rockets', input: {}, answer: 'No tool named "launch_rockets" is offered. Use one of: current_time, read_file.', isError: true, server: null,
  };
  const record = '[System line, tool record: the assistant called launch_rockets with {}, which failed with: No tool named "launch_rockets" is offered. Use one of: current_time, read_file.. That tool is not offered now.]';
  const warning = { messageId: REPLY_ID, message: '1 call to tools not offered now replays as text.' };
  const live = (brain: BrainId, model: string): LiveTurn => ({ messageId: REPLY_ID, brain, model, rounds: [{ text: 'Let me try the rockets.', calls: [rockets] }] });

  it('anthropic-messages ends on the record line, after the words', () => {
    const { body, warnings } = convertToAnthropicMessages(fixtureRequest({ turns: ASKED, live: live('claude', 'claude-sonnet-4-6') }));
    expect(warnings).toEqual([warning]);
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Let me try the rockets.' }] },
      { role: 'user', content: [{ type: 'text', text: record, cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('chat-completions ends on the record line, after the words', () => {
    const { body, warnings } = convertToChatCompletionsMessages(fixtureRequest({ brain: 'kimi', model: 'kimi-k2.6', turns: ASKED, live: live('kimi', 'kimi-k2.6') }));
    expect(warnings).toEqual([warning]);
    expect(body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Let me try the rockets.' },
      { role: 'user', content: record },
    ]);
  });

  it('openai-responses ends on the record line, after the words', () => {
    const { body, warnings } = convertToOpenAiResponsesInput(fixtureRequest({ brain: 'codex', model: 'gpt-5.5-codex', turns: ASKED, live: live('codex', 'gpt-5.5-codex') }));
    expect(warnings).toEqual([warning]);
    expect(body.input.slice(1)).toEqual([
      { role: 'assistant', content: 'Let me try the rockets.' },
      { role: 'user', content: record },
    ]);
  });

  it('gemini-generate-content ends on the record line, after the words', () => {
    const { body, warnings } = convertToGeminiContents(fixtureRequest({ brain: 'gemini', model: 'gemini-3.1-pro-preview', turns: ASKED, live: live('gemini', 'gemini-3.1-pro-preview') }));
    expect(warnings).toEqual([warning]);
    expect(body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'Let me try the rockets.' }] },
      { role: 'user', parts: [{ text: record }] },
    ]);
  });

  it('ollama-chat ends on the record line, after the words', () => {
    const { body, warnings } = convertToOllamaMessages(fixtureRequest({ brain: 'ollama', model: 'qwen3', turns: ASKED, live: live('ollama', 'qwen3') }));
    expect(warnings).toEqual([warning]);
    expect(body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Let me try the rockets.' },
      { role: 'user', content: record },
    ]);
  });
});

describe('a Retry after a stopped reply', () => {
  const stopped: ReplayTurn = { messageId: 'a1', role: 'assistant', kind: 'chat', text: 'Let me', calls: [], brain: 'kimi', model: 'kimi-k2.6' };
  const line = "[System line, notice: neither the assistant's words nor the user's]\nThe reply above ended there; another reply follows.";
  const wires = ['anthropic-messages', 'chat-completions', 'openai-responses', 'gemini-generate-content', 'ollama-chat'] as const;

  it.each(wires)('%s: the request ends on a labelled line after the stopped reply, never on its words', (wire) => {
    const { body } = buildWireRequest(wire, fixtureRequest({ turns: [...ASKED, stopped] }));
    const entries = (body as { messages?: unknown[]; input?: unknown[]; contents?: unknown[] });
    const last = JSON.stringify((entries.messages ?? entries.input ?? entries.contents)!.at(-1));
    expect(last).toContain(JSON.stringify(line).slice(1, -1));
    expect(last).not.toContain('"assistant"');
    expect(last).not.toContain('"model"');
  });
});
