/**
 * Prices from the pinned `@pydantic/genai-prices` data: figures per million tokens as the list has them, and a
 * request's cost with its cache and long-prompt tiers applied.
 */
import { describe, expect, it } from 'vitest';
import { costOf, modelPrice } from './prices';

describe('modelPrice', () => {
  it("reads each brain's prices per million tokens, cached input included where the provider charges for it", () => {
    expect(modelPrice('claude', 'claude-sonnet-4-6')).toEqual({ inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75, pricedAs: 'claude-sonnet-4-6' });
    expect(modelPrice('kimi', 'kimi-k2.6')).toEqual({ inputPerMillion: 0.95, outputPerMillion: 4, cacheReadPerMillion: 0.16, cacheWritePerMillion: null, pricedAs: 'kimi-k2.6' });
    expect(modelPrice('glm', 'glm-5.3')).toMatchObject({ inputPerMillion: 1.4, outputPerMillion: 4.4, pricedAs: 'GLM-5.3' });
    // A model the list names only by its line is priced as the line.
    expect(modelPrice('claude', 'claude-sonnet-5-5')).toMatchObject({ inputPerMillion: 2, outputPerMillion: 10, pricedAs: 'claude-sonnet-5' });
  });

  it('says nothing for a model the list does not know, and nothing is owed for a model on this machine', () => {
    expect(modelPrice('claude', 'claude-nova-6')).toBeNull();
    expect(modelPrice('ollama', 'qwen3')).toEqual({ inputPerMillion: 0, outputPerMillion: 0, cacheReadPerMillion: null, cacheWritePerMillion: null, pricedAs: null });
  });
});

describe('costOf', () => {
  it('charges cache writes and reads at their own prices, the rest of the input at the input price', () => {
    // 5 uncached input tokens at $3, 4,735 written to the cache at $3.75, 255 out at $15 (per million).
    expect(costOf('claude', 'claude-sonnet-4-6', { inputTokens: 4_740, cacheWriteTokens: 4_735, outputTokens: 255 })).toBe(0.02159625);
    expect(costOf('claude', 'claude-sonnet-4-6', { inputTokens: 10_000, cacheReadTokens: 9_000, outputTokens: 0 })).toBe(0.0057);
  });

  it('charges writes kept an hour at their own price, apart from five-minute writes', () => {
    // 2,000 uncached at $3, 2,000 read at $0.30, 2,000 written for five minutes at $3.75, 4,000 for an hour at $6,
    // 100 out at $15 (per million): the list's own figures, summed by hand.
    const usage = { inputTokens: 10_000, cacheReadTokens: 2_000, cacheWriteTokens: 6_000, cacheWriteHourTokens: 4_000, outputTokens: 100 };
    expect(costOf('claude', 'claude-sonnet-4-6', usage)).toBe(0.0396);
    expect(0.006 + 0.0006 + 0.0075 + 0.024 + 0.0015).toBeCloseTo(0.0396, 12);
    // The same writes all for five minutes cost less.
    expect(costOf('claude', 'claude-sonnet-4-6', { ...usage, cacheWriteHourTokens: 0 })).toBe(0.0306);
  });

  it('prices by the user\'s own figures where set, an hour-long write at 1.6 times their write price', () => {
    const own = { inputPerMillion: 2, outputPerMillion: 10, cacheReadPerMillion: 0.2, cacheWritePerMillion: 2.5 };
    const usage = { inputTokens: 10_000, cacheReadTokens: 2_000, cacheWriteTokens: 6_000, cacheWriteHourTokens: 4_000, outputTokens: 100 };
    // 2,000 uncached at $2, 2,000 read at $0.20, 2,000 written at $2.50, 4,000 at $4, 100 out at $10.
    expect(costOf('claude', 'claude-nova-6', usage, new Date(), own)).toBe(0.0264);
    expect(costOf('claude', 'claude-nova-6', usage)).toBeNull();
    // No cache prices: cached input is charged as input.
    expect(costOf('kimi', 'kimi-nova', { inputTokens: 10_000, cacheReadTokens: 4_000, outputTokens: 0 }, new Date(), { ...own, cacheReadPerMillion: null })).toBe(0.02);
    expect(costOf('ollama', 'qwen3', usage, new Date(), own)).toBe(0);
  });

  it("applies a provider's long-prompt tier to the whole request", () => {
    // Above 272k input tokens OpenAI's price for the model doubles: 300,000 at $4, 1,000 out at $18.
    expect(costOf('codex', 'gpt-5.6-terra', { inputTokens: 300_000, outputTokens: 1_000 })).toBe(1.218);
    expect(costOf('codex', 'gpt-5.6-terra', { inputTokens: 100_000, outputTokens: 1_000 })).toBe(0.212);
  });

  it('gives no cost for an unknown model or a usage that does not add up, and none owed on this machine', () => {
    expect(costOf('gemini', 'gemini-nova', { inputTokens: 10, outputTokens: 1 })).toBeNull();
    expect(costOf('claude', 'claude-sonnet-4-6', { inputTokens: 10, cacheReadTokens: 20, outputTokens: 1 })).toBeNull();
    expect(costOf('ollama', 'qwen3', { inputTokens: 10_000, outputTokens: 1_000 })).toBe(0);
  });
});
