// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './Markdown';

afterEach(cleanup);

const shown = (text: string): HTMLElement => render(<MarkdownView text={text} />).container;

describe('raw HTML in a reply shows as the characters typed, but for a few bare formatting tags', () => {
  it.each([
    ['Compare: if a<b and c>d then x <= y.', 'Compare: if a<b and c>d then x <= y.'],
    ['Generic types: List<String> and Map<K, V> in Java.', 'Generic types: List<String> and Map<K, V> in Java.'],
    ['A tag with an attribute: H<sub class="x">2</sub>O, <kbd onclick="alert(1)">Ctrl</kbd>', 'A tag with an attribute: H<sub class="x">2</sub>O, <kbd onclick="alert(1)">Ctrl</kbd>'],
    ['Never closed: x<sup>2 and <b>bold</b>', 'Never closed: x<sup>2 and <b>bold</b>'],
    ['A closing tag alone: </mark> and <script>alert(1)</script>', 'A closing tag alone: </mark> and <script>alert(1)</script>'],
  ])('keeps every word of %j', (text, words) => {
    const container = shown(text);
    expect(container.textContent).toBe(words);
    expect(container.querySelector('sub, sup, kbd, mark, b, script')).toBeNull();
  });

  it('shows bare <sub>, <sup>, <kbd> and <mark> around words as those elements, nested too', () => {
    const container = shown('H<sub>2</sub>O, E = mc<sup>2</sup>, <kbd>Ctrl</kbd>+<kbd>C</kbd>, <mark>note <sup>this</sup></mark>, <SUB>n</SUB>');
    expect(container.textContent).toBe('H2O, E = mc2, Ctrl+C, note this, n');
    expect([...container.querySelectorAll('sub, sup, kbd, mark')].map((element) => `${element.tagName.toLowerCase()}:${element.textContent}`)).toEqual([
      'sub:2', 'sup:2', 'kbd:Ctrl', 'kbd:C', 'mark:note this', 'sup:this', 'sub:n',
    ]);
    expect(container.querySelector('mark')!.attributes).toHaveLength(0);
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

  it('breaks the line where a table cell says <br>, in each way it is written', () => {
    const container = shown('| Note |\n| --- |\n| first line<br>second line<BR/>third<br />fourth |');
    const cell = container.querySelector('td')!;
    expect(cell.textContent).toBe('first line\nsecond line\nthird\nfourth');
    expect(cell.querySelectorAll('br')).toHaveLength(3);
    expect(shown('one<br class="x">two').textContent).toBe('one<br class="x">two');
  });
});
