import { describe, expect, it } from 'vitest';
import { normaliseUsage } from './usage';

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
