// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import type * as RehypeHighlight from 'rehype-highlight';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Each call of rehype-highlight's attacher creates one lowlight highlighter and registers its common languages.
const highlighterBuilds = vi.hoisted(() => ({ count: 0 }));

vi.mock('rehype-highlight', async (importOriginal) => {
  const actual = await importOriginal<typeof RehypeHighlight>();
  return {
    ...actual,
    default: (options?: RehypeHighlight.Options) => {
      highlighterBuilds.count += 1;
      return actual.default(options);
    },
  };
});

const { MarkdownBlock, MarkdownView } = await import('./Markdown');

afterEach(cleanup);

function fence(language: string, lines: readonly string[]): string {
  return ['```' + language, ...lines, '```'].join('\n');
}

describe('code highlighting', () => {
  it('builds the highlighter once however many blocks render, and not before any does', () => {
    expect(highlighterBuilds.count).toBe(0);
    const reply = [
      fence('ts', ['const a: number = 1;']),
      fence('py', ['print("b")']),
      fence('bash', ['echo c']),
    ].join('\n\n');
    render(<MarkdownView text={reply} />);
    render(<MarkdownView text={`Intro.\n\n${reply}`} />);
    let text = '';
    const streaming = render(<MarkdownView text={text} />);
    for (const delta of ['```js\n', 'let a;', '\nlet b;', '\n```\n\n', '```rust\nfn main() {}\n```']) {
      text += delta;
      streaming.rerender(<MarkdownView text={text} />);
    }
    expect(document.querySelectorAll('code.hljs')).toHaveLength(8);
    expect(highlighterBuilds.count).toBe(1);
  });

  it('marks up a TypeScript fence exactly as rehype-highlight does', () => {
    const source = fence('ts', ['const total: number = items.reduce((sum, item) => sum + item.price, 0); // sum']);
    expect(renderToStaticMarkup(<MarkdownBlock source={source} />)).toBe(
      '<div class="code-block"><div class="code-block-header"><span class="code-block-language">ts</span><button type="button" class="code-block-copy" data-testid="copy-code">Copy</button></div><pre><code class="hljs language-ts"><span class="hljs-keyword">const</span> <span class="hljs-attr">total</span>: <span class="hljs-built_in">number</span> = items.<span class="hljs-title function_">reduce</span>(<span class="hljs-function">(<span class="hljs-params">sum, item</span>) =&gt;</span> sum + item.<span class="hljs-property">price</span>, <span class="hljs-number">0</span>); <span class="hljs-comment">// sum</span>\n</code></pre></div>',
    );
  });

  it('marks up a Python fence exactly as rehype-highlight does', () => {
    const source = fence('py', ['def greet(name: str) -> str:', '    return f"hello {name}"  # greet']);
    expect(renderToStaticMarkup(<MarkdownBlock source={source} />)).toBe(
      '<div class="code-block"><div class="code-block-header"><span class="code-block-language">py</span><button type="button" class="code-block-copy" data-testid="copy-code">Copy</button></div><pre><code class="hljs language-py"><span class="hljs-keyword">def</span> <span class="hljs-title function_">greet</span>(<span class="hljs-params">name: <span class="hljs-built_in">str</span></span>) -&gt; <span class="hljs-built_in">str</span>:\n    <span class="hljs-keyword">return</span> <span class="hljs-string">f&quot;hello <span class="hljs-subst">{name}</span>&quot;</span>  <span class="hljs-comment"># greet</span>\n</code></pre></div>',
    );
  });

  it('leaves a fence in an unknown language as escaped text with the hljs class', () => {
    const source = fence('klingon', ['qapla <b>x</b>']);
    expect(renderToStaticMarkup(<MarkdownBlock source={source} />)).toBe(
      '<div class="code-block"><div class="code-block-header"><span class="code-block-language">klingon</span><button type="button" class="code-block-copy" data-testid="copy-code">Copy</button></div><pre><code class="hljs language-klingon">qapla &lt;b&gt;x&lt;/b&gt;\n</code></pre></div>',
    );
  });

  it('does not guess the language of a fence without one', () => {
    const source = fence('', ['plain <i>no language</i>']);
    expect(renderToStaticMarkup(<MarkdownBlock source={source} />)).toBe(
      '<div class="code-block"><div class="code-block-header"><span class="code-block-language">text</span><button type="button" class="code-block-copy" data-testid="copy-code">Copy</button></div><pre><code>plain &lt;i&gt;no language&lt;/i&gt;\n</code></pre></div>',
    );
  });
});
