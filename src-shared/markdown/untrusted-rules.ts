/**
 * How untrusted Markdown (model, tool and imported text) becomes HTML, wherever it is shown: the window and the HTML
 * export apply the same sanitise schema, the same link rule (safe-url.ts) and show images as their description.
 */
import { defaultSchema } from 'rehype-sanitize';

/**
 * GitHub's sanitise schema (hast-util-sanitize's default): no script, style, iframe or event handler, ids and names
 * prefixed `user-content-` so they cannot clobber the page's globals; with `mark`, which a reply may write bare
 * (raw-html-as-text.ts) and which carries nothing but its words.
 */
export const SANITIZE_SCHEMA: typeof defaultSchema = { ...defaultSchema, tagNames: [...(defaultSchema.tagNames ?? []), 'mark'] };

/** The attributes of a link the reader can open: a new context that neither learns nor controls its opener. */
export const SAFE_LINK_REL = 'noopener noreferrer';
export const SAFE_LINK_TARGET = '_blank';

/** An image is never fetched from untrusted text: it shows as its description. */
export function imageAsText(alt: string | null | undefined): string {
  return alt === undefined || alt === null || alt === '' ? '[image]' : `[image: ${alt}]`;
}
