/**
 * Search snippets: the matched parts of a snippet are marked with two private-use characters, never with HTML, so the
 * window renders every character of a snippet as text and only the marks as highlights (a snippet quotes model output
 * and user text, which are untrusted).
 */

/** Opens a matched part of a snippet (U+E000, private use: no text a person writes means anything by it). */
export const SEARCH_MARK_START = '\uE000';
/** Closes a matched part of a snippet (U+E001). */
export const SEARCH_MARK_END = '\uE001';

export interface SnippetSegment {
  readonly text: string;
  readonly marked: boolean;
}

/**
 * A snippet cut into plain and matched parts, in order, the marks removed. A stray mark (a text that itself held one)
 * only switches highlighting; it can never add anything but text.
 */
export function snippetSegments(snippet: string): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  let marked = false;
  let current = '';
  const flush = (): void => {
    if (current.length > 0) segments.push({ text: current, marked });
    current = '';
  };
  for (const character of snippet) {
    if (character === SEARCH_MARK_START || character === SEARCH_MARK_END) {
      flush();
      marked = character === SEARCH_MARK_START;
    } else {
      current += character;
    }
  }
  flush();
  return segments;
}

/** How many results a search answers unless asked for another number, and the most it answers. */
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 200;
/** The longest query a search takes, in characters. */
export const MAX_SEARCH_QUERY_LENGTH = 1000;
