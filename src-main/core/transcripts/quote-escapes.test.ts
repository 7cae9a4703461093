import { describe, expect, it } from 'vitest';
import { normalizeQuoteEscapes } from './quote-escapes';

describe('normalizeQuoteEscapes', () => {
  it('turns a lone \\" outside code into a quote, and counts it', () => {
    expect(normalizeQuoteEscapes('He said \\"hello\\" to me.')).toEqual({ text: 'He said "hello" to me.', normalized: 2 });
  });

  it('leaves an escaped backslash before a quote alone', () => {
    expect(normalizeQuoteEscapes('a path C:\\\\"x')).toEqual({ text: 'a path C:\\\\"x', normalized: 0 });
  });

  it('leaves fenced and inline code alone', () => {
    const text = ['Use \\"this\\":', '```js', 'const s = "a\\"b";', '```', 'and `JSON.parse("\\"x\\"")` too, \\"ok\\".', '~~~', '\\"raw\\"', '~~~'].join('\n');
    expect(normalizeQuoteEscapes(text)).toEqual({
      text: ['Use "this":', '```js', 'const s = "a\\"b";', '```', 'and `JSON.parse("\\"x\\"")` too, "ok".', '~~~', '\\"raw\\"', '~~~'].join('\n'),
      normalized: 4,
    });
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(normalizeQuoteEscapes('\\"a\\"\n```\n\\"b\\"')).toEqual({ text: '"a"\n```\n\\"b\\"', normalized: 2 });
  });

  it('is idempotent', () => {
    for (const text of ['\\"x\\"', 'a \\\\" b', '`\\"`', 'mixed \\"한글\\" 👋']) {
      const once = normalizeQuoteEscapes(text).text;
      expect(normalizeQuoteEscapes(once)).toEqual({ text: once, normalized: 0 });
    }
  });

  it('leaves text without escapes untouched', () => {
    expect(normalizeQuoteEscapes('plain "quotes" stay')).toEqual({ text: 'plain "quotes" stay', normalized: 0 });
  });
});
