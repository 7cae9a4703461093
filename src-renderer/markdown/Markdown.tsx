import { createContext, createElement, Fragment, memo, useContext, useEffect, useMemo, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
// remark-parse's types declare `micromarkExtensions` on unified's Data.
import type {} from 'remark-parse';
import type { Processor } from 'unified';
import { RenderBoundary } from '../components/RenderBoundary';
import { capNesting } from '../../src-shared/markdown/cap-nesting';
import { remarkRawHtmlAsText } from '../../src-shared/markdown/raw-html-as-text';
import { CodeBlock } from './CodeBlock';
import { heldTableWidth, useHeldColumns } from './held-columns';
import { fenceCutAfter, prepareFenceCuts } from './fence-cuts';
import { safeLinkUrl } from '../../src-shared/markdown/safe-url';
import { imageAsText, SAFE_LINK_REL, SAFE_LINK_TARGET, SANITIZE_SCHEMA } from '../../src-shared/markdown/untrusted-rules';
import { inlineNestingDepth, MAX_INLINE_DEPTH } from '../../src-shared/markdown/inline-nesting';
import { blockGroups } from '../../src-shared/markdown/block-groups';
import { blockPieces, textPieces, type OpenBlockParts } from '../../src-shared/markdown/open-block';
import { hasDefinitions, splitBlocks } from '../../src-shared/markdown/split-blocks';
import { withinTableBudget } from '../../src-shared/markdown/table-budget';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm, remarkRawHtmlAsText];

/** Turns off emphasis, strong and strikethrough (micromark's `attention` and GFM's `strikethrough` constructs). */
function remarkWithoutEmphasis(this: Processor): void {
  const data = this.data();
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: ['attention', 'strikethrough'] } }];
}

/** For a block whose emphasis nests too deep to render: its delimiters show as the characters typed. */
const remarkPluginsWithoutEmphasis: Options['remarkPlugins'] = [remarkGfm, remarkRawHtmlAsText, remarkWithoutEmphasis];

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

/** A little of every kind of block and inline the parser knows, for it to parse once before the first reply. */
const WARM_UP_SAMPLES = [
  '# A heading\n\nA paragraph with *emphasis*, **strong**, ~~struck~~, `code`, a [link](https://example.com), https://example.com and ![an image](x.png).\n\n> A quote.\n\n---',
  '- an item\n  - a nested item\n- [ ] a task\n\n1. first\n2. second',
  '| # | Name |\n| ---: | :-- |\n| 1 | **one** `1` |',
  '```ts\nexport const answer: number = 42; // the answer\n```',
];

/**
 * Prepares what the first reply would otherwise pay for inside its frames, while the window is idle after it opens:
 * the two highlighters (rehype-highlight's and the one fence cuts ask), each registering its ~37 grammars when first
 * built (15 to 35 ms apiece), then one parse of each kind of block, since the parser's code is compiled when first run
 * (the first table of a session spent 20 ms there). Each step runs in an idle period of its own.
 */
export function prepareMarkdownWhenIdle(): void {
  const steps: (() => void)[] = [
    rehypeHighlightOnce,
    prepareFenceCuts,
    ...WARM_UP_SAMPLES.map((sample) => () => {
      Markdown({ children: sample, remarkPlugins, rehypePlugins, components, urlTransform });
    }),
  ];
  const whenIdle = (work: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => work()) : setTimeout(work, 0));
  const runFrom = (index: number): void => {
    const step = steps[index];
    if (step === undefined) return;
    step();
    whenIdle(() => runFrom(index + 1));
  };
  whenIdle(() => runFrom(0));
}

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

/** A run of plain text lines, set as one text node. */
const PlainTextPiece = memo(function PlainTextPiece({ text }: { readonly text: string }) {
  return <span className="md-piece">{text}</span>;
});

/**
 * The lines of a block past the table budget: shown, not formatted, so a huge table cannot stall the window. They
 * show in pieces of whole lines, so while they stream in only the last piece is laid out and painted again.
 */
function OverBudgetText({ text }: { readonly text: string }) {
  const pieces = useMemo(() => textPieces(text), [text]);
  return (
    <div className="md-over-budget">
      <p className="md-over-budget-note">Too large to format; the rest is shown as plain text.</p>
      <div className="md-plain-text" data-testid="markdown-over-budget">
        {pieces.map((piece, index) => (
          <PlainTextPiece key={index} text={piece} />
        ))}
      </div>
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

/** Whether a table that streams in here may hold its columns' widths (see held-columns.ts): until the view's width changes. */
const ColumnsMayHold = createContext(false);

/** A table's head, then its pieces, each a section of rows (see PieceRows); while it grows, it holds its columns' widths. */
function OpenTable({ children }: ComponentProps<'table'> & ExtraProps) {
  const tableRef = useRef<HTMLTableElement>(null);
  const rows = useContext(OpenBlockBody);
  const widths = useHeldColumns(tableRef, rows, useContext(BlockGrowing), useContext(ColumnsMayHold));
  return (
    <div className="md-table-wrap">
      <table
        ref={tableRef}
        className={widths === null ? undefined : 'md-held-columns'}
        style={widths === null ? undefined : { width: `${heldTableWidth(widths)}px` }}
      >
        {widths === null ? null : (
          <colgroup>
            {widths.map((width, index) => (
              <col key={index} style={{ width: `${width}px` }} />
            ))}
          </colgroup>
        )}
        {children}
        {rows}
      </table>
    </div>
  );
}

/** Set inside a piece's top list, so lists nested in its items render as usual. */
const InsidePieceList = createContext(false);

/**
 * Where a piece starts in its whole block: the number of an ordered list piece's first item (null for a bullet list),
 * the index of a table piece's first body row.
 */
const PieceStart = createContext<number | null>(null);

/** Whether the block a piece belongs to is the reply's open block, still growing. */
const BlockGrowing = createContext(false);

/**
 * A table piece's rows, in a section of their own. Stripes count from the table's first body row, not the section's.
 * While the table grows, each section is a compositor layer of its own: Chromium otherwise records every row within
 * its 4,000 px paint margin again on each frame that adds a row (10 ms a frame at 300 rows), where a section's layer
 * is kept as it was drawn. The layers end when the table does (text on them loses subpixel antialiasing meanwhile).
 */
function PieceRows({ children }: ComponentProps<'tbody'> & ExtraProps) {
  const firstRow = useContext(PieceStart) ?? 0;
  const growing = useContext(BlockGrowing);
  const className = ['md-piece-rows', ...(firstRow % 2 === 1 ? ['md-rows-from-even'] : []), ...(growing ? ['md-layer'] : [])].join(' ');
  return <tbody className={className}>{children}</tbody>;
}

/**
 * A piece's top list: the list element its own parse gives, numbered from the piece's first item's place in the whole
 * list (CommonMark numbers a list from its first item on, whatever later markers say). A nested list renders whole.
 */
function PieceList({ node, children, ...attributes }: ComponentProps<'ul'> & ExtraProps) {
  const nested = useContext(InsidePieceList);
  const firstNumber = useContext(PieceStart);
  const tagName = node?.tagName ?? 'ul';
  if (nested) return createElement(tagName, attributes, children);
  const numbered = firstNumber === null || firstNumber === 1 ? { start: undefined } : { start: firstNumber };
  return (
    <InsidePieceList.Provider value={true}>{createElement(tagName, { ...attributes, ...numbered, className: 'md-piece' }, children)}</InsidePieceList.Provider>
  );
}

/**
 * The parse of a block's container alone (a fence's opening line, a table's head): memoised, so a delta parses none of
 * it again; the pieces reach the components that fill it through OpenBlockBody.
 */
const BlockContainer = memo(function BlockContainer({ skeleton, skeletonComponents }: { readonly skeleton: string; readonly skeletonComponents: Components }) {
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={skeletonComponents} urlTransform={urlTransform}>
      {skeleton}
    </Markdown>
  );
});

function containerOf(skeleton: string, skeletonComponents: Components): (body: ReactNode) => ReactNode {
  return (body) => (
    <OpenBlockBody.Provider value={body}>
      <BlockContainer skeleton={skeleton} skeletonComponents={skeletonComponents} />
    </OpenBlockBody.Provider>
  );
}

interface OpenBlockShape {
  /** What holds the pieces: a fence's code element and a table come from the parse of the block's container alone. */
  readonly container: (body: ReactNode) => ReactNode;
  /** How each piece becomes markdown, and the components that keep only its part of the container. */
  readonly pieceSource: (piece: string) => string;
  readonly pieceComponents: Components;
  /**
   * Whether each piece shows in an element of its own. Pieces the reply has moved past are then laid out and painted
   * once (and skipped when out of view, see `.md-streamed` in markdown.css): a fence's lines are otherwise one run of
   * inline text the browser lays out and paints again whole on every change. A list's pieces are lists of their own;
   * table rows cannot be contained apart from their table.
   */
  readonly pieceElement: boolean;
  /** Where piece `index` starts in the whole block (see PieceStart). */
  readonly pieceStart: (index: number) => number | null;
}

const OPEN_FENCE_COMPONENTS: Components = { ...components, code: OpenFenceCode };
const FENCE_PIECE_COMPONENTS: Components = { pre: ChildrenOnly, code: ChildrenOnly };
const OPEN_TABLE_COMPONENTS: Components = { ...components, table: OpenTable };
const TABLE_PIECE_COMPONENTS: Components = { ...components, table: ChildrenOnly, thead: Nothing, tbody: PieceRows };
const LIST_PIECE_COMPONENTS: Components = { ...components, ul: PieceList, ol: PieceList };

function shapeOf(parts: OpenBlockParts): OpenBlockShape {
  switch (parts.kind) {
    case 'fence':
      return {
        container: containerOf(parts.opener, OPEN_FENCE_COMPONENTS),
        pieceSource: (piece) => `${parts.opener}\n${piece}`,
        pieceComponents: FENCE_PIECE_COMPONENTS,
        pieceElement: true,
        pieceStart: () => null,
      };
    case 'table':
      return {
        container: containerOf(parts.head, OPEN_TABLE_COMPONENTS),
        pieceSource: (piece) => `${parts.head}\n${piece}`,
        pieceComponents: TABLE_PIECE_COMPONENTS,
        pieceElement: false,
        pieceStart: (index) => parts.firstRows[index] ?? 0,
      };
    case 'list': {
      // CommonMark numbers an ordered list from its first item's number on, whatever the later markers say.
      const start = /^\d/.test(parts.marker) ? Number.parseInt(parts.marker, 10) : null;
      return {
        // Each piece is a list of its own (see PieceList): the browser lays out and paints again only the last.
        container: (body) => <div className="md-list-pieces">{body}</div>,
        pieceSource: (piece) => piece,
        pieceComponents: LIST_PIECE_COMPONENTS,
        pieceElement: false,
        pieceStart: (index) => (start === null ? null : start + (parts.firstItems[index] ?? 0)),
      };
    }
    default: {
      const unknownParts: never = parts;
      throw new Error(`Unknown open block ${JSON.stringify(unknownParts)}`);
    }
  }
}

/** One piece of a block: parsed again only when its own text changes, which after it fills is never. */
const BlockPiece = memo(function BlockPiece({
  source,
  pieceComponents,
  pieceElement,
  start,
}: {
  readonly source: string;
  readonly pieceComponents: Components;
  readonly pieceElement: boolean;
  readonly start: number | null;
}) {
  const parsed = (
    <PieceStart.Provider value={start}>
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={pieceComponents} urlTransform={urlTransform}>
        {source}
      </Markdown>
    </PieceStart.Provider>
  );
  return pieceElement ? <span className="md-piece">{parsed}</span> : parsed;
});

/**
 * One block of a reply. A table, a tight list or a fence that streams in here parses piece by piece, to the elements
 * a whole parse gives (a fence's lines in an element per piece, a list as a list per piece): a delta to the open block
 * costs the last piece's parse however long the block has grown, and the block keeps its pieces (and its elements)
 * when it completes, so closing a long fence costs no whole parse either. A block read from history parses whole.
 * Anything else parses whole.
 */
const PiecewiseBlock = memo(function PiecewiseBlock({ source, streaming }: { readonly source: string; readonly streaming: boolean }) {
  const cappedSource = useMemo(() => capNesting(source), [source]);
  // Pieces pay only for a block that grows here; one read from history parses whole, once, as the cheaper way.
  const [piecewise, setPiecewise] = useState(streaming);
  if (streaming && !piecewise) setPiecewise(true);
  const parts = useMemo(
    () => (!piecewise || inlineNestingDepth(cappedSource) > MAX_INLINE_DEPTH ? null : blockPieces(cappedSource, fenceCutAfter)),
    [cappedSource, piecewise],
  );
  if (parts === null) return <MarkdownBlock source={source} />;
  const shape = shapeOf(parts);
  const body = parts.pieces.map((piece, index) => (
    <BlockPiece
      key={index}
      source={shape.pieceSource(piece)}
      pieceComponents={shape.pieceComponents}
      pieceElement={shape.pieceElement}
      start={shape.pieceStart(index)}
    />
  ));
  return (
    <RenderBoundary resetKey={source} fallback={<PlainText text={source} testId="markdown-fallback" />}>
      <BlockGrowing.Provider value={streaming}>{shape.container(body)}</BlockGrowing.Provider>
    </RenderBoundary>
  );
});

/**
 * Renders untrusted markdown. Completed blocks parse once each; while a reply streams only its open tail parses
 * again per delta, and of a long table, list or open fence only the last piece. Blocks are keyed by position and
 * compared by content, so the tail keeps its parse when it becomes a completed block. A reply that streams in here
 * keeps its blocks in groups (see block-groups.ts); one read from history renders them in one run.
 *
 * The groups and pieces of a reply that streamed in here are contained (see `.md-streamed` in markdown.css): the
 * window skips the ones out of view, at the size they were last drawn. That holds after the reply ends, so its end
 * costs no frame that lays out and paints the whole reply; once the view's width changes, the sizes of skipped parts
 * are stale, and containment ends (the window lays everything out again for the new width anyway).
 */
export const MarkdownView = memo(function MarkdownView({ text, streaming = false }: { readonly text: string; readonly streaming?: boolean }) {
  const [streamedHere, setStreamedHere] = useState(streaming);
  if (streaming && !streamedHere) setStreamedHere(true);
  const [widthChanged, setWidthChanged] = useState(false);
  const viewRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = viewRef.current;
    if (!streamedHere || widthChanged || view === null || typeof ResizeObserver === 'undefined') return undefined;
    let width: number | null = null;
    const observer = new ResizeObserver(([entry]) => {
      const nextWidth = entry?.contentRect.width ?? 0;
      if (width !== null && nextWidth !== width) setWidthChanged(true);
      width = nextWidth;
    });
    observer.observe(view);
    return () => observer.disconnect();
  }, [streamedHere, widthChanged]);
  const contained = streaming || (streamedHere && !widthChanged);
  const blocks = useMemo(() => {
    const { completed, tail } = hasDefinitions(text) ? { completed: [], tail: text } : splitBlocks(text);
    // Blank lines after the open block change nothing it renders.
    const openBlock = tail.replace(/\r?\n[ \t\r\n]*$/, '');
    const sources = openBlock === '' ? completed : [...completed, openBlock];
    return {
      budgeted: sources.map((block) => withinTableBudget(block)),
      openIndex: openBlock === '' ? -1 : completed.length,
      groups: streamedHere ? blockGroups(sources) : null,
    };
  }, [text, streamedHere]);
  // A block's lines past the table budget show after it, as a block of their own.
  const rendered = blocks.budgeted.flatMap((block, index) => [
    ...(block.markdown === '' ? [] : [{ key: `${index}`, index, node: <PiecewiseBlock source={block.markdown} streaming={streaming && index === blocks.openIndex} /> }]),
    ...(block.plainText === null ? [] : [{ key: `${index}-over-budget`, index, node: <OverBudgetText text={block.plainText} /> }]),
  ]);
  if (blocks.groups === null) {
    return (
      <div ref={viewRef} className="markdown md-flat">
        {rendered.map((block) => (
          <Fragment key={block.key}>{block.node}</Fragment>
        ))}
      </div>
    );
  }
  const grouped: ReactNode[][] = [];
  for (const [position, block] of rendered.entries()) {
    (grouped[blocks.groups[block.index] ?? 0] ??= []).push(
      <div key={block.key} className={position === rendered.length - 1 ? 'md-block md-last' : 'md-block'}>
        {block.node}
      </div>,
    );
  }
  return (
    <div ref={viewRef} className={contained ? 'markdown md-grouped md-streamed' : 'markdown md-grouped'}>
      <ColumnsMayHold.Provider value={!widthChanged}>
        {grouped.map((group, index) => (
          <div key={index} className="md-group">
            {group}
          </div>
        ))}
      </ColumnsMayHold.Provider>
    </div>
  );
});
