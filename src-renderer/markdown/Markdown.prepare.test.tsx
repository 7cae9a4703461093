// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import type * as HighlightJsCore from 'highlight.js/lib/core';
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

const { MarkdownView, prepareMarkdownWhenIdle } = await import('./Markdown');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('prepareMarkdownWhenIdle', () => {
  it('builds both highlighters in idle periods of their own, so the first reply with a fence builds neither', () => {
    const idleWork: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idleWork.push(work));
    prepareMarkdownWhenIdle();
    expect([builds, idleWork.length]).toEqual([{ rehypeHighlight: 0, fenceCuts: 0 }, 1]);
    idleWork.shift()?.();
    expect([builds, idleWork.length]).toEqual([{ rehypeHighlight: 1, fenceCuts: 0 }, 1]);
    idleWork.shift()?.();
    expect([builds, idleWork.length]).toEqual([{ rehypeHighlight: 1, fenceCuts: 1 }, 0]);

    const fence = ['```ts', ...Array.from({ length: 80 }, (_, index) => `export const value${index} = ${index}; // a line long enough to fill pieces`)].join('\n');
    render(<MarkdownView text={fence} streaming />);
    expect(document.querySelectorAll('code.hljs span.md-piece').length).toBeGreaterThan(1);
    expect(builds).toEqual({ rehypeHighlight: 1, fenceCuts: 1 });
  });
});
