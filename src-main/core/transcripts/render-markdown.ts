/**
 * Untrusted Markdown (a reply, a summary, reasoning) to safe HTML for the HTML export, by the window's own rules
 * (src-shared/markdown): container nesting capped, emphasis nested too deep left unparsed, tables past the cell
 * budget shown as text, GitHub's sanitise schema, only absolute http, https and mailto links, images as their
 * description. Highlighting adds `hljs-*` classes only, so the page needs no script.
 */
import type { Element, ElementContent, Root } from 'hast';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { capNesting } from '../../../src-shared/markdown/cap-nesting';
import { remarkRawHtmlAsText } from '../../../src-shared/markdown/raw-html-as-text';
import { inlineNestingDepth, MAX_INLINE_DEPTH } from '../../../src-shared/markdown/inline-nesting';
import { safeLinkUrl } from '../../../src-shared/markdown/safe-url';
import { hasDefinitions, splitBlocks } from '../../../src-shared/markdown/split-blocks';
import { withinTableBudget } from '../../../src-shared/markdown/table-budget';
import { imageAsText, SAFE_LINK_REL, SAFE_LINK_TARGET, SANITIZE_SCHEMA } from '../../../src-shared/markdown/untrusted-rules';

// A browser's parser drops a NUL from the text it shows, so a NUL in a title or a tool's output would vanish from the
// page without a trace: it is shown as U+FFFD instead. Other control characters stay, as the window shows them.
const NUL = '\u0000';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`).replaceAll(NUL, '\uFFFD');
}

/** Turns off emphasis, strong and strikethrough (micromark's `attention` and GFM's `strikethrough` constructs). */
function remarkWithoutEmphasis(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: ['attention', 'strikethrough'] } }];
}

function textNode(value: string): ElementContent {
  return { type: 'text', value };
}

/** Links the reader may open get the window's attributes, other links become their words, images their description. */
function rehypeWindowLinksAndImages() {
  const visit = (parent: Root | Element): void => {
    parent.children = parent.children.map((child) => {
      if (child.type !== 'element') return child;
      if (child.tagName === 'img') {
        const alt = typeof child.properties.alt === 'string' ? child.properties.alt : null;
        return { type: 'element', tagName: 'span', properties: { className: ['md-image-alt'] }, children: [textNode(imageAsText(alt))] };
      }
      visit(child);
      if (child.tagName !== 'a') return child;
      const href = typeof child.properties.href === 'string' ? child.properties.href : '';
      const url = href === '' ? null : safeLinkUrl(href);
      if (url === null) return { type: 'element', tagName: 'span', properties: { className: ['md-unlinked'] }, children: child.children };
      return { ...child, properties: { href: url, rel: SAFE_LINK_REL, target: SAFE_LINK_TARGET, title: url } };
    }) as typeof parent.children;
  };
  return (tree: Root) => visit(tree);
}

function processor(withEmphasis: boolean) {
  const base = unified().use(remarkParse).use(remarkGfm).use(remarkRawHtmlAsText);
  return (withEmphasis ? base : base.use(remarkWithoutEmphasis))
    .use(remarkRehype)
    // Sanitise first: the link rule and highlighting then only touch markup that is already safe.
    .use(rehypeSanitize, SANITIZE_SCHEMA)
    .use(rehypeWindowLinksAndImages)
    .use(rehypeHighlight, { detect: false })
    .use(rehypeStringify)
    .freeze();
}

let processors: { full: ReturnType<typeof processor>; withoutEmphasis: ReturnType<typeof processor> } | null = null;

function renderBlock(markdown: string): string {
  processors ??= { full: processor(true), withoutEmphasis: processor(false) };
  const capped = capNesting(markdown);
  const chosen = inlineNestingDepth(capped) > MAX_INLINE_DEPTH ? processors.withoutEmphasis : processors.full;
  try {
    return String(chosen.processSync(capped));
  } catch {
    // What the window does when a block cannot render: its source, as text.
    return plainTextHtml(markdown);
  }
}

/** Text shown exactly as it is, line breaks kept by the page's style. */
export function plainTextHtml(text: string): string {
  return `<div class="plain">${escapeHtml(text)}</div>`;
}

/** One piece of untrusted Markdown as sanitised HTML, block by block like the window. */
export function renderMarkdown(text: string): string {
  const { completed, tail } = hasDefinitions(text) ? { completed: [], tail: text } : splitBlocks(text);
  const openBlock = tail.replace(/\r?\n[ \t\r\n]*$/, '');
  const blocks = openBlock === '' ? completed : [...completed, openBlock];
  return blocks
    .map((block) => {
      const budgeted = withinTableBudget(block);
      const parts = [budgeted.markdown === '' ? '' : renderBlock(budgeted.markdown)];
      if (budgeted.plainText !== null) parts.push(`<p class="note">Too large to format; the rest is shown as plain text.</p>${plainTextHtml(budgeted.plainText)}`);
      return parts.join('');
    })
    .join('\n');
}
