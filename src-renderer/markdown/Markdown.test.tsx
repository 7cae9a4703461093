// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarkdownBlock, MarkdownView } from './Markdown';

afterEach(cleanup);

function renderMarkdown(text: string): HTMLElement {
  return render(<MarkdownView text={text} />).container;
}

describe('MarkdownView sanitising', () => {
  it('renders no script, no event handler and no script URL from a hostile reply', () => {
    const container = renderMarkdown(
      [
        'Hello <script>alert("x")</script> there.',
        '',
        '<img src="x" onerror="alert(1)">',
        '',
        '<a href="javascript:alert(2)">html link</a>',
        '',
        '[click me](javascript:alert(3)) and [data](data:text/html,hi) and <javascript:alert(4)>',
        '',
        '![pixel](https://tracker.example/p.gif)',
      ].join('\n'),
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
    const everyElement = Array.from(container.querySelectorAll('*'));
    expect(everyElement.flatMap((element) => element.getAttributeNames()).filter((name) => name.startsWith('on'))).toEqual(
      [],
    );
    const attributeValues = everyElement.flatMap((element) =>
      element.getAttributeNames().map((name) => element.getAttribute(name) ?? ''),
    );
    expect(attributeValues.filter((value) => /javascript:|data:/i.test(value))).toEqual([]);
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.textContent).toContain('click me');
    expect(container.textContent).toContain('[image: pixel]');
  });

  it('opens http, https and mailto links in a new window without an opener', () => {
    const container = renderMarkdown('[site](https://example.com/docs) and [mail](mailto:a@example.com) and [rel](/local)');
    const links = Array.from(container.querySelectorAll('a'));
    expect(links.map((link) => [link.getAttribute('href'), link.getAttribute('rel'), link.getAttribute('target')])).toEqual([
      ['https://example.com/docs', 'noopener noreferrer', '_blank'],
      ['mailto:a@example.com', 'noopener noreferrer', '_blank'],
    ]);
    expect(container.querySelector('.md-unlinked')?.textContent).toBe('rel');
  });

  it('titles a link with its real destination, whatever its words or its own title claim', () => {
    const container = renderMarkdown('[https://bank.example/login](https://attacker.example/x "https://bank.example/login")');
    const link = container.querySelector('a');
    expect([link?.textContent, link?.getAttribute('href'), link?.getAttribute('title')]).toEqual([
      'https://bank.example/login',
      'https://attacker.example/x',
      'https://attacker.example/x',
    ]);
  });
});

describe('MarkdownView rendering', () => {
  it('renders GFM tables, strikethrough and task lists', () => {
    const container = renderMarkdown('| a | b |\n| - | - |\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n- [ ] open');
    expect(Array.from(container.querySelectorAll('.md-table-wrap td')).map((cell) => cell.textContent)).toEqual(['1', '2']);
    expect(container.querySelector('del')?.textContent).toBe('old');
    const boxes = Array.from(container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));
    expect(boxes.map((box) => [box.checked, box.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('highlights a fenced code block and labels its language', () => {
    const container = renderMarkdown('```js\nconst answer = 42;\n```');
    expect(container.querySelector('.code-block-language')?.textContent).toBe('js');
    expect(container.querySelector('pre code.hljs .hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('pre')?.textContent).toBe('const answer = 42;\n');
  });

  it('shows an unknown language as plain code', () => {
    const container = renderMarkdown('```nosuchlanguage\n<b>x</b>\n```');
    expect(container.querySelector('.code-block-language')?.textContent).toBe('nosuchlanguage');
    expect(container.querySelector('pre')?.textContent).toBe('<b>x</b>\n');
    expect(container.querySelector('pre b')).toBeNull();
  });

  it('copies the code of a block with its Copy button', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const view = render(<MarkdownView text={'Text\n\n```py\nprint("hi")\n```'} />);
    const button = view.getByTestId('copy-code');
    await act(async () => {
      fireEvent.click(button);
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('print("hi")\n');
    expect(button.textContent).toBe('Copied');
  });

  it('renders split blocks exactly as the whole text would render', () => {
    const samples = [
      'Intro paragraph.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- a\n  - b\n\n- c\n\n1. one\n\n2. two\n\nEnd.',
      '# Title\n\nText with **bold**.\n\n| x | y |\n| - | - |\n| 1 | 2 |\n\n> quote\n\n> another\n\n---\n\n    indented\n\n    code',
      'Steps:\n- a\n\n- b\n\n  more b\n\nDone\r\n\r\n~~~\r\n```\r\n\r\n~~~',
    ];
    const withoutBlockBreaks = (html: string) => html.replace(/>\n+</g, '><');
    for (const sample of samples) {
      const split = renderToStaticMarkup(<MarkdownView text={sample} />);
      const whole = renderToStaticMarkup(
        <div className="markdown md-flat">
          <MarkdownBlock source={sample.replace(/\r\n?/g, '\n')} />
        </div>,
      );
      expect(withoutBlockBreaks(split)).toBe(withoutBlockBreaks(whole));
    }
  });

  it('parses text with reference definitions whole, so references resolve', () => {
    const container = renderMarkdown('See [the docs][docs].\n\n[docs]: https://example.com/docs');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com/docs');
  });
});

describe('MarkdownView with deeply nested replies', () => {
  /** How many elements matching `selector` enclose the deepest one. */
  function nestingDepth(container: HTMLElement, selector: string): number {
    let deepest = 0;
    for (const element of Array.from(container.querySelectorAll(selector))) {
      let depth = 0;
      for (let current: Element | null = element; current !== null; current = current.parentElement?.closest(selector) ?? null) depth += 1;
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  }

  it('renders 3,000 nested block quotes as 32 quotes holding the rest as text', () => {
    const container = renderMarkdown(`${'>'.repeat(3000)} deep`);
    expect(nestingDepth(container, 'blockquote')).toBe(32);
    expect(container.textContent?.trim()).toBe(`${'>'.repeat(2968)} deep`);
    expect(container.querySelector('[data-testid="markdown-fallback"]')).toBeNull();
  });

  it('renders 1,200 nested bullets as 32 lists holding the rest as text', () => {
    const container = renderMarkdown(`${'- '.repeat(1200)}deep`);
    expect(nestingDepth(container, 'ul')).toBe(32);
    expect(container.textContent?.trim()).toBe(`${'- '.repeat(1168)}deep`);
    expect(container.querySelector('[data-testid="markdown-fallback"]')).toBeNull();
  });

  it('renders 1,000 nested ordered items as 32 lists holding the rest as text', () => {
    const container = renderMarkdown(`${'1. '.repeat(1000)}deep`);
    expect(nestingDepth(container, 'ol')).toBe(32);
    expect(container.textContent?.trim()).toBe(`${'1. '.repeat(968)}deep`);
    expect(container.querySelector('[data-testid="markdown-fallback"]')).toBeNull();
  });

  it('keeps a reply formatted around a deeply nested block', () => {
    const container = renderMarkdown(`**Before**\n\n${'> '.repeat(1500)}middle\n\n*After*`);
    expect(container.querySelector('strong')?.textContent).toBe('Before');
    expect(container.querySelector('em')?.textContent).toBe('After');
    expect(nestingDepth(container, 'blockquote')).toBe(32);
  });
});

describe('MarkdownView with huge tables', () => {
  it('formats a 2,000-row, 300-column table up to its budget and shows the remaining rows as plain text', () => {
    const header = `|${Array.from({ length: 300 }, (_, column) => ` h${column} |`).join('')}`;
    const rows = Array.from({ length: 2000 }, (_, row) => `|${' x |'.repeat(299)} row${row} |`);
    const container = renderMarkdown([header, `|${' - |'.repeat(300)}`, ...rows].join('\n'));
    // 2,000 separators hold the header, the delimiter row and four rows of 301 separators each.
    expect(container.querySelectorAll('table tbody tr')).toHaveLength(4);
    expect(container.querySelectorAll('table thead th')).toHaveLength(300);
    const plain = container.querySelector('[data-testid="markdown-over-budget"]');
    expect(plain?.textContent?.split('\n')).toEqual(rows.slice(4));
    // Plain text in pieces of whole lines: elements that hold nothing but their text.
    const pieces = [...(plain?.children ?? [])];
    expect(pieces.length).toBeGreaterThan(100);
    for (const piece of pieces) {
      expect(piece.className).toBe('md-piece');
      expect([...piece.childNodes].map((node) => node.nodeType)).toEqual([Node.TEXT_NODE]);
    }
  });
});

describe('MarkdownView with deeply nested emphasis', () => {
  it('formats emphasis up to the limit and shows deeper emphasis as the characters typed', () => {
    const shallow = renderMarkdown(`${'*a '.repeat(64)}x${' b*'.repeat(64)}`);
    expect(shallow.querySelectorAll('em')).toHaveLength(64);

    const deep = `${'*a '.repeat(3000)}x${' b*'.repeat(3000)}`;
    const container = renderMarkdown(`**Before**\n\n${deep}`);
    expect(container.querySelector('strong')?.textContent).toBe('Before');
    expect(container.querySelectorAll('em')).toHaveLength(0);
    expect(container.querySelectorAll('p')[1]?.textContent).toBe(deep);
    expect(container.querySelector('[data-testid="markdown-fallback"]')).toBeNull();
  });

  it('shows deeply nested strong and strikethrough as typed as well', () => {
    for (const deep of [`${'**a '.repeat(1500)}x${' b**'.repeat(1500)}`, `${'~~a '.repeat(1500)}x${' b~~'.repeat(1500)}`]) {
      const container = renderMarkdown(deep);
      expect(container.querySelectorAll('strong, del')).toHaveLength(0);
      expect(container.textContent).toBe(deep);
    }
  });
});
