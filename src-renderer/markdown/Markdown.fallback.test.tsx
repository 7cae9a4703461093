// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import type * as ReactMarkdown from 'react-markdown';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Blocks holding this word fail to render, as a parser stack overflow would. */
const FAILING_WORD = 'unrenderable';

vi.mock('react-markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactMarkdown>();
  return {
    ...actual,
    default: (options: ReactMarkdown.Options) => {
      if ((options.children ?? '').includes(FAILING_WORD)) throw new RangeError('Maximum call stack size exceeded');
      return createElement(actual.default, options);
    },
  };
});

const { MarkdownView } = await import('./Markdown');

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('MarkdownView when a block fails to render', () => {
  it('shows that block as plain text, never as markup, and the other blocks formatted', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = `An ${FAILING_WORD} block <img src=x onerror="alert(1)"> with **stars**`;
    const view = render(<MarkdownView text={`**Before**\n\n${failing}\n\n*After*`} />);
    const fallback = view.getByTestId('markdown-fallback');
    expect(fallback.textContent).toBe(failing);
    expect(fallback.children).toHaveLength(0);
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.querySelector('strong')?.textContent).toBe('Before');
    expect(view.container.querySelector('em')?.textContent).toBe('After');
  });

  it('formats the block again once its text changes and renders', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = render(<MarkdownView text={`Streaming ${FAILING_WORD}`} />);
    expect(view.getByTestId('markdown-fallback').textContent).toBe(`Streaming ${FAILING_WORD}`);
    view.rerender(<MarkdownView text="Streaming **fine** now" />);
    expect(view.queryByTestId('markdown-fallback')).toBeNull();
    expect(view.container.querySelector('strong')?.textContent).toBe('fine');
  });
});
