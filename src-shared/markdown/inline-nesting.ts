import { fenceOpenedBy } from './split-blocks';

/**
 * Emphasis, strong and strikethrough nested deeper than this render as the characters typed. Every level is a
 * recursion in remark-rehype and React and a layer of DOM: 3,000 nested `*a ` (18 KB) took 11 s and overflowed the
 * stack, and emphasis matching itself grows with the square of the open delimiters.
 */
export const MAX_INLINE_DEPTH = 64;

const DELIMITER_CHARACTERS = new Set(['*', '_', '~']);
const WHITESPACE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;

function isWhitespace(character: string | undefined): boolean {
  return character === undefined || WHITESPACE.test(character);
}

function isPunctuation(character: string | undefined): boolean {
  return character !== undefined && PUNCTUATION.test(character);
}

/**
 * An upper estimate of how deep emphasis-like delimiters (`*`, `_`, `~`) nest in one block, by the CommonMark
 * flanking rules: a run that can only open adds its length, one that can only close takes it away. Inline code spans
 * and a block that is a fenced code block hold no emphasis.
 */
export function inlineNestingDepth(block: string): number {
  if (fenceOpenedBy(block.split('\n', 1)[0] ?? '') !== null) return 0;
  let depth = 0;
  let deepest = 0;
  let index = 0;
  while (index < block.length) {
    const character = block[index] ?? '';
    if (character === '\\') {
      index += 2;
      continue;
    }
    if (character === '`') {
      let runEnd = index;
      while (block[runEnd] === '`') runEnd += 1;
      const fence = block.slice(index, runEnd);
      const closing = block.indexOf(fence, runEnd);
      // An unmatched backtick run is literal text; a matched one is a code span, skipped whole.
      index = closing < 0 ? runEnd : closing + fence.length;
      continue;
    }
    if (!DELIMITER_CHARACTERS.has(character)) {
      index += 1;
      continue;
    }
    let runEnd = index;
    while (block[runEnd] === character) runEnd += 1;
    const before = block[index - 1];
    const after = block[runEnd];
    const leftFlanking = !isWhitespace(after) && (!isPunctuation(after) || isWhitespace(before) || isPunctuation(before));
    const rightFlanking = !isWhitespace(before) && (!isPunctuation(before) || isWhitespace(after) || isPunctuation(after));
    const length = runEnd - index;
    if (leftFlanking && !rightFlanking) depth += length;
    else if (rightFlanking && !leftFlanking) depth = Math.max(0, depth - length);
    deepest = Math.max(deepest, depth);
    index = runEnd;
  }
  return deepest;
}
