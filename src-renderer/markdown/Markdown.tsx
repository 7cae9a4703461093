import { Fragment, memo, useMemo, type ComponentProps } from 'react';
import Markdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
// remark-parse's types declare `micromarkExtensions` on unified's Data.
import type {} from 'remark-parse';
import type { Processor } from 'unified';
import { RenderBoundary } from '../components/RenderBoundary';
import { capNesting } from '../../src-shared/markdown/cap-nesting';
import { CodeBlock } from './CodeBlock';
import { safeLinkUrl } from '../../src-shared/markdown/safe-url';
import { imageAsText, SAFE_LINK_REL, SAFE_LINK_TARGET, SANITIZE_SCHEMA } from '../../src-shared/markdown/untrusted-rules';
import { inlineNestingDepth, MAX_INLINE_DEPTH } from '../../src-shared/markdown/inline-nesting';
import { hasDefinitions, splitBlocks } from '../../src-shared/markdown/split-blocks';
import { withinTableBudget } from '../../src-shared/markdown/table-budget';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

/** Turns off emphasis, strong and strikethrough (micromark's `attention` and GFM's `strikethrough` constructs). */
function remarkWithoutEmphasis(this: Processor): void {
  const data = this.data();
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: ['attention', 'strikethrough'] } }];
}

/** For a block whose emphasis nests too deep to render: its delimiters show as the characters typed. */
const remarkPluginsWithoutEmphasis: Options['remarkPlugins'] = [remarkGfm, remarkWithoutEmphasis];

let sharedHighlight: ReturnType<typeof rehypeHighlight> | null = null;

/**
 * rehype-highlight's own attacher creates a highlighter and registers its ~37 common languages each time a processor
 * is built, and react-markdown builds a processor on every render: this attacher hands every processor the one
 * transform, built on first use.
 */
function rehypeHighlightOnce(): ReturnType<typeof rehypeHighlight> {
  sharedHighlight ??= rehypeHighlight({ detect: false });
  return sharedHighlight;
}

// Sanitise first: highlighting then only adds its own spans to code that is already safe.
const rehypePlugins: Options['rehypePlugins'] = [[rehypeSanitize, SANITIZE_SCHEMA], rehypeHighlightOnce];

const urlTransform: UrlTransform = (url, key) => (key === 'href' ? (safeLinkUrl(url) ?? '') : '');

/**
 * A link the user can open. Its tooltip is always the real destination, never the reply's own title: the words of a
 * link can show another address, and the Electron window has no status bar to give the target away.
 */
function SafeLink({ href, children }: ComponentProps<'a'> & ExtraProps) {
  const url = href === undefined || href === '' ? null : safeLinkUrl(href);
  if (url === null) return <span className="md-unlinked">{children}</span>;
  return (
    <a href={url} rel={SAFE_LINK_REL} target={SAFE_LINK_TARGET} title={url}>
      {children}
    </a>
  );
}

/** Images are never fetched from a reply: they show as their description. */
function ImageAsText({ alt }: ComponentProps<'img'> & ExtraProps) {
  return <span className="md-image-alt">{imageAsText(alt)}</span>;
}

function ScrollableTable({ children }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  );
}

const components: Components = { a: SafeLink, img: ImageAsText, pre: CodeBlock, table: ScrollableTable };

/** Text shown exactly as it is: React sets it as a text node, so nothing in it is ever markup. */
function PlainText({ text, testId }: { readonly text: string; readonly testId: string }) {
  return (
    <div className="md-plain-text" data-testid={testId}>
      {text}
    </div>
  );
}

/**
 * One parse of one piece of markdown; re-parses only when its source changes. Container nesting is capped before
 * parsing, emphasis nested too deep is not parsed as emphasis, and should the parse or render still fail, the block
 * shows its source as plain text instead.
 */
export const MarkdownBlock = memo(function MarkdownBlock({ source }: { readonly source: string }) {
  const cappedSource = useMemo(() => capNesting(source), [source]);
  const emphasisTooDeep = useMemo(() => inlineNestingDepth(cappedSource) > MAX_INLINE_DEPTH, [cappedSource]);
  return (
    <RenderBoundary resetKey={source} fallback={<PlainText text={source} testId="markdown-fallback" />}>
      <Markdown
        remarkPlugins={emphasisTooDeep ? remarkPluginsWithoutEmphasis : remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={urlTransform}
      >
        {cappedSource}
      </Markdown>
    </RenderBoundary>
  );
});

/** The lines of a block past the table budget: shown, not formatted, so a huge table cannot stall the window. */
function OverBudgetText({ text }: { readonly text: string }) {
  return (
    <div className="md-over-budget">
      <p className="md-over-budget-note">Too large to format; the rest is shown as plain text.</p>
      <PlainText text={text} testId="markdown-over-budget" />
    </div>
  );
}

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
    return (openBlock === '' ? completed : [...completed, openBlock]).map((block) => withinTableBudget(block));
  }, [text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <Fragment key={index}>
          {block.markdown === '' ? null : <MarkdownBlock source={block.markdown} />}
          {block.plainText === null ? null : <OverBudgetText text={block.plainText} />}
        </Fragment>
      ))}
    </div>
  );
});
