// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarkdownView } from './Markdown';

/** jsdom lays nothing out: a cell's text is this many pixels a character wide, and the table's place is `place` wide. */
const CHARACTER_PX = 8;
let place = 1_000;
/** Each cell's padding and border, as markdown.css gives them. */
const CELL_FRAME_PX = 12 + 12 + 1;

beforeEach(() => {
  const cellStyle = document.createElement('style');
  cellStyle.textContent = 'th, td { padding: 6px 12px; border-width: 0 1px 0 0; border-style: solid; }';
  document.head.append(cellStyle);
  place = 1_000;
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('md-table-wrap') ? place : 0;
  });
  Range.prototype.getBoundingClientRect = function (this: Range) {
    return { width: (this.startContainer.textContent ?? '').length * CHARACTER_PX } as DOMRect;
  };
});

afterEach(() => {
  cleanup();
  document.head.replaceChildren();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const HEAD = ['| # | name |', '| --: | --- |'];
/** Rows long enough that 20 of them make more than one piece, so the table has drawn a section of rows. */
const row = (index: number, name = `name ${index} ${'-'.repeat(40)}`) => `| ${index} | ${name} |`;
const ROWS = Array.from({ length: 20 }, (_, index) => row(index + 1));
const table = (...rows: string[]) => [...HEAD, ...rows].join('\n');

const heldTable = (container: HTMLElement) => container.querySelector<HTMLTableElement>('table.md-held-columns');
/** Each held column's width, less its cells' padding and border: the width of its widest text. */
const columnWidths = (container: HTMLElement) =>
  Array.from(container.querySelectorAll<HTMLElement>('table > colgroup > col'), (column) => `${Number.parseFloat(column.style.width) - CELL_FRAME_PX}px`);

describe('a streamed table holding its columns', () => {
  it("holds its complete rows' widths once it has drawn a section of rows, widening a column only when a wider row completes", () => {
    const view = render(<MarkdownView text={table(...ROWS.slice(0, 2))} streaming />);
    // One section: automatic layout.
    expect(heldTable(view.container)).toBeNull();

    const longName = `a much longer name than any before it ${'='.repeat(20)}`;
    view.rerender(<MarkdownView text={table(...ROWS, row(21, longName))} streaming />);
    expect(view.container.querySelectorAll('table > tbody').length).toBeGreaterThan(1);
    const widest = Math.max(...ROWS.map((line) => line.split('|')[2]?.trim().length ?? 0)) * CHARACTER_PX;
    // The last row may still grow: its cells keep to the columns until the next row starts.
    expect(columnWidths(view.container)).toEqual([`${2 * CHARACTER_PX}px`, `${widest}px`]);
    const held = heldTable(view.container);
    expect(held?.style.width).toBe(`${2 * CHARACTER_PX + widest + 2 * CELL_FRAME_PX + 1}px`);

    view.rerender(<MarkdownView text={table(...ROWS, row(21, longName), row(22))} streaming />);
    expect(columnWidths(view.container)).toEqual([`${2 * CHARACTER_PX}px`, `${longName.length * CHARACTER_PX}px`]);
    // The same table element throughout: only its columns change.
    expect(heldTable(view.container)).toBe(held);

    // Once the reply ends, its last row counts too, and the widths stay held.
    view.rerender(<MarkdownView text={table(...ROWS, row(21, longName), row(22), row(100, `${longName}!`))} />);
    expect(columnWidths(view.container)).toEqual([`${3 * CHARACTER_PX}px`, `${(longName.length + 1) * CHARACTER_PX}px`]);
  });

  it('lets go for good once the table would be wider than its place, where automatic layout wraps its cells', () => {
    const view = render(<MarkdownView text={table(...ROWS)} streaming />);
    expect(heldTable(view.container)).not.toBeNull();
    const tooWide = 'x'.repeat(place / CHARACTER_PX);
    view.rerender(<MarkdownView text={table(...ROWS, row(21, tooWide), row(22))} streaming />);
    expect(heldTable(view.container)).toBeNull();
    expect(view.container.querySelector('colgroup')).toBeNull();
    view.rerender(<MarkdownView text={table(...ROWS, row(21, tooWide), row(22), row(23))} streaming />);
    expect(heldTable(view.container)).toBeNull();
  });

  it("lets go once the view's width changes", () => {
    const callbacks: ResizeObserverCallback[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: ResizeObserverCallback) {
          callbacks.push(callback);
        }
        observe() {}
        disconnect() {}
        unobserve() {}
      },
    );
    const resizeTo = (width: number) =>
      act(() => {
        for (const callback of callbacks) callback([{ contentRect: { width } } as ResizeObserverEntry], {} as ResizeObserver);
      });
    const view = render(<MarkdownView text={table(...ROWS)} streaming />);
    view.rerender(<MarkdownView text={table(...ROWS)} />);
    resizeTo(800);
    expect(heldTable(view.container)).not.toBeNull();
    resizeTo(600);
    expect(heldTable(view.container)).toBeNull();
  });

  it('never holds a table that is not laid out, nor one read from history', () => {
    expect(heldTable(render(<MarkdownView text={table(...ROWS)} />).container)).toBeNull();
    place = 0;
    expect(heldTable(render(<MarkdownView text={table(...ROWS)} streaming />).container)).toBeNull();
  });
});
