// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import type * as HighlightJsCore from 'highlight.js/lib/core';
import type * as ReactMarkdown from 'react-markdown';
import type * as RehypeHighlight from 'rehype-highlight';
import { afterEach, describe, expect, it, vi } from 'vitest';

// rehype-highlight's attacher builds lowlight's highlighter; fence cuts build a highlight.js instance of their own.
const builds = vi.hoisted(() => ({ rehypeHighlight: 0, fenceCuts: 0 }));

vi.mock('rehype-highlight', async (importOriginal) => {
  const actual = await importOriginal<typeof RehypeHighlight>();
  return {
    ...actual,
    default: (options?: RehypeHighlight.Options) => {
      builds.rehypeHighlight += 1;
      return actual.default(options);
    },
  };
});

vi.mock('highlight.js/lib/core', async (importOriginal) => {
  const actual = await importOriginal<typeof HighlightJsCore>();
  const newInstance = () => {
    builds.fenceCuts += 1;
    return actual.default.newInstance();
  };
  return { ...actual, default: { ...actual.default, newInstance } };
});

// Each sample the warm-up parses, in order.
const parsed = vi.hoisted((): string[] => []);

vi.mock('react-markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactMarkdown>();
  return {
    ...actual,
    default: (options: ReactMarkdown.Options) => {
      parsed.push(options.children ?? '');
      return actual.default(options);
    },
  };
});

const { MarkdownView, prepareMarkdownWhenIdle } = await import('./Markdown');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('prepareMarkdownWhenIdle', () => {
  it('builds both highlighters, then parses each kind of block once, each in an idle period of its own, so the first reply with a fence builds neither', () => {
    const idleWork: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idleWork.push(work));
    prepareMarkdownWhenIdle();
    expect([builds, idleWork.length, parsed.length]).toEqual([{ rehypeHighlight: 0, fenceCuts: 0 }, 1, 0]);
    idleWork.shift()?.();
    expect([builds, idleWork.length, parsed.length]).toEqual([{ rehypeHighlight: 1, fenceCuts: 0 }, 1, 0]);
    idleWork.shift()?.();
    expect([builds, idleWork.length, parsed.length]).toEqual([{ rehypeHighlight: 1, fenceCuts: 1 }, 1, 0]);
    while (idleWork.length > 0) idleWork.shift()?.();
    // One sample per idle period: a heading with inlines, lists, a table, a fence.
    expect(parsed.map((sample) => /^(#|-|\||```)/.exec(sample)?.[1])).toEqual(['#', '-', '|', '```']);
    expect(builds).toEqual({ rehypeHighlight: 1, fenceCuts: 1 });
    parsed.length = 0;

    const fence = ['```ts', ...Array.from({ length: 80 }, (_, index) => `export const value${index} = ${index}; // a line long enough to fill pieces`)].join('\n');
    render(<MarkdownView text={fence} streaming />);
    expect(document.querySelectorAll('code.hljs span.md-piece').length).toBeGreaterThan(1);
    expect(builds).toEqual({ rehypeHighlight: 1, fenceCuts: 1 });
  });
});
