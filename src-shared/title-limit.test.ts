import { describe, expect, it } from 'vitest';
import { boundedTitle, MAX_TITLE_LENGTH } from './title-limit';

describe('boundedTitle', () => {
  it('keeps a title up to the limit as it is, and cuts a longer one with an ellipsis that says so', () => {
    expect(boundedTitle('Tea')).toBe('Tea');
    expect(boundedTitle('a'.repeat(MAX_TITLE_LENGTH))).toBe('a'.repeat(MAX_TITLE_LENGTH));
    const cut = boundedTitle('a'.repeat(1_000_000));
    expect(cut).toBe(`${'a'.repeat(MAX_TITLE_LENGTH - 1)}…`);
    expect(cut).toHaveLength(MAX_TITLE_LENGTH);
  });

  it('never cuts a character in two', () => {
    const cut = boundedTitle(`${'a'.repeat(MAX_TITLE_LENGTH - 2)}😀😀😀`);
    expect(cut).toBe(`${'a'.repeat(MAX_TITLE_LENGTH - 2)}…`);
    // A lone surrogate is the one thing encodeURIComponent refuses.
    expect(() => encodeURIComponent(cut)).not.toThrow();
  });
});
