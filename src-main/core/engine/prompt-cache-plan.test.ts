import { describe, expect, it } from 'vitest';
import { CAUTIOUS_CACHE_MINIMUM_TOKENS, cacheMinimumTokens } from '../../../src-shared/models/catalogue';
import { promptCachePlan, returnGapMs } from './prompt-cache-plan';

const SONNET = { brain: 'claude', model: 'claude-sonnet-4-5' } as const;

function row(role: 'user' | 'assistant', at: string, finished: string = at, brain: string | null = null, model: string | null = null) {
  return { role, brain, modelRequested: model, createdAt: `2026-12-07T${at}Z`, updatedAt: `2026-12-07T${finished}Z` };
}

describe('the prompt cache plan of a turn', () => {
  it('measures the return from when this model last finished a reply to the newest message', () => {
    const rows = [
      row('user', '10:00:00'),
      row('assistant', '10:00:01', '10:00:30', 'claude', 'claude-sonnet-4-5'),
      row('user', '10:01:00'),
      row('assistant', '10:01:01', '10:04:00', 'kimi', 'kimi-k2.6'),
      row('user', '10:07:00'),
    ];
    expect(returnGapMs(SONNET, rows)).toBe(6.5 * 60_000);
    // Another model of the same brain keeps entries of its own.
    expect(returnGapMs({ brain: 'claude', model: 'claude-opus-4-6' }, rows)).toBeNull();
    expect(returnGapMs(SONNET, rows.slice(0, 1))).toBeNull();
  });

  it('writes for an hour once the conversation came back to the model after its five-minute entries lapsed', () => {
    const back = (minutes: number) => [
      row('user', '10:00:00'),
      row('assistant', '10:00:01', '10:00:30', 'claude', 'claude-sonnet-4-5'),
      row('user', `10:${String(minutes).padStart(2, '0')}:30`),
    ];
    expect(promptCachePlan(SONNET, back(4), 'S', []).ttl).toBe('5m');
    expect(promptCachePlan(SONNET, back(5), 'S', []).ttl).toBe('5m');
    expect(promptCachePlan(SONNET, back(6), 'S', []).ttl).toBe('1h');
    // A first turn to the model has no entry to lose.
    expect(promptCachePlan(SONNET, [row('user', '10:00:00')], 'S', []).ttl).toBe('5m');
  });

  it('caches the system prompt and tools only when they reach the model\u2019s least cacheable length', () => {
    expect(cacheMinimumTokens('claude', 'claude-sonnet-4-5')).toBe(1_024);
    expect(cacheMinimumTokens('claude', 'claude-sonnet-4-6')).toBe(2_048);
    expect(cacheMinimumTokens('claude', 'claude-haiku-4-5')).toBe(CAUTIOUS_CACHE_MINIMUM_TOKENS);
    expect(cacheMinimumTokens('glm', 'glm-5')).toBe(CAUTIOUS_CACHE_MINIMUM_TOKENS);
    const rows = [row('user', '10:00:00')];
    // About four characters a token.
    expect(promptCachePlan(SONNET, rows, 'x'.repeat(4 * 1_023), []).cacheSystem).toBe(false);
    expect(promptCachePlan(SONNET, rows, 'x'.repeat(4 * 1_024), []).cacheSystem).toBe(true);
    const tool = { name: 'notes', description: 'd'.repeat(4 * 600), inputSchema: { type: 'object' } };
    expect(promptCachePlan(SONNET, rows, 'x'.repeat(4 * 500), [tool]).cacheSystem).toBe(true);
    expect(promptCachePlan({ brain: 'claude', model: 'claude-sonnet-4-6' }, rows, 'x'.repeat(4 * 500), [tool]).cacheSystem).toBe(false);
  });
});
