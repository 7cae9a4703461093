import { memo, useMemo, type ComponentProps } from 'react';
import Markdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { safeLinkUrl } from './safe-url';
import { hasDefinitions, splitBlocks } from './split-blocks';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];
// Sanitise first: highlighting then only adds its own spans to code that is already safe.
const rehypePlugins: Options['rehypePlugins'] = [rehypeSanitize, [rehypeHighlight, { detect: false }]];

const urlTransform: UrlTransform = (url, key) => (key === 'href' ? (safeLinkUrl(url) ?? '') : '');

function SafeLink({ href, children }: ComponentProps<'a'> & ExtraProps) {
  const url = href === undefined || href === '' ? null : safeLinkUrl(href);
  if (url === null) return <span className="md-unlinked">{children}</span>;
  return (
    <a href={url} rel="noopener noreferrer" target="_blank">
      {children}
    </a>
  );
}

/** Images are never fetched from a reply: they show as their description. */
function ImageAsText({ alt }: ComponentProps<'img'> & ExtraProps) {
  return <span className="md-image-alt">{alt === undefined || alt === '' ? '[image]' : `[image: ${alt}]`}</span>;
}

function ScrollableTable({ children }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  );
}

const components: Components = { a: SafeLink, img: ImageAsText, pre: CodeBlock, table: ScrollableTable };

/** One parse of one piece of markdown; re-parses only when its source changes. */
export const MarkdownBlock = memo(function MarkdownBlock({ source }: { readonly source: string }) {
  return (
    <Markdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={components}
      urlTransform={urlTransform}
    >
      {source}
    </Markdown>
  );
});

/**
 * Renders untrusted markdown. Completed blocks parse once each; while a reply streams only its open tail parses
 * again per delta. Blocks are keyed by position and compared by content, so the tail keeps its parse when it
 * becomes a completed block.
 */
export const MarkdownView = memo(function MarkdownView({ text }: { readonly text: string }) {
  const blocks = useMemo(() => {
    const { completed, tail } = hasDefinitions(text) ? { completed: [], tail: text } : splitBlocks(text);
    // Blank lines after the open block change nothing it renders.
    const openBlock = tail.replace(/\r?\n[ \t\r\n]*$/, '');
    return openBlock === '' ? completed : [...completed, openBlock];
  }, [text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} source={block} />
      ))}
    </div>
  );
});
