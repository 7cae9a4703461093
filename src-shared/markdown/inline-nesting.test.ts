import { describe, expect, it } from 'vitest';
import { inlineNestingDepth } from './inline-nesting';

describe('inlineNestingDepth', () => {
  it('counts ordinary emphasis as shallow', () => {
    expect(inlineNestingDepth('Some *em* and **strong** and ~~gone~~ and ***both***.')).toBe(3);
    expect(inlineNestingDepth('- **Label**: text\n- **Label**: text\n- **Label**: text')).toBe(2);
    expect(inlineNestingDepth('snake_case_names and 2*3*4 and a * b')).toBe(0);
  });

  it('counts openers waiting for their closers', () => {
    expect(inlineNestingDepth(`${'*a '.repeat(100)}x${' b*'.repeat(100)}`)).toBe(100);
    expect(inlineNestingDepth(`${'**a '.repeat(50)}x${' b**'.repeat(50)}`)).toBe(100);
    expect(inlineNestingDepth(`${'~~a '.repeat(40)}x`)).toBe(80);
  });

  it('ignores escaped delimiters, code spans and fenced code', () => {
    expect(inlineNestingDepth(`${'\\*a '.repeat(100)}x`)).toBe(0);
    expect(inlineNestingDepth(`\`${'*a '.repeat(100)}\` and \`\`${'_a '.repeat(100)}\`\``)).toBe(0);
    expect(inlineNestingDepth(`\`\`\`\n${'*a '.repeat(100)}\n\`\`\``)).toBe(0);
    expect(inlineNestingDepth('an unmatched ` then *a *b')).toBe(2);
  });
});
