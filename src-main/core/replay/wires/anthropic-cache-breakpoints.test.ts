/**
 * Anthropic's prompt cache reads an earlier request's entry only where that request put a breakpoint, and a breakpoint
 * looks back at most 20 blocks for one. These tests pin where the breakpoints go when other brains' turns came between
 * two requests to the same model, how many there are, and how long they ask the provider to keep what they write.
 */
import { describe, expect, it } from 'vitest';
import { checkAnthropicRequest } from '../../../../e2e/fake-brains/anthropic-messages-rules';
import type { PromptCachePlan, ReplayRequest, ReplayTurn } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import type { AnthropicBlock } from './anthropic-messages-types';
import { fixtureRequest, manyCallsTurn } from './replay-fixture';

type Marked = { readonly position: number; readonly block: Record<string, unknown> };

function blocksOf(request: ReplayRequest): Array<Record<string, unknown>> {
  return convertToAnthropicMessages(request).body.messages.flatMap((message): AnthropicBlock[] => message.content) as unknown as Array<Record<string, unknown>>;
}

function breakpoints(request: ReplayRequest): Marked[] {
  return blocksOf(request).flatMap((block, position) => (block.cache_control ? [{ position, block }] : []));
}

const withoutMark = ({ cache_control: _mark, ...block }: Record<string, unknown>): Record<string, unknown> => block;

const user = (messageId: string, text: string): ReplayTurn => ({ messageId, role: 'user', kind: 'chat', text, calls: [] });
const claudeReply = (messageId: string, text: string): ReplayTurn => ({ messageId, role: 'assistant', kind: 'chat', text, calls: [], brain: 'claude', model: 'claude-sonnet-4-6' });
/** Another brain's reply with twelve calls: 24 blocks and its words, more than one breakpoint's lookback. */
const kimiWithTwelveCalls: ReplayTurn = { ...manyCallsTurn(12), messageId: '01KIMI', brain: 'kimi', model: 'kimi-k2.6' };

describe('anthropic cache breakpoints after other brains answered', () => {
  it('marks where this model\u2019s last request ended, however many blocks other brains added since', () => {
    const earlier = fixtureRequest({ turns: [user('u1', 'What time is it in Seoul?')] });
    const earlierEnd = breakpoints(earlier).at(-1)!;

    const later = fixtureRequest({
      turns: [user('u1', 'What time is it in Seoul?'), claudeReply('r1', 'Noon.'), user('u2', 'And in twelve zones?'), kimiWithTwelveCalls, user('u3', 'Back to you, Claude.')],
    });
    const blocks = blocksOf(later);
    const marked = breakpoints(later);
    // Same block, same place: the earlier request's entry is read whole.
    expect(withoutMark(blocks[earlierEnd.position]!)).toEqual(withoutMark(earlierEnd.block));
    expect(marked.map((mark) => mark.position)).toContain(earlierEnd.position);
    // The end of Claude's last request, the end of Kimi's last round (its words follow), the newest block; with the
    // system prompt's, four: the turn before Kimi's reply is left out.
    expect(marked.map((mark) => mark.position)).toEqual([earlierEnd.position, blocks.length - 3, blocks.length - 1]);
    expect(blocks.length - 1 - earlierEnd.position).toBeGreaterThan(20);
    expect(checkAnthropicRequest(convertToAnthropicMessages(later).body as unknown as Record<string, unknown>)).toBeNull();
  });

  it('marks the last answer of a reply that ran tools: its last request ended there, before its last words', () => {
    const zones: ReplayTurn = {
      messageId: 'r1', role: 'assistant', kind: 'chat', text: 'Seoul is at noon, Paris at four.', calls: [], brain: 'claude', model: 'claude-sonnet-4-6',
      rounds: [{
        text: 'Checking both.',
        calls: ['Asia/Seoul', 'Europe/Paris'].map((zone, index) => ({ callId: `call_r1_${index}`, name: 'current_time', input: { zone }, answer: `t${index}`, isError: false, server: null })),
      }],
    };
    const later = fixtureRequest({ turns: [user('u1', 'Seoul and Paris?'), zones, user('u2', 'Twelve zones?'), kimiWithTwelveCalls, user('u3', 'Claude?')] });
    const blocks = blocksOf(later);
    const lastAnswer = blocks.findIndex((block) => block.type === 'tool_result' && block.tool_use_id === 'call_r1_1');
    expect(blocks[lastAnswer + 1]).toEqual({ type: 'text', text: 'Seoul is at noon, Paris at four.' });
    expect(breakpoints(later).map((mark) => mark.position)).toContain(lastAnswer);
  });

  it('gives the system prompt\u2019s place to the turn before the latest reply when the system prompt is too short to cache', () => {
    const turns = [user('u1', 'Seoul?'), claudeReply('r1', 'Noon.'), user('u2', 'Twelve zones?'), kimiWithTwelveCalls, user('u3', 'Claude?')];
    const short: PromptCachePlan = { cacheSystem: false, ttl: '5m' };
    const { body } = convertToAnthropicMessages(fixtureRequest({ turns, promptCache: short }));
    expect(body.system).toEqual([{ type: 'text', text: 'SYSTEM' }]);
    const newest = blocksOf(fixtureRequest({ turns })).length - 1;
    expect(breakpoints(fixtureRequest({ turns, promptCache: short })).map((mark) => mark.position)).toEqual([0, 2, newest - 2, newest]);
  });

  it('keeps four breakpoints at most, the system prompt\u2019s included, dropping the least useful first', () => {
    // The newest block, before the newest reply, the end of Claude's last request, before the latest reply as a whole:
    // four distinct places besides the system prompt.
    const turns = [user('u1', 'Seoul?'), claudeReply('r1', 'Noon.'), user('u2', 'Twelve zones?'), kimiWithTwelveCalls, user('u3', 'Claude?')];
    for (const cacheSystem of [true, false]) {
      const { body } = convertToAnthropicMessages(fixtureRequest({ turns, promptCache: { cacheSystem, ttl: '5m' } }));
      expect(JSON.stringify(body).match(/cache_control/g)?.length).toBeLessThanOrEqual(4);
      expect(checkAnthropicRequest(body as unknown as Record<string, unknown>)).toBeNull();
    }
  });

  it('writes every breakpoint for an hour when the plan says so, the system prompt\u2019s first, in the order Anthropic requires', () => {
    const turns = [user('u1', 'Seoul?'), claudeReply('r1', 'Noon.'), user('u2', 'Paris?')];
    const { body } = convertToAnthropicMessages(fixtureRequest({ turns, promptCache: { cacheSystem: true, ttl: '1h' } }));
    expect(body.system).toEqual([{ type: 'text', text: 'SYSTEM', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Seoul?', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Noon.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Paris?', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ]);
    expect(checkAnthropicRequest(body as unknown as Record<string, unknown>)).toBeNull();
  });
});
