import { describe, expect, it } from 'vitest';
import { parsePrice, perMillionText } from './price-form';

describe('parsePrice', () => {
  it('reads dollars as people type them, the cache prices optional', () => {
    expect(parsePrice({ input: '$3', output: '15', cacheRead: '0,30', cacheWrite: '' })).toEqual({
      ok: true,
      value: { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: null },
    });
    expect(parsePrice({ input: '.5', output: '2.', cacheRead: ' ', cacheWrite: '0.625' })).toEqual({
      ok: true,
      value: { inputPerMillion: 0.5, outputPerMillion: 2, cacheReadPerMillion: null, cacheWritePerMillion: 0.625 },
    });
  });

  it('names the field that is wrong', () => {
    expect(parsePrice({ input: '', output: '1', cacheRead: '', cacheWrite: '' })).toEqual({ ok: false, problem: 'The input price is from 0 to 10,000 dollars per million tokens.' });
    expect(parsePrice({ input: '1', output: '-2', cacheRead: '', cacheWrite: '' })).toEqual({ ok: false, problem: 'The output price is from 0 to 10,000 dollars per million tokens.' });
    expect(parsePrice({ input: '1', output: '2', cacheRead: 'a lot', cacheWrite: '' })).toMatchObject({ ok: false, problem: expect.stringContaining('cached-read price') });
    expect(parsePrice({ input: '1', output: '2', cacheRead: '', cacheWrite: '10001' })).toMatchObject({ ok: false, problem: expect.stringContaining('cache-write price') });
  });
});

describe('perMillionText', () => {
  it('shows cents where a price has them, and more places only where it needs them', () => {
    expect([3, 0.3, 3.75, 0.075, 15, 0.16, null].map(perMillionText)).toEqual(['$3', '$0.30', '$3.75', '$0.075', '$15', '$0.16', '—']);
  });
});
