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
        <div className="markdown">
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
