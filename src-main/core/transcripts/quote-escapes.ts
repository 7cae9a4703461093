/**
 * The quote-escape guard. Some providers and older apps stored replies with JSON-style `\"` where the model wrote `"`.
 * A lone `\"` outside code becomes `"`; an escaped backslash before a quote (`\\"`) and everything inside code
 * (fenced blocks and inline spans) are left alone. Idempotent: normalising twice changes nothing more.
 */
import { splitCode } from './markdown-segments';

/** A single backslash before a quote, not itself preceded by a backslash. */
const LONE_ESCAPED_QUOTE = /(?<!\\)\\"/g;

export interface QuoteEscapeResult {
  readonly text: string;
  /** How many `\"` became `"`. */
  readonly normalized: number;
}

export function normalizeQuoteEscapes(text: string): QuoteEscapeResult {
  if (!text.includes('\\"')) return { text, normalized: 0 };
  let normalized = 0;
  const result = splitCode(text)
    .map((segment) =>
      segment.code
        ? segment.text
        : segment.text.replace(LONE_ESCAPED_QUOTE, () => {
            normalized += 1;
            return '"';
          }),
    )
    .join('');
  return { text: result, normalized };
}

export function countQuoteEscapes(text: string): number {
  return normalizeQuoteEscapes(text).normalized;
}
