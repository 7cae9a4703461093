// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import type * as ReactMarkdown from 'react-markdown';
import { afterEach, describe, expect, it, vi } from 'vitest';

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

const { MarkdownView } = await import('./Markdown');

afterEach(() => {
  cleanup();
  parsedSources.length = 0;
});

describe('MarkdownView while a reply streams', () => {
  it('parses each completed block once and re-parses only the open tail per delta', () => {
    const deltas = ['First paragraph.', '\n\nSecond', ' paragraph', ' grows.', '\n\n```js\nlet a;', '\n\nlet b;'];
    let text = '';
    const view = render(<MarkdownView text={text} />);
    for (const delta of deltas) {
      text += delta;
      view.rerender(<MarkdownView text={text} />);
    }
    expect(parsedSources).toEqual([
      'First paragraph.',
      'Second',
      'Second paragraph',
      'Second paragraph grows.',
      '```js\nlet a;',
      '```js\nlet a;\n\nlet b;',
    ]);
    expect(view.container.querySelectorAll('p')).toHaveLength(2);
    expect(view.container.querySelector('pre')?.textContent).toBe('let a;\n\nlet b;\n');
  });

  it('does not parse the open block again when only blank lines arrive', () => {
    const view = render(<MarkdownView text="Done." />);
    view.rerender(<MarkdownView text={'Done.\n\n'} />);
    view.rerender(<MarkdownView text={'Done.\n\nNext'} />);
    expect(parsedSources).toEqual(['Done.', 'Next']);
  });

  it('does not parse again when the same text renders again', () => {
    const view = render(<MarkdownView text={'One\n\nTwo'} />);
    view.rerender(<MarkdownView text={'One\n\nTwo'} />);
    expect(parsedSources).toEqual(['One', 'Two']);
  });
});
