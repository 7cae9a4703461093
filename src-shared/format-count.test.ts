import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

describe('formatCount', () => {
  it('groups thousands with commas and keeps up to three decimals, as toLocaleString("en-US") did', () => {
    expect([0, 7, 1_024, 262_144, 100_000_000, 12.5, 0.1234, -3_500].map(formatCount)).toEqual(['0', '7', '1,024', '262,144', '100,000,000', '12.5', '0.123', '-3,500']);
    for (const value of [0, 1, 999, 1_000, 65_536, 1_048_576, 33.3333, 99.99]) expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
  });
});
