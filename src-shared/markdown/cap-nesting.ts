import { closesFence, fenceOpenedBy, indentWidth, type OpenFence } from './split-blocks';

/**
 * Containers (block quotes, list items) nested deeper than this render as text. remark and React recurse once per
 * level, so 3,000 `>` or 1,200 `- ` on one line overflow the call stack; 32 levels is far beyond any real reply.
 */
export const MAX_CONTAINER_DEPTH = 32;

/** A block quote marker, or a list marker followed by a space, a tab or the end of the line (CommonMark). */
const CONTAINER_MARKER = /(>)|([-*+])(?=[ \t]|$)|(\d{1,9})([.)])(?=[ \t]|$)/y;
const LEADING_WHITESPACE = /[ \t]*/y;
/** `* * *` and `- - -` are thematic breaks, which nest nothing, however many markers they hold. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/**
 * The line with its first container marker beyond `maxDepth` backslash-escaped, so that marker and everything after
 * it is paragraph text inside the deepest allowed container. Indentation counts a level per two columns: the least a
 * nested list item needs, so the count never falls below the depth a parser would reach.
 */
function capLine(line: string, maxDepth: number): string {
  if (THEMATIC_BREAK.test(line)) return line;
  let position = 0;
  let depth = 0;
  for (;;) {
    LEADING_WHITESPACE.lastIndex = position;
    const whitespace = LEADING_WHITESPACE.exec(line)?.[0] ?? '';
    const markerStart = position + whitespace.length;
    CONTAINER_MARKER.lastIndex = markerStart;
    const marker = CONTAINER_MARKER.exec(line);
    if (marker === null) return line;
    depth += Math.floor(indentWidth(whitespace) / 2) + 1;
    const markerEnd = markerStart + marker[0].length;
    if (depth > maxDepth) {
      // "1." escapes as "1\.": a backslash before a digit would stay visible.
      const escapeAt = marker[4] === undefined ? markerStart : markerEnd - 1;
      return `${line.slice(0, escapeAt)}\\${line.slice(escapeAt)}`;
    }
    position = markerEnd;
  }
}

/**
 * Markdown whose container nesting stays within `maxDepth`: every character of the text is kept, markers beyond
 * the limit render as the characters they are. Lines inside a fenced code block are code and stay untouched.
 */
export function capNesting(markdown: string, maxDepth: number = MAX_CONTAINER_DEPTH): string {
  const lines = markdown.split('\n');
  let fence: OpenFence | null = null;
  let changed = false;
  for (const [index, line] of lines.entries()) {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = fenceOpenedBy(line);
    if (fence !== null) continue;
    const capped = capLine(line, maxDepth);
    if (capped !== line) {
      lines[index] = capped;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : markdown;
}
