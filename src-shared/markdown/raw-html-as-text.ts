/**
 * Raw HTML in untrusted Markdown is shown as the characters the author typed, never run and never dropped. The
 * Markdown parser reads anything tag-shaped as HTML (`if a<b and c>d`, `List<String>`), and a renderer that leaves
 * HTML out deletes those words from the reply. Each HTML node becomes text: inline where it stood, and a block of HTML
 * a paragraph of its lines.
 */
import type { Break, Html, Nodes, Paragraph, Parent, Root, Text } from 'mdast';

function linesOf(value: string): Array<Text | Break> {
  return value.split(/\r?\n/).flatMap((line, index): Array<Text | Break> => (index === 0 ? [{ type: 'text', value: line }] : [{ type: 'break' }, { type: 'text', value: line }]));
}

/** Whether `parent` holds blocks (flow content), where HTML stands as a block of its own. */
function holdsBlocks(parent: Parent): boolean {
  return parent.type === 'root' || parent.type === 'blockquote' || parent.type === 'listItem' || parent.type === 'footnoteDefinition';
}

function asText(node: Html, inBlocks: boolean): Text | Paragraph {
  return inBlocks ? { type: 'paragraph', children: linesOf(node.value) } : { type: 'text', value: node.value };
}

function visit(parent: Parent): void {
  const inBlocks = holdsBlocks(parent);
  parent.children = parent.children.map((child: Nodes) => {
    if (child.type === 'html') return asText(child, inBlocks);
    if ('children' in child) visit(child);
    return child;
  }) as Parent['children'];
}

export function remarkRawHtmlAsText() {
  return (tree: Root): void => visit(tree);
}
