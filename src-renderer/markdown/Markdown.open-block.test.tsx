// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import type * as ReactMarkdown from 'react-markdown';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPEN_BLOCK_PIECE_CHARS } from '../../src-shared/markdown/open-block';
import { splitBlocks } from '../../src-shared/markdown/split-blocks';
import { MAX_TABLE_CELL_SEPARATORS } from '../../src-shared/markdown/table-budget';

const parsedSources: string[] = [];

vi.mock('react-markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactMarkdown>();
  return {
    ...actual,
    default: (options: ReactMarkdown.Options) => {
      parsedSources.push(options.children ?? '');
      return createElement(actual.default, options);
    },
  };
});

const { MarkdownBlock, MarkdownView } = await import('./Markdown');

afterEach(() => {
  cleanup();
  parsedSources.length = 0;
});

/** A deterministic generator, so a failing chunking can be replayed. */
function randomChunkSizes(seed: number, largest: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return 1 + (state % largest);
  };
}

/** What every block of `text` gives parsed whole, each on its own, as the view rendered before pieces existed. */
function wholeParseHtml(text: string): string {
  const { completed, tail } = splitBlocks(text);
  const blocks = [...completed, tail.replace(/\n[ \t\n]*$/, '')].filter((block) => block !== '');
  const view = render(
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} source={block} />
      ))}
    </div>,
  );
  const html = view.container.innerHTML;
  view.unmount();
  return html;
}

/**
 * The HTML of a view with what streaming adds taken away: the elements around each group of blocks, each block and
 * each piece of a fence, a list or a table, the numbers an ordered list's pieces give their items, and the view's own
 * classes.
 */
function withoutPieceElements(container: HTMLElement): string {
  const copy = container.cloneNode(true) as HTMLElement;
  for (const wrapper of copy.querySelectorAll('.md-group, .md-block')) wrapper.replaceWith(...wrapper.childNodes);
  // A list's pieces are lists of their own: the first takes the items of the others.
  for (const pieces of copy.querySelectorAll('.md-list-pieces')) {
    const [first, ...rest] = pieces.querySelectorAll(':scope > .md-piece');
    for (const piece of rest) {
      if (first?.lastChild?.nodeValue === '\n') first.lastChild.remove();
      first?.append(...piece.childNodes);
    }
    first?.removeAttribute('class');
    pieces.replaceWith(...(first === undefined ? [] : [first]));
  }
  for (const piece of copy.querySelectorAll('.md-piece')) piece.replaceWith(...piece.childNodes);
  // A table's pieces are sections of rows: the first takes the rows of the others.
  for (const table of copy.querySelectorAll('table')) {
    const [first, ...rest] = table.querySelectorAll(':scope > tbody.md-piece-rows');
    for (const section of rest) {
      first?.append(...section.childNodes);
      section.remove();
    }
    first?.removeAttribute('class');
  }
  for (const view of copy.querySelectorAll('.markdown')) view.className = 'markdown';
  return copy.innerHTML;
}

/** Streams `text` in random chunk sizes; returns the HTML while streaming after each chunk, and the final HTML. */
function stream(text: string, seed: number, atEachStep?: (streamedText: string, html: string) => void): string {
  const nextSize = randomChunkSizes(seed, 200);
  const view = render(<MarkdownView text="" streaming />);
  for (let end = 0; end < text.length; ) {
    end = Math.min(text.length, end + nextSize());
    view.rerender(<MarkdownView text={text.slice(0, end)} streaming />);
    atEachStep?.(text.slice(0, end), withoutPieceElements(view.container));
  }
  view.rerender(<MarkdownView text={text} />);
  return withoutPieceElements(view.container);
}

const codeLines = (count: number) =>
  Array.from({ length: count }, (_, index) => `export function add${index}(left: number, right: number): number { return left + right * ${index}; } // sum`);

const TABLE = ['| Brain | Wire | Notes |', '| :--- | ---: | :-: |', ...Array.from({ length: 40 }, (_, index) => `| brain ${index} | \`wire|${index}\` | **bold** [link](https://example.com/${index}) |`)].join('\n');
const LIST = Array.from({ length: 50 }, (_, index) => `${index + 3}. item *${index}* with \`code\`\n    - nested ${index}`).join('\n');
const FENCE = ['```ts', ...codeLines(40)].join('\n');
/** Comments, strings and templates that span lines, around where pieces fill up: a highlighter carries them over. */
const SPANNING_FENCE = [
  '```ts',
  ...Array.from({ length: 12 }, (_, index) => [
    ...codeLines(3),
    '/* a block comment',
    `   that spans lines ${index} */ const after = ${index};`,
    `const template = \`first line ${index}`,
    '  second line ${value} */ // not a comment',
    '  third line`; /* and a comment',
    `  closed */ export const next${index} = 'x';`,
  ]).flat(),
].join('\n');
const PYTHON_FENCE = [
  '```python',
  ...Array.from({ length: 30 }, (_, index) => [`def greet${index}(name):`, '    """A docstring', `    over lines ${index}"""`, `    return f"hello {name} ${index}"  # done`]).flat(),
].join('\n');
const MIXED = [
  '# Title',
  'Some prose with a [link](https://example.com) and <b>raw html</b>.',
  '- tight\n- list\n\n- now loose',
  TABLE,
  `${FENCE}\n\`\`\``,
  LIST,
  '```py\ndef greet(name):\n    """A docstring\n    over lines"""\n    return name',
].join('\n\n');

describe('MarkdownView while a long block streams', () => {
  it.each([
    ['a table', TABLE],
    ['a tight ordered list with nested items', LIST],
    ['an open TypeScript fence', FENCE],
    ['a fence with comments and templates over lines', SPANNING_FENCE],
    ['a closed fence with comments and templates over lines', `${SPANNING_FENCE}\n\`\`\``],
    ['a Python fence with docstrings', `${PYTHON_FENCE}\n\`\`\`\n\nAfter the code.`],
  ])('renders %s piece by piece exactly as a whole parse, at every step', (_name, text) => {
    const final = stream(text, 7, (streamedText, html) => expect(html).toBe(wholeParseHtml(streamedText)));
    expect(final).toBe(wholeParseHtml(text));
  }, 60_000);

  it.each([1, 2, 3])('ends with what a one-shot render gives, for a mixed reply streamed in random chunks (seed %i)', (seed) => {
    expect(stream(MIXED, seed)).toBe(wholeParseHtml(MIXED));
  }, 60_000);

  it('parses only the last piece of an open fence per delta, never the whole block', () => {
    const lines = codeLines(40);
    let text = '```ts';
    const view = render(<MarkdownView text={text} streaming />);
    for (const line of lines) {
      text += `\n${line}`;
      view.rerender(<MarkdownView text={text} streaming />);
    }
    const longest = Math.max(...parsedSources.map((source) => source.length));
    expect(text.length).toBeGreaterThan(3 * OPEN_BLOCK_PIECE_CHARS);
    expect(longest).toBeLessThan(OPEN_BLOCK_PIECE_CHARS + 2 * (lines[0]?.length ?? 0));
    expect(view.container.querySelectorAll('pre')).toHaveLength(1);
    expect(view.container.querySelector('code')?.className).toBe('hljs language-ts');
    expect(view.container.querySelector('pre')?.textContent).toBe(`${lines.join('\n')}\n`);
    // Each piece is a block of its own, so the browser lays out and paints only the last.
    const pieceBlocks = view.container.querySelectorAll('code > .md-piece');
    expect(pieceBlocks.length).toBeGreaterThan(3);
    expect([...pieceBlocks].map((pieceBlock) => pieceBlock.textContent).join('')).toBe(`${lines.join('\n')}\n`);
    view.rerender(<MarkdownView text={text} />);
    expect(withoutPieceElements(view.container)).toBe(wholeParseHtml(text));
  });

  it('keeps the pieces of a long fence when it closes and when the reply ends, parsing nothing whole', () => {
    const lines = codeLines(40);
    const open = ['```ts', ...lines].join('\n');
    const view = render(<MarkdownView text={open} streaming />);
    const firstLine = view.container.querySelector('code > .md-piece > span');
    parsedSources.length = 0;
    view.rerender(<MarkdownView text={`${open}\n\`\`\``} streaming />);
    view.rerender(<MarkdownView text={`${open}\n\`\`\`\n\nAfter the code.`} streaming />);
    view.rerender(<MarkdownView text={`${open}\n\`\`\`\n\nAfter the code.`} />);
    expect(Math.max(...parsedSources.map((source) => source.length))).toBeLessThan(OPEN_BLOCK_PIECE_CHARS + 2 * (lines[0]?.length ?? 0));
    expect(view.container.querySelector('code > .md-piece > span')).toBe(firstLine);
    expect(withoutPieceElements(view.container)).toBe(wholeParseHtml(`${open}\n\`\`\`\n\nAfter the code.`));
  });

  it('numbers each piece of an ordered list from its first item\'s place in the whole list', () => {
    const view = render(<MarkdownView text="" streaming />);
    const items = LIST.split('\n');
    for (let count = 1; count <= items.length; count += 1) view.rerender(<MarkdownView text={items.slice(0, count).join('\n')} streaming />);
    const pieces = [...view.container.querySelectorAll('.md-list-pieces > ol.md-piece')];
    expect(pieces.length).toBeGreaterThan(1);
    let expected = 3;
    for (const piece of pieces) {
      expect(piece.getAttribute('start')).toBe(String(expected));
      expected += piece.querySelectorAll(':scope > li').length;
    }
    expect(expected).toBe(53);
  });

  it('keeps the blocks of a reply that streamed in in groups, which keep their elements as it grows', () => {
    const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} with *emphasis*.`);
    const view = render(<MarkdownView text="" streaming />);
    for (let count = 1; count <= 20; count += 1) view.rerender(<MarkdownView text={paragraphs.slice(0, count).join('\n\n')} streaming />);
    const firstParagraph = view.container.querySelector('.md-group p');
    view.rerender(<MarkdownView text={paragraphs.join('\n\n')} streaming />);
    view.rerender(<MarkdownView text={paragraphs.join('\n\n')} />);
    expect([...view.container.querySelectorAll('.markdown > .md-group')].map((group) => group.children.length)).toEqual([16, 16, 8]);
    expect(view.container.querySelector('.md-group p')).toBe(firstParagraph);
    expect(withoutPieceElements(view.container)).toBe(wholeParseHtml(paragraphs.join('\n\n')));
    // Read from history, the same reply renders its blocks in one run.
    const fromHistory = render(<MarkdownView text={paragraphs.join('\n\n')} />);
    expect(fromHistory.container.querySelector('.md-group')).toBeNull();
  });

  it('holds each block of a reply that streamed in in an element of its own, the last one marked, lines past the table budget after it', () => {
    const overBudgetTable = ['| a | b |', '| - | - |', ...Array.from({ length: MAX_TABLE_CELL_SEPARATORS / 3 + 10 }, (_, index) => `| ${index} | x |`)].join('\n');
    const blockClasses = (container: HTMLElement) => [...container.querySelectorAll('.md-group > *')].map((block) => block.className);
    const view = render(<MarkdownView text={'# Title\n\nIntro.\n\n' + overBudgetTable.split('\n').slice(0, 40).join('\n')} streaming />);
    expect(blockClasses(view.container)).toEqual(['md-block', 'md-block', 'md-block md-last']);
    const table = view.container.querySelector('.md-block.md-last table');
    view.rerender(<MarkdownView text={'# Title\n\nIntro.\n\n' + overBudgetTable} streaming />);
    // The lines past the budget come as a block of their own: the table keeps its elements and its block.
    expect(blockClasses(view.container)).toEqual(['md-block', 'md-block', 'md-block', 'md-block md-last']);
    expect(view.container.querySelector('.md-block.md-last [data-testid="markdown-over-budget"]')).not.toBeNull();
    expect(view.container.querySelector('.md-block:nth-child(3) table')).toBe(table);
    view.rerender(<MarkdownView text={'# Title\n\nIntro.\n\n' + overBudgetTable + '\n\nAfter.'} />);
    expect(blockClasses(view.container)).toEqual(['md-block', 'md-block', 'md-block', 'md-block', 'md-block md-last']);
    expect(view.container.querySelector('.md-block.md-last')?.innerHTML).toBe('<p>After.</p>');
    // Read from history, the blocks are the view's own children.
    const fromHistory = render(<MarkdownView text={'One.\n\nTwo.'} />);
    expect(fromHistory.container.querySelector('.markdown')?.innerHTML).toBe('<p>One.</p><p>Two.</p>');
  });

  it('keeps a reply that streamed in contained after it ends, until the width of the view changes', () => {
    const observed: { callback: ResizeObserverCallback; target: Element | null }[] = [];
    class RecordingResizeObserver {
      private readonly record: { callback: ResizeObserverCallback; target: Element | null };
      constructor(callback: ResizeObserverCallback) {
        this.record = { callback, target: null };
        observed.push(this.record);
      }
      observe(target: Element) {
        this.record.target = target;
      }
      disconnect() {
        this.record.target = null;
      }
      unobserve() {}
    }
    vi.stubGlobal('ResizeObserver', RecordingResizeObserver);
    try {
      const resizeTo = (width: number) =>
        act(() => {
          for (const { callback, target } of observed) {
            if (target !== null) callback([{ contentRect: { width } } as ResizeObserverEntry], {} as ResizeObserver);
          }
        });
      const view = render(<MarkdownView text={`${FENCE}\n`} streaming />);
      const className = () => view.container.querySelector('.markdown')?.className;
      expect(className()).toBe('markdown md-grouped md-streamed');
      view.rerender(<MarkdownView text={FENCE} />);
      resizeTo(600);
      resizeTo(600);
      expect(className()).toBe('markdown md-grouped md-streamed');
      resizeTo(480);
      expect(className()).toBe('markdown md-grouped');
      // Read from history, a reply is never contained.
      expect(render(<MarkdownView text={FENCE} />).container.querySelector('.markdown')?.className).toBe('markdown md-flat');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('parses only the last piece of an open table or list per delta', () => {
    for (const text of [TABLE, LIST]) {
      const view = render(<MarkdownView text="" streaming />);
      const rows = text.split('\n');
      for (let count = 1; count <= rows.length; count += 1) view.rerender(<MarkdownView text={rows.slice(0, count).join('\n')} streaming />);
      view.unmount();
      // The first rows parse whole, before a piece can be told apart.
      const longest = Math.max(...parsedSources.slice(10).map((source) => source.length));
      expect(text.length).toBeGreaterThan(2 * OPEN_BLOCK_PIECE_CHARS);
      expect(longest).toBeLessThan(OPEN_BLOCK_PIECE_CHARS + 300);
      parsedSources.length = 0;
    }
  });

  it('keeps the elements of a long table when it completes, and when the reply ends', () => {
    const view = render(<MarkdownView text={TABLE} streaming />);
    const firstRow = view.container.querySelector('tbody tr');
    view.rerender(<MarkdownView text={`${TABLE}\n\nAfter the table.`} streaming />);
    view.rerender(<MarkdownView text={`${TABLE}\n\nAfter the table.`} />);
    expect(view.container.querySelector('tbody tr')).toBe(firstRow);
    expect(withoutPieceElements(view.container)).toBe(wholeParseHtml(`${TABLE}\n\nAfter the table.`));
  });

  it("holds a streamed table's rows in a section per piece, on layers while the table grows, striped from the whole table's rows", () => {
    // Rows of 70 characters: a piece of 15 rows, so every other section starts on an even row.
    const table = ['| # | text |', '| - | - |', ...Array.from({ length: 50 }, (_, index) => `| ${String(index).padStart(2, '0')} | ${'x'.repeat(60)} |`)].join('\n');
    const sections = (container: HTMLElement) => [...container.querySelectorAll<HTMLTableSectionElement>('table > tbody')];
    const view = render(<MarkdownView text={table} streaming />);
    const growing = sections(view.container);
    expect(growing.length).toBeGreaterThan(2);
    // A section starts with a striped row when its first row is an even row of the whole table.
    let rowsBefore = 0;
    const expectedClasses = growing.map((section) => {
      const classes = rowsBefore % 2 === 1 ? 'md-piece-rows md-rows-from-even md-layer' : 'md-piece-rows md-layer';
      rowsBefore += section.rows.length;
      return classes;
    });
    expect(rowsBefore).toBe(50);
    expect(expectedClasses.filter((classes) => classes.includes('md-rows-from-even'))).toHaveLength(2);
    expect(growing.map((section) => section.className)).toEqual(expectedClasses);
    // Once the table is complete its sections leave their layers, and keep their elements.
    view.rerender(<MarkdownView text={`${table}\n\nAfter.`} streaming />);
    expect(sections(view.container)).toEqual(growing);
    expect(growing.map((section) => section.className)).toEqual(expectedClasses.map((classes) => classes.replace(' md-layer', '')));
  });

  it('keeps the sanitising and link rules inside an open block', () => {
    const text = [
      '| a | b |',
      '| - | - |',
      '| [x](javascript:alert(1)) | <img src=x onerror=alert(1)> ![cat](https://evil.example/cat.png) |',
      '| [ok](https://example.com) | <script>alert(1)</script> |',
    ].join('\n');
    const view = render(<MarkdownView text={text} streaming />);
    expect(view.container.querySelector('script, img, [onerror]')).toBeNull();
    expect([...view.container.querySelectorAll('a')].map((link) => [link.getAttribute('href'), link.getAttribute('rel')])).toEqual([
      ['https://example.com/', 'noopener noreferrer'],
    ]);
    expect(view.container.querySelector('.md-image-alt')?.textContent).toBe('[image: cat]');
    expect(withoutPieceElements(view.container)).toBe(wholeParseHtml(text));
  });
});
