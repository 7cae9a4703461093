import { Children, createContext, createElement, Fragment, memo, useContext, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
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
import { blockPieces, type OpenBlockParts } from '../../src-shared/markdown/open-block';
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

/** What an open block shows inside its container (code element, table, list): its pieces, in order. */
const OpenBlockBody = createContext<ReactNode>(null);

function ChildrenOnly({ children }: { readonly children?: ReactNode }) {
  return <>{children}</>;
}

function Nothing() {
  return null;
}

/** The fence's code element, with the class a whole parse gives it, holding the pieces' highlighted lines. */
function OpenFenceCode({ className }: ComponentProps<'code'> & ExtraProps) {
  return <code className={className}>{useContext(OpenBlockBody)}</code>;
}

function OpenTable({ children }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="md-table-wrap">
      <table>
        {children}
        <tbody>{useContext(OpenBlockBody)}</tbody>
      </table>
    </div>
  );
}

/** The list element of the first item's parse (`ul`, or `ol` with its start), holding every piece's items. */
function OpenList({ node, children: _firstItem, ...attributes }: ComponentProps<'ul'> & ExtraProps) {
  // A whole parse puts a line break before each item and after the last; each piece brings its own before.
  return createElement(node?.tagName ?? 'ul', attributes, useContext(OpenBlockBody), '\n');
}

/** Set inside a piece's top list, so lists nested in its items render as usual. */
const InsidePieceList = createContext(false);

/** A piece's top list gives only its items (and the line break before each); a nested list renders whole. */
function PieceListItems({ node, children, ...attributes }: ComponentProps<'ul'> & ExtraProps) {
  const nested = useContext(InsidePieceList);
  if (nested) return createElement(node?.tagName ?? 'ul', attributes, children);
  const items = Children.toArray(children);
  if (items[items.length - 1] === '\n') items.pop();
  return <InsidePieceList.Provider value={true}>{items}</InsidePieceList.Provider>;
}

interface OpenBlockShape {
  /** The markdown of the container alone, and the components that fill it with the pieces. */
  readonly skeleton: string;
  readonly skeletonComponents: Components;
  /** How each piece becomes markdown, and the components that keep only its part of the container. */
  readonly pieceSource: (piece: string) => string;
  readonly pieceComponents: Components;
  /**
   * Whether each piece shows in a block of its own. A fence's lines are one run of inline text, which the browser
   * lays out and paints again whole on every change; in blocks, only the last piece is laid out and painted again.
   */
  readonly pieceBlocks: boolean;
}

const OPEN_FENCE_COMPONENTS: Components = { ...components, code: OpenFenceCode };
const FENCE_PIECE_COMPONENTS: Components = { pre: ChildrenOnly, code: ChildrenOnly };
const OPEN_TABLE_COMPONENTS: Components = { ...components, table: OpenTable };
const TABLE_PIECE_COMPONENTS: Components = { ...components, table: ChildrenOnly, thead: Nothing, tbody: ChildrenOnly };
const OPEN_LIST_COMPONENTS: Components = { ...components, ul: OpenList, ol: OpenList };
const LIST_PIECE_COMPONENTS: Components = { ...components, ul: PieceListItems, ol: PieceListItems };

function shapeOf(parts: OpenBlockParts): OpenBlockShape {
  switch (parts.kind) {
    case 'fence':
      return {
        skeleton: parts.opener,
        skeletonComponents: OPEN_FENCE_COMPONENTS,
        pieceSource: (piece) => `${parts.opener}\n${piece}`,
        pieceComponents: FENCE_PIECE_COMPONENTS,
        pieceBlocks: true,
      };
    case 'table':
      return {
        skeleton: parts.head,
        skeletonComponents: OPEN_TABLE_COMPONENTS,
        pieceSource: (piece) => `${parts.head}\n${piece}`,
        pieceComponents: TABLE_PIECE_COMPONENTS,
        pieceBlocks: false,
      };
    case 'list':
      return {
        // The list element and its start come from the first marker alone.
        skeleton: `${parts.marker} item`,
        skeletonComponents: OPEN_LIST_COMPONENTS,
        pieceSource: (piece) => piece,
        pieceComponents: LIST_PIECE_COMPONENTS,
        pieceBlocks: false,
      };
    default: {
      const unknownParts: never = parts;
      throw new Error(`Unknown open block ${JSON.stringify(unknownParts)}`);
    }
  }
}

/** One piece of an open block: parsed again only when its own text changes, which after it fills is never. */
const OpenBlockPiece = memo(function OpenBlockPiece({
  source,
  pieceComponents,
  pieceBlock,
}: {
  readonly source: string;
  readonly pieceComponents: Components;
  readonly pieceBlock: boolean;
}) {
  const parsed = (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={pieceComponents} urlTransform={urlTransform}>
      {source}
    </Markdown>
  );
  return pieceBlock ? <span className="md-open-piece">{parsed}</span> : parsed;
});

/**
 * One block of a reply. A table or a tight list that streams in here parses piece by piece, to the same elements a
 * whole parse gives: a delta to the open block costs the last piece's parse however long the block has grown, and the
 * block keeps its pieces (and its elements) when it completes; a block read from history parses whole. A fence parses piece by piece only while `streaming` it is still
 * open, and whole once it closes or the reply ends. Anything else parses whole.
 */
const PiecewiseBlock = memo(function PiecewiseBlock({ source, streaming }: { readonly source: string; readonly streaming: boolean }) {
  const cappedSource = useMemo(() => capNesting(source), [source]);
  // Pieces pay only for a block that grows here; one read from history parses whole, once, as the cheaper way.
  const [piecewise, setPiecewise] = useState(streaming);
  if (streaming && !piecewise) setPiecewise(true);
  const parts = useMemo(
    () => (!piecewise || inlineNestingDepth(cappedSource) > MAX_INLINE_DEPTH ? null : blockPieces(cappedSource, streaming)),
    [cappedSource, streaming, piecewise],
  );
  if (parts === null) return <MarkdownBlock source={source} />;
  const shape = shapeOf(parts);
  const body = parts.pieces.map((piece, index) => (
    <OpenBlockPiece key={index} source={shape.pieceSource(piece)} pieceComponents={shape.pieceComponents} pieceBlock={shape.pieceBlocks} />
  ));
  return (
    <RenderBoundary resetKey={source} fallback={<PlainText text={source} testId="markdown-fallback" />}>
      <OpenBlockBody.Provider value={body}>
        <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={shape.skeletonComponents} urlTransform={urlTransform}>
          {shape.skeleton}
        </Markdown>
      </OpenBlockBody.Provider>
    </RenderBoundary>
  );
});

/**
 * Renders untrusted markdown. Completed blocks parse once each; while a reply streams only its open tail parses
 * again per delta, and of a long table, list or open fence only the last piece. Blocks are keyed by position and
 * compared by content, so the tail keeps its parse when it becomes a completed block.
 */
export const MarkdownView = memo(function MarkdownView({ text, streaming = false }: { readonly text: string; readonly streaming?: boolean }) {
  const blocks = useMemo(() => {
    const { completed, tail } = hasDefinitions(text) ? { completed: [], tail: text } : splitBlocks(text);
    // Blank lines after the open block change nothing it renders.
    const openBlock = tail.replace(/\r?\n[ \t\r\n]*$/, '');
    return {
      budgeted: (openBlock === '' ? completed : [...completed, openBlock]).map((block) => withinTableBudget(block)),
      openIndex: openBlock === '' ? -1 : completed.length,
    };
  }, [text]);
  return (
    <div className="markdown">
      {blocks.budgeted.map((block, index) => (
        <Fragment key={index}>
          {block.markdown === '' ? null : <PiecewiseBlock source={block.markdown} streaming={streaming && index === blocks.openIndex} />}
          {block.plainText === null ? null : <OverBudgetText text={block.plainText} />}
        </Fragment>
      ))}
    </div>
  );
});
