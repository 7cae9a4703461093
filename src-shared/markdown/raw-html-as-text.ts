/**
 * Raw HTML in untrusted Markdown is shown as the characters the author typed, never run and never dropped. The
 * Markdown parser reads anything tag-shaped as HTML (`if a<b and c>d`, `List<String>`), and a renderer that leaves
 * HTML out deletes those words from the reply. Each HTML node becomes text: inline where it stood, and a block of HTML
 * a paragraph of its lines.
 *
 * A few inline tags are formatting the author meant and that cannot run anything: `<sub>`, `<sup>`, `<kbd>` and
 * `<mark>` around words, and `<br>`. Written bare (no attribute at all) and, for the four, closed later in the same
 * paragraph, they become those elements; each tag is read by parse5's tokenizer (the HTML standard's tokenization),
 * never matched by pattern. Anything else, an attribute included, stays the text typed.
 */
import type { Break, Emphasis, Html, Nodes, Paragraph, Parent, PhrasingContent, Root, Text } from 'mdast';
import { Tokenizer, type Token } from 'parse5';

/** Inline elements shown as such when their tags carry no attribute. */
const FORMATTING_ELEMENTS: ReadonlySet<string> = new Set(['sub', 'sup', 'kbd', 'mark']);
const LINE_BREAK = 'br';

interface BareTag {
  readonly kind: 'start' | 'end';
  readonly name: string;
}

/** The one tag without attributes `value` is, as the HTML tokenizer reads it; null for anything else. */
function bareTag(value: string): BareTag | null {
  const tags: Array<BareTag | null> = [];
  const other = (): void => {
    tags.push(null);
  };
  const tag = (kind: BareTag['kind']) => (token: Token.TagToken): void => {
    tags.push(token.attrs.length === 0 ? { kind, name: token.tagName } : null);
  };
  const tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: false },
    {
      onStartTag: tag('start'),
      onEndTag: tag('end'),
      onCharacter: other,
      onWhitespaceCharacter: other,
      onNullCharacter: other,
      onComment: other,
      onDoctype: other,
      onEof: () => undefined,
      onParseError: null,
    },
  );
  tokenizer.write(value, true);
  return tags.length === 1 ? tags[0]! : null;
}

function linesOf(value: string): Array<Text | Break> {
  return value.split(/\r?\n/).flatMap((line, index): Array<Text | Break> => (index === 0 ? [{ type: 'text', value: line }] : [{ type: 'break' }, { type: 'text', value: line }]));
}

/** Whether `parent` holds blocks (flow content), where HTML stands as a block of its own. */
function holdsBlocks(parent: Parent): boolean {
  return parent.type === 'root' || parent.type === 'blockquote' || parent.type === 'listItem' || parent.type === 'footnoteDefinition';
}

/** Where the end tag closing the `name` opened before `from` stands among `siblings`, nested ones skipped; -1 if none. */
function closingTag(siblings: readonly PhrasingContent[], from: number, name: string): number {
  let depth = 0;
  for (let index = from; index < siblings.length; index += 1) {
    const sibling = siblings[index]!;
    if (sibling.type !== 'html') continue;
    const tag = bareTag(sibling.value);
    if (tag?.name !== name) continue;
    if (tag.kind === 'start') depth += 1;
    else if (depth === 0) return index;
    else depth -= 1;
  }
  return -1;
}

/**
 * A formatting element as mdast-util-to-hast builds it: a phrasing parent whose `data.hName` names the element (the
 * documented way to make an element of a node); the sanitise schema still decides what reaches the page.
 */
function formatting(name: string, children: PhrasingContent[]): Emphasis {
  return { type: 'emphasis', data: { hName: name }, children };
}

function phrasing(children: readonly PhrasingContent[]): PhrasingContent[] {
  const shown: PhrasingContent[] = [];
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    if (child.type !== 'html') {
      if ('children' in child) visit(child);
      shown.push(child);
      continue;
    }
    const tag = bareTag(child.value);
    if (tag?.kind === 'start' && tag.name === LINE_BREAK) {
      shown.push({ type: 'break' });
      continue;
    }
    const close = tag?.kind === 'start' && FORMATTING_ELEMENTS.has(tag.name) ? closingTag(children, index + 1, tag.name) : -1;
    if (close >= 0) {
      shown.push(formatting(tag!.name, phrasing(children.slice(index + 1, close))));
      index = close;
      continue;
    }
    shown.push({ type: 'text', value: child.value });
  }
  return shown;
}

function asParagraph(node: Html): Paragraph {
  return { type: 'paragraph', children: linesOf(node.value) };
}

function visit(parent: Parent): void {
  if (holdsBlocks(parent)) {
    parent.children = parent.children.map((child: Nodes) => {
      if (child.type === 'html') return asParagraph(child);
      if ('children' in child) visit(child);
      return child;
    }) as Parent['children'];
    return;
  }
  const children = parent.children as PhrasingContent[];
  if (children.every((child) => child.type !== 'html' && !('children' in child))) return;
  parent.children = phrasing(children) as Parent['children'];
}

export function remarkRawHtmlAsText() {
  return (tree: Root): void => visit(tree);
}
