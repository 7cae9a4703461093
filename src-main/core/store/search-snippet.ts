/**
 * Snippets cut here rather than by FTS5: for the trigram path, for titles, and for texts too long for FTS5's
 * `snippet()`, whose work grows with the square of the hits in the text (64 KB of one repeated word took a second, a
 * 240 KB reply 17 s). Here the work is bounded whatever the text: only its first `SNIPPET_SCAN_CHARS` characters are
 * read, the scan stops at the first hit, and hits are marked only inside the window shown around it.
 */
import { SEARCH_MARK_END, SEARCH_MARK_START } from '../../../src-shared/search';

export const SNIPPET_ELLIPSIS = '…';
/** The most characters of a text read to cut its snippet: a hit after them is found, but shown from the text's start. */
export const SNIPPET_SCAN_CHARS = 64 * 1024;
/** Characters shown before and after the first hit. */
const SNIPPET_CONTEXT_BEFORE = 40;
const SNIPPET_CONTEXT_AFTER = 100;

/** Which occurrences count: anywhere (trigrams find substrings), or only at the start of a word (unicode61's prefixes). */
export type TermMatch = 'anywhere' | 'word-start';

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
const foldedCharacters = new Map<string, string>();

/** One character as the tokenizers compare it: lower case, accents removed (`remove_diacritics`). */
function fold(character: string): string {
  if (character.length === 1 && character.charCodeAt(0) < 128) return character.toLowerCase();
  let folded = foldedCharacters.get(character);
  if (folded === undefined) {
    folded = character.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    // Private-use and unassigned characters are few; a text of distinct characters cannot grow this past the scripts.
    if (foldedCharacters.size < 65_536) foldedCharacters.set(character, folded);
  }
  return folded;
}

interface FoldedText {
  readonly characters: readonly string[];
  readonly folded: readonly string[];
}

function foldText(text: string): FoldedText {
  const characters = Array.from(text);
  return { characters, folded: characters.map(fold) };
}

function occursAt(text: FoldedText, needle: readonly string[], start: number, match: TermMatch): boolean {
  if (start + needle.length > text.folded.length) return false;
  if (match === 'word-start' && start > 0 && WORD_CHARACTER.test(text.characters[start - 1] ?? '')) return false;
  for (let offset = 0; offset < needle.length; offset += 1) {
    if (text.folded[start + offset] !== needle[offset]) return false;
  }
  return true;
}

function foldedNeedles(terms: readonly string[]): string[][] {
  return terms.map((term) => Array.from(term).map(fold)).filter((needle) => needle.length > 0);
}

/** Where the first occurrence of any term starts, or null. */
function firstHit(text: FoldedText, needles: readonly (readonly string[])[], match: TermMatch): number | null {
  for (let start = 0; start < text.folded.length; start += 1) {
    if (needles.some((needle) => occursAt(text, needle, start, match))) return start;
  }
  return null;
}

/** The ranges (in code points) inside `[from, to)` where any term occurs, merged and in order. */
function rangesWithin(text: FoldedText, needles: readonly (readonly string[])[], match: TermMatch, from: number, to: number): Array<[number, number]> {
  const longest = Math.max(0, ...needles.map((needle) => needle.length));
  const merged: Array<[number, number]> = [];
  for (let start = Math.max(0, from - longest + 1); start < to; start += 1) {
    const ends = needles.filter((needle) => occursAt(text, needle, start, match)).map((needle) => start + needle.length);
    if (ends.length === 0) continue;
    let end = Math.max(...ends);
    // unicode61 marks the whole token a prefix matched.
    if (match === 'word-start') while (end < to && WORD_CHARACTER.test(text.characters[end] ?? '')) end += 1;
    const range: [number, number] = [Math.max(start, from), Math.min(end, to)];
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** `characters[from, to)` with the ranges between the marks. */
function marked(characters: readonly string[], ranges: ReadonlyArray<readonly [number, number]>, from: number, to: number): string {
  let text = '';
  let position = from;
  for (const [start, end] of ranges) {
    text += characters.slice(position, start).join('') + SEARCH_MARK_START + characters.slice(start, end).join('') + SEARCH_MARK_END;
    position = end;
  }
  return text + characters.slice(position, to).join('');
}

/** A whole short text (a title) with its hits marked. */
export function markTerms(text: string, terms: readonly string[]): string {
  const folded = foldText(text);
  const length = folded.characters.length;
  return marked(folded.characters, rangesWithin(folded, foldedNeedles(terms), 'anywhere', 0, length), 0, length);
}

export interface SnippetText {
  /** The text, or its first characters (at most `SNIPPET_SCAN_CHARS` are looked at). */
  readonly text: string;
  /** The text goes on after `text`. */
  readonly truncated: boolean;
}

/** Some context around the first hit, its hits marked, white space runs shown as one space. */
export function snippetAround({ text, truncated }: SnippetText, terms: readonly string[], match: TermMatch = 'anywhere'): string {
  const folded = foldText(Array.from(text).slice(0, SNIPPET_SCAN_CHARS).join('').replace(/\s+/gu, ' '));
  const length = folded.characters.length;
  const needles = foldedNeedles(terms);
  const first = firstHit(folded, needles, match) ?? 0;
  const from = Math.max(0, first - SNIPPET_CONTEXT_BEFORE);
  const to = Math.min(length, first + SNIPPET_CONTEXT_AFTER);
  const goesOn = to < length || truncated;
  return (from > 0 ? SNIPPET_ELLIPSIS : '') + marked(folded.characters, rangesWithin(folded, needles, match, from, to), from, to) + (goesOn ? SNIPPET_ELLIPSIS : '');
}
