export interface SplitBlocks {
  /** Top-level blocks that later text can no longer change, each parsed on its own. */
  readonly completed: readonly string[];
  /** The block still open (with any blank lines after it): the only part a new delta can change. */
  readonly tail: string;
}

export interface OpenFence {
  readonly marker: '`' | '~';
  readonly length: number;
  readonly indent: number;
}

const FENCE_OPENING = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSING = /^([ \t]*)(`{3,}|~{3,})[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;
/** The start of a streamed line that may still become "12. item". */
const UNFINISHED_ORDERED_MARKER = /^\d{1,9}$/;

export function indentWidth(whitespace: string): number {
  let width = 0;
  for (const character of whitespace) width += character === '\t' ? 4 - (width % 4) : 1;
  return width;
}

export function fenceOpenedBy(line: string): OpenFence | null {
  const match = FENCE_OPENING.exec(line);
  if (match === null) return null;
  const [, indent = '', fence = '', info = ''] = match;
  const marker = fence.startsWith('`') ? '`' : '~';
  // A backtick fence's info string cannot hold a backtick: "```a```" is inline code.
  if (marker === '`' && info.includes('`')) return null;
  return { marker, length: fence.length, indent: indentWidth(indent) };
}

export function closesFence(line: string, fence: OpenFence): boolean {
  const match = FENCE_CLOSING.exec(line);
  if (match === null) return false;
  const [, indent = '', closing = ''] = match;
  return closing.startsWith(fence.marker) && closing.length >= fence.length && indentWidth(indent) <= fence.indent + 3;
}

/**
 * Splits markdown into top-level blocks at blank lines, for parsing each completed block once while a reply streams.
 * A block ends only where a whole-text parse would end it too: never inside an open code fence, never between
 * items or indented continuations of a list. Line endings come out as "\n".
 */
export function splitBlocks(text: string): SplitBlocks {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const completed: string[] = [];
  let current: string[] = [];
  let blanks: string[] = [];
  let containsList = false;
  let fence: OpenFence | null = null;

  for (const [index, line] of lines.entries()) {
    if (fence !== null) {
      current.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (BLANK.test(line)) {
      if (current.length > 0) blanks.push(line);
      continue;
    }
    if (blanks.length > 0) {
      // After a blank line, an indented line or another list item may still belong to the block above.
      const isLastLine = index === lines.length - 1;
      const continuesBlock =
        /^[ \t]/.test(line) ||
        (containsList && (LIST_ITEM.test(line) || (isLastLine && UNFINISHED_ORDERED_MARKER.test(line))));
      if (continuesBlock) {
        current.push(...blanks);
      } else {
        completed.push(current.join('\n'));
        current = [];
        containsList = false;
      }
      blanks = [];
    }
    current.push(line);
    if (LIST_ITEM.test(line)) containsList = true;
    fence = fenceOpenedBy(line);
  }
  return { completed, tail: [...current, ...blanks].join('\n') };
}

/** Link reference and footnote definitions reach across blocks, so text holding one is parsed whole. */
export function hasDefinitions(text: string): boolean {
  return /^ {0,3}\[[^\]\n]+\]:/m.test(text);
}
