import { describe, expect, it } from 'vitest';
import { hasDefinitions, splitBlocks } from './split-blocks';

describe('splitBlocks', () => {
  it('returns no blocks and an empty tail for empty or blank text', () => {
    expect(splitBlocks('')).toEqual({ completed: [], tail: '' });
    expect(splitBlocks('\n\n  \n')).toEqual({ completed: [], tail: '' });
  });

  it('keeps a single block as the tail', () => {
    expect(splitBlocks('Hello')).toEqual({ completed: [], tail: 'Hello' });
    expect(splitBlocks('Hello\nworld')).toEqual({ completed: [], tail: 'Hello\nworld' });
  });

  it('completes a block when the next block starts after a blank line', () => {
    expect(splitBlocks('One\n\nTwo')).toEqual({ completed: ['One'], tail: 'Two' });
    expect(splitBlocks('One\nstill one\n\n\nTwo\n\nThree')).toEqual({
      completed: ['One\nstill one', 'Two'],
      tail: 'Three',
    });
  });

  it('keeps trailing blank lines in the tail until the next block starts', () => {
    expect(splitBlocks('One\n\n')).toEqual({ completed: [], tail: 'One\n\n' });
    expect(splitBlocks('One\n\nTwo\n\n')).toEqual({ completed: ['One'], tail: 'Two\n\n' });
  });

  it('drops blank lines before the first block and treats whitespace-only lines as blank', () => {
    expect(splitBlocks('\n\nOne\n \t \nTwo')).toEqual({ completed: ['One'], tail: 'Two' });
  });

  it('never ends a block on a blank line inside an open fence', () => {
    expect(splitBlocks('Intro\n\n```js\nconst a = 1;\n\nconst b = 2;')).toEqual({
      completed: ['Intro'],
      tail: '```js\nconst a = 1;\n\nconst b = 2;',
    });
  });

  it('ends a fenced block after its closing fence', () => {
    expect(splitBlocks('Intro\n\n```js\na\n\nb\n```\n\nAfter')).toEqual({
      completed: ['Intro', '```js\na\n\nb\n```'],
      tail: 'After',
    });
  });

  it('closes a fence only with the same marker at least as long, indented at most three more columns', () => {
    expect(splitBlocks('~~~\na\n```\n\nb\n~~~\n\nc')).toEqual({ completed: ['~~~\na\n```\n\nb\n~~~'], tail: 'c' });
    expect(splitBlocks('````\n```\n\nx\n````\n\ny')).toEqual({ completed: ['````\n```\n\nx\n````'], tail: 'y' });
    expect(splitBlocks('```\n    ```\n\nx\n```\n\ny')).toEqual({ completed: ['```\n    ```\n\nx\n```'], tail: 'y' });
    expect(splitBlocks('```\n``` not a close\n\nx')).toEqual({ completed: [], tail: '```\n``` not a close\n\nx' });
  });

  it('does not take inline triple backticks for a fence', () => {
    expect(splitBlocks('```a``` b\n\nc')).toEqual({ completed: ['```a``` b'], tail: 'c' });
  });

  it('lets a fence interrupt a paragraph', () => {
    expect(splitBlocks('Run this:\n```sh\nls\n\npwd\n```\n\nDone')).toEqual({
      completed: ['Run this:\n```sh\nls\n\npwd\n```'],
      tail: 'Done',
    });
  });

  it('keeps a loose list together across blank lines', () => {
    expect(splitBlocks('1. one\n\n2. two\n\nDone')).toEqual({ completed: ['1. one\n\n2. two'], tail: 'Done' });
    expect(splitBlocks('- a\n\n* b\n\nDone')).toEqual({ completed: ['- a\n\n* b'], tail: 'Done' });
  });

  it('keeps nested lists and indented continuations with their list', () => {
    expect(splitBlocks('- a\n  - b\n\n  - c\n\n- d\n\n  more of d\n\nAfter')).toEqual({
      completed: ['- a\n  - b\n\n  - c\n\n- d\n\n  more of d'],
      tail: 'After',
    });
  });

  it('keeps a list introduced inside a paragraph together', () => {
    expect(splitBlocks('Steps:\n- a\n\n- b\n\nEnd')).toEqual({ completed: ['Steps:\n- a\n\n- b'], tail: 'End' });
  });

  it('keeps a fence inside a list item together', () => {
    expect(splitBlocks('- step\n\n  ```sh\n  ls\n\n  pwd\n  ```\n\nDone')).toEqual({
      completed: ['- step\n\n  ```sh\n  ls\n\n  pwd\n  ```'],
      tail: 'Done',
    });
  });

  it('waits on a streamed line that may still become an ordered list item', () => {
    expect(splitBlocks('1. one\n\n2')).toEqual({ completed: [], tail: '1. one\n\n2' });
    expect(splitBlocks('1. one\n\n2\n')).toEqual({ completed: ['1. one'], tail: '2\n' });
    expect(splitBlocks('Text\n\n2')).toEqual({ completed: ['Text'], tail: '2' });
  });

  it('keeps an indented code block together across blank lines', () => {
    expect(splitBlocks('    code\n\n    more\n\ntext')).toEqual({ completed: ['    code\n\n    more'], tail: 'text' });
  });

  it('keeps table rows together and completes the table at a blank line', () => {
    expect(splitBlocks('| a | b |\n| - | - |\n| 1 | 2 |\n\nAfter')).toEqual({
      completed: ['| a | b |\n| - | - |\n| 1 | 2 |'],
      tail: 'After',
    });
    expect(splitBlocks('Intro\n\n| a | b |\n| - |')).toEqual({ completed: ['Intro'], tail: '| a | b |\n| - |' });
  });

  it('normalises CRLF and lone CR line endings', () => {
    expect(splitBlocks('One\r\n\r\nTwo\r\n```\r\nx\r\n\r\ny\r\n```\r\n\r\nEnd\r\n')).toEqual({
      completed: ['One', 'Two\n```\nx\n\ny\n```'],
      tail: 'End\n',
    });
    expect(splitBlocks('One\r\rTwo')).toEqual({ completed: ['One'], tail: 'Two' });
  });

  it('never changes a completed block as more text streams in', () => {
    const replies = [
      'Intro line\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- a\n  - b\n\n- c\n\n12. twelve\n13. thirteen\n\n| x | y |\n| - | - |\n| 1 | 2 |\n\nEnd.',
      'Para\r\n\r\n1. one\r\n\r\n2. two\r\n\r\n~~~\r\n```\r\n\r\n~~~\r\n\r\nDone',
    ];
    for (const reply of replies) {
      const whole = splitBlocks(reply);
      for (let end = 0; end <= reply.length; end += 1) {
        const partial = splitBlocks(reply.slice(0, end));
        expect(whole.completed.slice(0, partial.completed.length)).toEqual(partial.completed);
      }
    }
  });
});

describe('hasDefinitions', () => {
  it('finds link reference and footnote definitions', () => {
    expect(hasDefinitions('See [docs][1].\n\n[1]: https://example.com')).toBe(true);
    expect(hasDefinitions('A note[^1].\n\n[^1]: The note.')).toBe(true);
  });

  it('ignores ordinary links and brackets', () => {
    expect(hasDefinitions('See [docs](https://example.com) and [x] here.')).toBe(false);
  });
});
