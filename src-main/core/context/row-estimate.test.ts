import { describe, expect, it } from 'vitest';
import { CALL_FRAMING_TOKENS, LIVE_IMAGE_TOKENS, wholeCallsExtraTokens, type EstimatedInvocation } from './row-estimate';

const call = (overrides: Partial<EstimatedInvocation>): EstimatedInvocation => ({
  kind: 'tool', providerCallId: 'p', input: { path: 'a.md' }, output: 'short', ...overrides,
});

describe('what the newest reply adds, replayed with its calls whole', () => {
  it('is nothing when every call is short enough to replay uncut', () => {
    expect(wholeCallsExtraTokens([call({}), call({ output: 'x'.repeat(500) })])).toBe(0);
  });

  it('is the part of a long answer the history cuts: 5,000 characters whole against 500 cut', () => {
    // Whole: 1,250 tokens of answer; cut: 500 characters, 125 tokens. The input and framing count the same both ways.
    expect(wholeCallsExtraTokens([call({ output: 'y'.repeat(5_000) })])).toBe(1_250 - 125);
  });

  it('counts the calls before the last 12, which the history leaves out, and an image as the bytes a brain is shown', () => {
    const fourteen = Array.from({ length: 14 }, () => call({}));
    // `{"path":"a.md"}` is 15 characters (4 tokens) and `short` 2 tokens: two more calls of 40 + 4 + 2.
    expect(wholeCallsExtraTokens(fourteen)).toBe(2 * (CALL_FRAMING_TOKENS + 4 + 2));
    const image = call({ output: '', images: [{ mimeType: 'image/png', data: 'AAAA' }] });
    // The history's stand-in line "[image/png, 3 bytes: not replayed]" is 34 characters, 9 tokens.
    expect(wholeCallsExtraTokens([image])).toBe(LIVE_IMAGE_TOKENS - 9);
  });

  it('leaves out the context the app brought (memories), which replays the same either way', () => {
    expect(wholeCallsExtraTokens([call({ kind: 'memory', providerCallId: null, output: 'z'.repeat(5_000) })])).toBe(0);
  });
});
