// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './Markdown';

afterEach(cleanup);

const shown = (text: string): HTMLElement => render(<MarkdownView text={text} />).container;

describe('raw HTML in a reply shows as the characters typed', () => {
  it.each([
    ['Compare: if a<b and c>d then x <= y.', 'Compare: if a<b and c>d then x <= y.'],
    ['Generic types: List<String> and Map<K, V> in Java.', 'Generic types: List<String> and Map<K, V> in Java.'],
    ['H<sub>2</sub>O and <kbd>Ctrl</kbd>', 'H<sub>2</sub>O and <kbd>Ctrl</kbd>'],
  ])('keeps every word of %j', (text, words) => {
    const container = shown(text);
    expect(container.textContent).toBe(words);
    expect(container.querySelector('sub, kbd, b')).toBeNull();
  });

  it('shows a block of HTML as its lines, with everything inside it, and runs none of it', () => {
    const container = shown('Before.\n\n<details>\n<summary>More</summary>\nHidden words <img src=x onerror="alert(1)">\n</details>\n\nAfter.');
    const paragraphs = [...container.querySelectorAll('p')];
    expect(paragraphs.map((paragraph) => paragraph.textContent)).toEqual([
      'Before.',
      '<details>\n<summary>More</summary>\nHidden words <img src=x onerror="alert(1)">\n</details>',
      'After.',
    ]);
    expect(paragraphs[1]!.querySelectorAll('br')).toHaveLength(3);
    expect(container.querySelector('details, summary, img')).toBeNull();
  });

  it('keeps a line break written as <br> in a table cell as its characters, the cell whole', () => {
    const container = shown('| Note |\n| --- |\n| first line<br>second line |');
    expect(container.querySelector('td')!.textContent).toBe('first line<br>second line');
  });
});
