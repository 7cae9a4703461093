import { describe, expect, it } from 'vitest';
import { CALL_FRAMING_TOKENS, estimateRowTokens } from './row-estimate';
import { estimateTokens, MESSAGE_FRAMING_TOKENS } from './token-estimate';

describe('estimateTokens', () => {
  it('counts nothing for nothing', () => {
    expect(estimateTokens('')).toBe(0);
  });
  it('counts about four Latin characters a token, rounding up', () => {
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(400))).toBe(100);
  });
  it('counts each Hangul or CJK character as one token', () => {
    expect(estimateTokens('안녕하세요')).toBe(5);
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('こんにちは')).toBe(5);
  });
  it('adds mixed scripts', () => {
    expect(estimateTokens('hi 안녕')).toBe(2 + 1);
  });
  it('reads 10,000 Hangul syllables as 10,000 tokens, within 10 %', () => {
    // Every precomposed syllable from U+AC00 on, in order: 가각갂…
    const syllables = Array.from({ length: 10_000 }, (_, index) => String.fromCodePoint(0xac00 + index)).join('');
    const estimate = estimateTokens(syllables);
    expect(estimate).toBeGreaterThanOrEqual(9_000);
    expect(estimate).toBeLessThanOrEqual(11_000);
    expect(estimate).toBe(10_000);
    // Divided by four, the same text would read as a quarter of its size.
    expect(Math.ceil(syllables.length / 4)).toBe(2_500);
  });
  it('counts Korean prose with its spaces and punctuation close to its syllables', () => {
    const prose = '오늘은 날씨가 정말 좋네요. 산책하러 갈까요?';
    // 18 syllables, then five spaces, a full stop and a question mark at four characters a token.
    expect(estimateTokens(prose)).toBe(18 + 2);
  });
});

describe('estimateRowTokens', () => {
  it('counts a message of words with its framing', () => {
    expect(estimateRowTokens('abcd')).toBe(1 + MESSAGE_FRAMING_TOKENS);
  });
  it('counts the calls a reply replays as they are cut for replay, and only its last 12', () => {
    const call = (output: string) => ({ kind: 'tool' as const, providerCallId: 'c', input: { path: '/a' }, output });
    const long = 'y'.repeat(10_000);
    const one = estimateRowTokens('', [call(long)]);
    // {"path":"/a"} is 13 characters; the answer is cut to 500 characters.
    expect(one).toBe(MESSAGE_FRAMING_TOKENS + CALL_FRAMING_TOKENS + 4 + 125);
    const twenty = estimateRowTokens('', Array.from({ length: 20 }, () => call(long)));
    expect(twenty).toBe(MESSAGE_FRAMING_TOKENS + 12 * (CALL_FRAMING_TOKENS + 4 + 125));
  });
  it('counts an image as the stand-in line the history replays, not as its bytes', () => {
    const bytes = Buffer.alloc(300_000, 1).toString('base64');
    const call = { kind: 'tool' as const, providerCallId: 'c', input: {}, output: 'abcd', images: [{ mimeType: 'image/png', data: bytes }] };
    // {} is 2 characters; the answer is "abcd\n[image/png, 300,000 bytes: not replayed]", 45 characters.
    expect(estimateRowTokens('', [call])).toBe(MESSAGE_FRAMING_TOKENS + CALL_FRAMING_TOKENS + 1 + 12);
  });
  it('counts the context the app brought (memories, a started skill) in full', () => {
    const memory = { kind: 'memory' as const, providerCallId: null, input: {}, output: 'm'.repeat(40) };
    expect(estimateRowTokens('', [memory])).toBe(MESSAGE_FRAMING_TOKENS + 10 + MESSAGE_FRAMING_TOKENS);
  });
});
