import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * A growing table's column widths, held by the table itself (`table-layout: fixed`, see `.md-held-columns` in
 * markdown.css) instead of found by Chromium's automatic table layout, which measures every cell of the table again and
 * on some of the frames that add a row lays out and paints every row again (30 to 50 ms at 400 rows). Held widths lay
 * out only the rows that change.
 *
 * The widths are the ones automatic layout gives a table narrower than its place, where no cell wraps: each column as
 * wide as its widest cell's one line of text. They are measured from the rows as they complete (a row's text is
 * complete once the next row starts; until then it may be a half-typed code span, wider than it ends), so a column only
 * ever widens, and only on the frame a wider row completes. The row still growing keeps to its columns meanwhile.
 */

/** The table's own left border (see `.markdown table` in markdown.css): its cells draw the rest. */
const TABLE_LEFT_BORDER_PX = 1;

/** Chromium lays out in 1/64 px, rounding a text's width up. */
const toLayoutUnits = (width: number): number => Math.ceil(width * 64) / 64;

const pixels = (length: string): number => Number.parseFloat(length) || 0;

/** The widths rows `from` to `to` (exclusive) need of each column, each at least its width in `widths`. */
function widthsNeeded(table: HTMLTableElement, widths: readonly number[], from: number, to: number): number[] {
  const needed = [...widths];
  const extent = document.createRange();
  for (let index = from; index < to; index += 1) {
    const cells = table.rows[index]?.cells ?? [];
    for (const [column, cell] of Array.from(cells).entries()) {
      const style = getComputedStyle(cell);
      const frame = pixels(style.paddingLeft) + pixels(style.paddingRight) + pixels(style.borderLeftWidth) + pixels(style.borderRightWidth);
      extent.selectNodeContents(cell);
      needed[column] = Math.max(needed[column] ?? 0, toLayoutUnits(extent.getBoundingClientRect().width) + frame);
    }
  }
  return needed;
}

/** The width the table takes with these columns. */
export const heldTableWidth = (widths: readonly number[]): number => widths.reduce((sum, width) => sum + width, 0) + TABLE_LEFT_BORDER_PX;

/** What a table that no longer holds its widths (or never did) is laid out by. */
type Released = 'released';

/**
 * The widths a streamed table holds, or null for automatic layout. It starts holding once it has drawn a section of
 * rows and started the next (a table's rows stream in a section per piece), if it is narrower than its place; it lets go for good once it would be wider (its cells then wrap,
 * as automatic layout wraps them), and whenever `mayHold` is false (the view's width changed: automatic layout lays the
 * table out again for it anyway). `rows` is what the table's rows are rendered from: they are measured when it changes.
 */
export function useHeldColumns(
  tableRef: RefObject<HTMLTableElement | null>,
  rows: ReactNode,
  growing: boolean,
  mayHold: boolean,
): readonly number[] | null {
  const [held, setHeld] = useState<readonly number[] | Released | null>(null);
  // Rows before this one have been measured into the held widths.
  const measuredRows = useRef(0);
  // Whenever the rows change while the table grows, and once when it ends (its last row is then complete too).
  useEffect(() => {
    const table = tableRef.current;
    if (table === null || held === 'released' || !mayHold || (held === null && !growing)) return;
    // Zero while the table is not laid out (not displayed): nothing to measure yet.
    const place = table.parentElement?.clientWidth ?? 0;
    if (place === 0 || (held === null && table.tBodies.length < 2)) return;
    const completeRows = growing ? table.rows.length - 1 : table.rows.length;
    const from = held === null ? 0 : measuredRows.current;
    if (completeRows <= from) return;
    const needed = widthsNeeded(table, held ?? [], from, completeRows);
    measuredRows.current = completeRows;
    if (held !== null && needed.every((width, column) => width === held[column])) return;
    setHeld(heldTableWidth(needed) > place ? 'released' : needed);
  }, [tableRef, rows, growing, mayHold, held]);
  return mayHold && held !== 'released' ? held : null;
}
