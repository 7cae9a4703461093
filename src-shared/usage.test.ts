import { describe, expect, it } from 'vitest';
import { cachedPercent, conversationSpendWords, dollarsText, normaliseUsage, spendLine } from './usage';

describe('normaliseUsage', () => {
  it("adds Anthropic's cache reads and writes to its input, which counts them apart", () => {
    expect(normaliseUsage({ inputTokens: 66, cacheReadTokens: 25_000, cacheWriteTokens: 134, outputTokens: 9 }, 'anthropic-messages')).toEqual({
      inputTokens: 25_200, cacheReadTokens: 25_000, cacheWriteTokens: 134, outputTokens: 9, reasoningTokens: 0,
    });
  });

  it('keeps the input of wires that count cached tokens inside it, and zero for what was not reported', () => {
    expect(normaliseUsage({ inputTokens: 25_200, cacheReadTokens: 25_000, reasoningTokens: 300 }, 'openai-responses')).toEqual({
      inputTokens: 25_200, cacheReadTokens: 25_000, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 300,
    });
    expect(normaliseUsage({}, 'ollama-chat')).toEqual({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });
  });
});

describe('what a reply cost, in words', () => {
  it('writes dollars to the cent from a dollar, to a tenth of a cent below, to four places below a cent', () => {
    expect([12.345, 1, 0.0123, 0.01, 0.00424, 0.00004, 0, null].map(dollarsText)).toEqual([
      '$12.35', '$1.00', '$0.012', '$0.010', '$0.0042', '<$0.0001', '$0', 'price unknown',
    ]);
  });

  it('rounds the cached share down, so a request not wholly cached never reads 100 %', () => {
    expect(cachedPercent({ inputTokens: 25_134, cacheReadTokens: 25_066 })).toBe(99);
    expect(cachedPercent({ inputTokens: 100, cacheReadTokens: 100 })).toBe(100);
    expect(cachedPercent({ inputTokens: 0, cacheReadTokens: 0 })).toBeNull();
  });

  it('shows the price and the cached share, and leaves out what is unknown, free or nothing', () => {
    expect(spendLine({ inputTokens: 10_000, cacheReadTokens: 9_100, costUsd: 0.0123 })).toBe('$0.012 · 91 % cached');
    expect(spendLine({ inputTokens: 10_000, cacheReadTokens: 0, costUsd: 0.0123 })).toBe('$0.012');
    expect(spendLine({ inputTokens: 10_000, cacheReadTokens: 9_100, costUsd: null })).toBe('91 % cached');
    expect(spendLine({ inputTokens: 10_000, cacheReadTokens: 0, costUsd: 0 })).toBeNull();
  });
});

describe("a conversation's requests so far, in words", () => {
  it('counts the requests, the estimate and the cached share, and says nothing before the first request', () => {
    expect(conversationSpendWords({ requests: 31, inputTokens: 200_000, cacheReadTokens: 176_000, costUsd: 0.4213 })).toBe(
      "So far: 31 provider requests, about $0.421 (an estimate), 88 % of their input read from the provider's cache.",
    );
    expect(conversationSpendWords({ requests: 1, inputTokens: 900, cacheReadTokens: 0, costUsd: null })).toBe('So far: 1 provider request, price unknown.');
    expect(conversationSpendWords({ requests: 4, inputTokens: 900, cacheReadTokens: 0, costUsd: 0 })).toBe('So far: 4 provider requests, no charge.');
    expect(conversationSpendWords(null)).toBeNull();
  });
});
