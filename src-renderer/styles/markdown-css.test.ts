import { describe, expect, it } from 'vitest';
import css from './markdown.css?raw';

/** Every selector of the stylesheet, one per entry, comments left out. */
function selectors(stylesheet: string): string[] {
  const withoutComments = stylesheet.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...withoutComments.matchAll(/([^{}]+)\{[^{}]*\}/g)].flatMap((rule) => (rule[1] ?? '').split(',').map((selector) => selector.trim().replace(/\s+/g, ' ')));
}

/** Pseudo-classes whose match on an element changes when a sibling is appended after it. */
const LATER_SIBLING_PSEUDO = /:(?:last-child|nth-last-child|last-of-type|nth-last-of-type|only-child|only-of-type)\b/;

/** A reply in one run (from history) gains no blocks; the last block of a streamed reply is named by a class. */
const ALLOWED = [/^\.markdown\.md-flat > :last-child$/, /^\.md-block\.md-last > [a-z][a-z0-9]*:last-child$/];

describe('markdown.css', () => {
  it('asks no element a streamed reply appends siblings after whether it is the last', () => {
    // Chromium styles an element's whole subtree again once an appended sibling ends its `:last-child` match: a rule
    // like `.md-group > :last-child` restyles a whole 400-row table when the paragraph after it starts.
    const positional = selectors(css).filter((selector) => LATER_SIBLING_PSEUDO.test(selector));
    expect(positional.length).toBeGreaterThan(0);
    expect(positional.filter((selector) => !ALLOWED.some((allowed) => allowed.test(selector)))).toEqual([]);
  });
});
