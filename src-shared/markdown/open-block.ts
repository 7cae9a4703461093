import { closesFence, fenceOpenedBy, indentWidth } from './split-blocks';

/**
 * A long block is cut into pieces that each parse on their own to exactly what the same lines give inside the whole
 * block: while a reply streams, the finished pieces of its open block then parse once and a delta re-parses only the
 * last piece, and the block keeps its pieces when it completes. A piece closes at the first finished unit (code line,
 * table row, list item) that takes it to this many characters (for code, the first such line where the highlighter
 * has nothing open), so the cuts depend on the text alone, never on how it arrived.
 */
export const OPEN_BLOCK_PIECE_CHARS = 1_024;

export type OpenBlockParts =
  /** A code fence, closed or not: `opener` is its first line, each piece a run of its code lines. */
  | { readonly kind: 'fence'; readonly opener: string; readonly pieces: readonly string[] }
  /** A table: `head` is its header and delimiter rows, each piece a run of body rows, `firstRows[i]` the index of piece i's first. */
  | { readonly kind: 'table'; readonly head: string; readonly pieces: readonly string[]; readonly firstRows: readonly number[] }
  /**
   * A tight list: `marker` is its first item's marker (`-`, `3.`), each piece a run of whole items, and
   * `firstItems[i]` the index in the list of piece i's first item.
   */
  | { readonly kind: 'list'; readonly marker: string; readonly pieces: readonly string[]; readonly firstItems: readonly number[] };

/**
 * Whether a fence's code in `language` (its info string's first word) may end a piece after `code`: a highlighter
 * carries state from line to line (a block comment, a template string), so a piece may end only where nothing is open,
 * or its lines would be highlighted apart from what comes before them.
 */
export type FenceCutCheck = (language: string, code: string) => boolean;

/** A GFM delimiter row: cells of dashes with optional alignment colons. */
const TABLE_DELIMITER_CELL = /^[ \t]*:?-+:?[ \t]*$/;
/** A row that starts with a pipe continues a table: no other block starts that way. */
const TABLE_ROW = /^ {0,3}\|/;
/** `- [ ]` and `1. [x]`: one task item gives its whole list the `contains-task-list` class. */
const TASK_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX]\](?:[ \t]|$)/;
/** `* * *` and `- - -` are thematic breaks, not list items. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_MARKER = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const BLANK = /^[ \t]*$/;

/**
 * The pieces of a block, or null when the block must parse whole: anything but a table whose rows all start with
 * `|`, a tight list of one marker kind whose lines are items or indented continuations, or, when `fenceCut` is given,
 * a fence (open, or closed by its last line), cut only where `fenceCut` allows. The last line is included (in the last
 * piece) although it may still grow.
 */
export function blockPieces(block: string, fenceCut: FenceCutCheck | null): OpenBlockParts | null {
  const lines = block.split('\n');
  if (lines.length < 3) return null;
  return (fenceCut === null ? null : fencePieces(lines, fenceCut)) ?? openTable(lines) ?? openList(lines);
}

interface Pieces {
  readonly pieces: string[];
  /** The index of each piece's first unit. */
  readonly firstUnits: number[];
}

/**
 * Cuts `units` (each one or more whole lines) into pieces, closing a piece once it reaches the size at a unit after
 * which `mayCut` (given the piece so far) allows a cut.
 */
function intoPieces(units: readonly string[], mayCut: (piece: string) => boolean = () => true): Pieces {
  const pieces: string[] = [];
  const firstUnits: number[] = [];
  let current: string[] = [];
  let size = 0;
  for (const [index, unit] of units.entries()) {
    if (current.length === 0) firstUnits.push(index);
    current.push(unit);
    size += unit.length + 1;
    if (size < OPEN_BLOCK_PIECE_CHARS) continue;
    const piece = current.join('\n');
    if (!mayCut(piece)) continue;
    pieces.push(piece);
    current = [];
    size = 0;
  }
  if (current.length > 0) pieces.push(current.join('\n'));
  return { pieces, firstUnits };
}

/** The language a fence's info string names: its first word, as the fence's `language-*` class gets it. */
export function fenceLanguage(opener: string): string {
  return /^[ \t]*(?:`{3,}|~{3,})[ \t]*([^ \t]*)/.exec(opener)?.[1] ?? '';
}

function fencePieces(lines: readonly string[], fenceCut: FenceCutCheck): OpenBlockParts | null {
  const [opener = '', ...rest] = lines;
  const fence = fenceOpenedBy(opener);
  if (fence === null) return null;
  const closer = rest.findIndex((line) => closesFence(line, fence));
  // Closed by anything but its last line, the block holds more than the fence.
  if (closer >= 0 && closer !== rest.length - 1) return null;
  const code = closer < 0 ? rest : rest.slice(0, closer);
  const language = fenceLanguage(opener);
  return { kind: 'fence', opener, pieces: intoPieces(code, (piece) => fenceCut(language, piece)).pieces };
}

/** The cells of a row, split at pipes that are not escaped, without the outer pipes. */
function tableCells(row: string): string[] {
  const cells = row.trim().split(/(?<!\\)\|/);
  if (cells[0]?.trim() === '') cells.shift();
  if (cells.length > 0 && cells[cells.length - 1]?.trim() === '') cells.pop();
  return cells;
}

function openTable(lines: readonly string[]): OpenBlockParts | null {
  const [header = '', delimiter = '', ...rows] = lines;
  if (!header.includes('|') || !delimiter.includes('|')) return null;
  const delimiterCells = tableCells(delimiter);
  if (delimiterCells.length === 0 || !delimiterCells.every((cell) => TABLE_DELIMITER_CELL.test(cell))) return null;
  if (tableCells(header).length !== delimiterCells.length) return null;
  if (!rows.every((row) => TABLE_ROW.test(row))) return null;
  const { pieces, firstUnits } = intoPieces(rows);
  return { kind: 'table', head: `${header}\n${delimiter}`, pieces, firstRows: firstUnits };
}

/** Bullets continue a list only with the same character, numbers only with the same delimiter (CommonMark). */
function listKind(marker: string): string {
  return /^\d/.test(marker) ? `ordered ${marker.slice(-1)}` : marker;
}

function openList(lines: readonly string[]): OpenBlockParts | null {
  const first = LIST_MARKER.exec(lines[0] ?? '');
  if (first === null) return null;
  const [, firstIndent = '', firstMarker = ''] = first;
  const items: string[][] = [];
  let contentIndent = 0;
  for (const line of lines) {
    if (BLANK.test(line) || TASK_ITEM.test(line) || fenceOpenedBy(line) !== null) return null;
    const leading = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (items.length > 0 && indentWidth(leading) >= contentIndent) {
      items[items.length - 1]?.push(line);
      continue;
    }
    // A less indented line that is not a sibling item is a lazy continuation or a new block: only a whole parse
    // tells which.
    const marker = LIST_MARKER.exec(line);
    if (marker === null || THEMATIC_BREAK.test(line)) return null;
    const [, indent = '', markerText = '', spacing = ''] = marker;
    if (indent !== firstIndent || listKind(markerText) !== listKind(firstMarker)) return null;
    // After five or more spaces the content is indented code, and the item's content starts one column after the marker.
    const spacingWidth = indentWidth(spacing);
    contentIndent = indentWidth(indent) + markerText.length + (spacingWidth === 0 || spacingWidth > 4 ? 1 : spacingWidth);
    items.push([line]);
  }
  const { pieces, firstUnits } = intoPieces(items.map((item) => item.join('\n')));
  return { kind: 'list', marker: firstMarker, pieces, firstItems: firstUnits };
}

/** Plain text in pieces of whole lines, each but the last ending with its line break, so together they are the text. */
export function textPieces(text: string): string[] {
  const { pieces } = intoPieces(text.split('\n'));
  return pieces.map((piece, index) => (index < pieces.length - 1 ? `${piece}\n` : piece));
}
