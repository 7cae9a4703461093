import { describe, expect, it } from 'vitest';
import { estimateTokens } from './token-estimate';

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
});
