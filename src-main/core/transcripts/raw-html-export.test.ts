import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown';

describe('raw HTML in a reply, in the HTML export', () => {
  it('shows as the characters typed, escaped, every word kept', () => {
    expect(renderMarkdown('Compare: if a<b and c>d then x <= y.')).toBe('<p>Compare: if a&#x3C;b and c>d then x &#x3C;= y.</p>');
    expect(renderMarkdown('Generic types: List<String> and Map<K, V> in Java.')).toBe('<p>Generic types: List&#x3C;String> and Map&#x3C;K, V> in Java.</p>');
    expect(renderMarkdown('<details>\n<summary>More</summary>\nHidden words\n</details>')).toBe(
      '<p>&#x3C;details><br>\n&#x3C;summary>More&#x3C;/summary><br>\nHidden words<br>\n&#x3C;/details></p>',
    );
  });

  it('shows bare formatting tags as the same elements the window shows, and a tag with an attribute as text', () => {
    expect(renderMarkdown('H<sub>2</sub>O, mc<sup>2</sup>, <kbd>Esc</kbd>, <mark>note</mark>, one<br>two')).toBe(
      '<p>H<sub>2</sub>O, mc<sup>2</sup>, <kbd>Esc</kbd>, <mark>note</mark>, one<br>\ntwo</p>',
    );
    expect(renderMarkdown('<mark style="color:red">note</mark>')).toBe('<p>&#x3C;mark style="color:red">note&#x3C;/mark></p>');
  });
});
