/**
 * Memories: short texts the user (or a brain, through `memory_save`) asked the app to keep, searched with the FTS5
 * index `memories_fts`. The index is external-content and kept in sync by triggers (db/migrations/0001), so these
 * functions only write `memories`; the index follows.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { memories } from '../../../db/schema';
import type { MemoryView } from '../../../src-shared/api';
import type { AppDatabase } from './open';
import { committedRow } from './statements';

export type MemoryRow = typeof memories.$inferSelect;

/** Field by field: a column added to the table does not reach the Api unless it is named here. */
export function toMemoryView(row: MemoryRow): MemoryView {
  return { id: row.id, text: row.text, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export interface NewMemory {
  readonly id: string;
  readonly text: string;
  readonly now: string;
}

export interface MemoryMatch {
  readonly id: string;
  readonly text: string;
  /** Relevance, higher is better: the negated `bm25(memories_fts)`; 0 for a substring-only match (see below). */
  readonly score: number;
}

export function insertMemory(db: AppDatabase, memory: NewMemory): MemoryRow {
  return committedRow(db, () =>
    db.insert(memories).values({ id: memory.id, text: memory.text, createdAt: memory.now, updatedAt: memory.now }).returning().get(),
  );
}

/** The updated row, or null when no memory has this id. The update trigger re-indexes the new text. */
export function updateMemory(db: AppDatabase, id: string, text: string, now: string): MemoryRow | null {
  return committedRow(db, () => db.update(memories).set({ text, updatedAt: now }).where(eq(memories.id, id)).returning().get()) ?? null;
}

export function deleteMemory(db: AppDatabase, id: string): boolean {
  return db.delete(memories).where(eq(memories.id, id)).run().changes === 1;
}

export function getMemory(db: AppDatabase, id: string): MemoryRow | null {
  return db.select().from(memories).where(eq(memories.id, id)).get() ?? null;
}

/** The memory whose text is exactly this one, if any (the newest when several are). */
export function findMemoryByText(db: AppDatabase, text: string): MemoryRow | null {
  return (
    db
      .select()
      .from(memories)
      .where(eq(memories.text, text))
      .orderBy(desc(memories.createdAt), desc(memories.id))
      .limit(1)
      .get() ?? null
  );
}

export interface MemoryPage {
  readonly limit: number;
  /** Continue after this memory (the last one of the previous page). An id that no longer exists yields no rows. */
  readonly beforeId?: string;
}

/** A row count SQLite accepts: whole, and finite (Infinity means no limit). NaN and counts below 1 give 0. */
function rowLimit(limit: number): number {
  if (limit === Infinity) return Number.MAX_SAFE_INTEGER;
  return limit >= 1 ? Math.floor(limit) : 0;
}

/** Newest first, by creation time then id. */
export function listMemories(db: AppDatabase, page: MemoryPage): MemoryRow[] {
  const limit = rowLimit(page.limit);
  if (limit === 0) return [];
  const cursor =
    page.beforeId === undefined
      ? undefined
      : sql`(${memories.createdAt}, ${memories.id}) < (SELECT m.created_at, m.id FROM memories m WHERE m.id = ${page.beforeId})`;
  return db
    .select()
    .from(memories)
    .where(cursor)
    .orderBy(desc(memories.createdAt), desc(memories.id))
    .limit(limit)
    .all();
}

// A user's message is full of words that would match nearly every memory. Kept short and lowercase: only the
// words that carry no subject of their own.
const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between both but by can ' +
    'could did do does doing don down during each few for from further had has have having he her here hers herself ' +
    'him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only ' +
    'or other our ours ourselves out over own please same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves ' +
    'let tell know remember hi hello hey thanks thank ok okay yes ' +
    // Korean pronouns and question words (a Hangul run is one token, so these only match whole words).
    '나 나는 내가 저 저는 제가 너 너는 우리 우리는 그 이 저것 이것 그것 뭐 뭐야 무엇 무엇을 어디 언제 어떻게 왜 누구 ' +
    '좀 그리고 그런데 하지만 또 제 내 네'
  ).split(/\s+/),
);

// Korean attaches particles to the word ("서울에서" = "in Seoul"), and the tokenizer keeps a Hangul run whole, so a
// query word is searched by its stem. Longest first, so "에서" is tried before "서".
const HANGUL_PARTICLES = [
  '에서는', '에게서', '으로는', '이라고', '에서', '에게', '한테', '께서', '으로', '부터', '까지', '처럼', '보다', '이랑',
  '하고', '라고', '은', '는', '이', '가', '을', '를', '에', '의', '도', '로', '와', '과', '만', '랑', '요',
];

/** At most this many words of a message are searched, so a pasted document stays a cheap query. */
export const MAX_QUERY_TERMS = 32;
/** At most this many words are searched as substrings (a full scan each). */
const MAX_SUBSTRING_TERMS = 8;

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const HANGUL_WORD = /^\p{Script=Hangul}+$/u;
const LATIN_LETTER = /^\p{Script=Latin}$/u;
// Chinese and Japanese are written without spaces, so the tokenizer sees a whole clause as one token; a word in the
// middle of it is found only as a substring.
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function hangulStem(word: string): string {
  for (const particle of HANGUL_PARTICLES) {
    if (word.endsWith(particle)) {
      const stem = word.slice(0, -particle.length);
      if ([...stem].length >= 2) return stem;
    }
  }
  return word;
}

export interface MemoryQuery {
  /** An FTS5 MATCH expression of quoted terms joined by OR, or null when no word is worth searching. */
  readonly matchExpression: string | null;
  /** Chinese and Japanese words, also searched as plain substrings of the memory text. */
  readonly substrings: readonly string[];
}

/**
 * Turns free text into a query that cannot be an FTS5 syntax error: only letters and numbers survive, each term is a
 * quoted string (FTS5 operators and column filters inside quotes are plain text), terms of two or more characters
 * match as prefixes, and the terms are OR-ed so bm25 ranks memories by how many and how rare the words they share.
 */
export function parseMemoryQuery(text: string): MemoryQuery {
  const terms: string[] = [];
  const seen = new Set<string>();
  const substrings: string[] = [];
  for (const word of text.normalize('NFC').match(WORD) ?? []) {
    const lower = word.toLowerCase();
    if (STOP_WORDS.has(lower)) continue;
    const length = [...lower].length;
    if (length === 1 && LATIN_LETTER.test(lower)) continue;
    const term = HANGUL_WORD.test(lower) ? hangulStem(lower) : lower;
    if (seen.has(term)) continue;
    seen.add(term);
    const quoted = `"${term.replaceAll('"', '""')}"`;
    terms.push([...term].length >= 2 ? `${quoted}*` : quoted);
    if (UNSPACED_SCRIPT.test(term) && substrings.length < MAX_SUBSTRING_TERMS) substrings.push(term);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return { matchExpression: terms.length === 0 ? null : terms.join(' OR '), substrings };
}

/**
 * Memories matching the words of `query`, best first: ranked by bm25, ties newest first. Chinese or Japanese words
 * found only inside a longer run of text follow the ranked matches, newest first. Never throws on the query's text;
 * an empty or stop-word-only query matches nothing.
 */
export function searchMemories(db: AppDatabase, query: string, limit: number): MemoryMatch[] {
  const wanted = rowLimit(limit);
  if (wanted === 0) return [];
  const { matchExpression, substrings } = parseMemoryQuery(query);
  if (matchExpression === null) return [];

  const ranked = db.$client
    .prepare<[string, number], { id: string; text: string; relevance: number }>(
      `SELECT m.id AS id, m.text AS text, -bm25(memories_fts) AS relevance
         FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
        WHERE memories_fts MATCH ?
        ORDER BY relevance DESC, m.created_at DESC, m.id DESC
        LIMIT ?`,
    )
    .all(matchExpression, wanted);
  const matches: MemoryMatch[] = ranked.map((row) => ({ id: row.id, text: row.text, score: row.relevance }));
  if (substrings.length === 0 || matches.length >= wanted) return matches;

  const found = new Set(matches.map((match) => match.id));
  const anySubstring = substrings.map(() => 'instr(text, ?) > 0').join(' OR ');
  const extra = db.$client
    .prepare<unknown[], { id: string; text: string }>(
      `SELECT id, text FROM memories WHERE ${anySubstring} ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(...substrings, wanted + found.size);
  for (const row of extra) {
    if (matches.length >= wanted) break;
    if (!found.has(row.id)) matches.push({ id: row.id, text: row.text, score: 0 });
  }
  return matches;
}
