/**
 * Full-text search over every conversation's words (the FTS5 tables of db/migrations/0006_messages_fts.sql) and over
 * titles. A person's input is never FTS5 syntax: each term is quoted, so `AND`, `*`, `-`, `"` and parentheses are
 * words to find, never operators, and no input can make a query fail.
 */
import type { MessageRole, SearchHitView, SearchResultsView } from '../../../src-shared/api';
import type { BrainId } from '../../../src-shared/brains';
import { DEFAULT_SEARCH_LIMIT, SEARCH_MARK_END, SEARCH_MARK_START } from '../../../src-shared/search';
import { containsPattern } from './conversations';
import { markTerms, SNIPPET_ELLIPSIS, SNIPPET_SCAN_CHARS, snippetAround } from './search-snippet';
import type { AppDatabase } from './open';

/**
 * The scripts unicode61 makes one token of a whole run of (Hangul Jamo, CJK punctuation through Katakana and
 * compatibility Jamo, CJK Extension A, CJK Unified Ideographs, Hangul syllables, CJK compatibility ideographs,
 * halfwidth Katakana). The same ranges, as a GLOB, choose the rows the migration's trigram index holds.
 */
export const CJK_CHARACTER_RANGES = 'ᄀ-ᇿ　-㆏㐀-䶿一-鿿가-힣豈-﫿ｦ-ﾟ';
export const CJK_TEXT_GLOB = `*[${CJK_CHARACTER_RANGES}]*`;
const CJK_CHARACTER = new RegExp(`[${CJK_CHARACTER_RANGES}]`, 'u');

/** FTS5's trigram tokenizer: "substrings of fewer than 3 unicode characters ... do not match any rows" in a MATCH. */
const TRIGRAM_LENGTH = 3;
/** The most terms one query uses; the rest of a pasted paragraph adds nothing but work. */
const MAX_TERMS = 16;
/** The most characters of one term. */
const MAX_TERM_LENGTH = 100;
/** Tokens around a hit in a snippet FTS5 builds (its limit is 64). */
const SNIPPET_TOKENS = 16;
/**
 * The longest text FTS5's `snippet()` cuts; a longer one's snippet is cut by `snippetAround` from its first
 * characters. `snippet()` scores every hit against every other, so its work grows with the square of the hits: 4 KB of
 * one repeated word costs about 2 ms, 64 KB a second, and one 240 KB reply held a search for 17 s.
 */
export const FTS_SNIPPET_MAX_CHARS = 4096;

/**
 * The words of a query: split on white space; a term with no letter or digit (`-`, `*`, `(`) is dropped, since every
 * tokenizer drops it too and an empty phrase matches nothing.
 */
export function searchTerms(query: string): string[] {
  return query
    .split(/\s+/u)
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .slice(0, MAX_TERMS)
    .map((term) => Array.from(term).slice(0, MAX_TERM_LENGTH).join(''));
}

/** An FTS5 string: double quotes around it, a double quote inside doubled (https://sqlite.org/fts5.html#fts5_strings). */
export function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Every term must occur (FTS5's implicit AND); the last one may be a word still being typed, so it matches as a prefix. */
export function ftsMatchExpression(terms: readonly string[]): string {
  return terms.map((term, index) => (index === terms.length - 1 ? `${ftsString(term)}*` : ftsString(term))).join(' ');
}

export function hasCjk(text: string): boolean {
  return CJK_CHARACTER.test(text);
}

interface MessageHitRow {
  readonly conversationId: string;
  readonly conversationTitle: string;
  readonly messageId: string;
  readonly role: MessageRole;
  readonly brain: BrainId | null;
  readonly createdAt: string;
  /** SQLite's boolean: 1 for a message on a branch the conversation does not show. */
  readonly offBranch: number;
}

interface MessageHit extends MessageHitRow {
  readonly snippet: string;
}

/** A hit whose snippet is cut here: the first characters of its text, and whether the text goes on. */
interface HitWithHead extends MessageHitRow {
  readonly head: string;
  readonly truncated: number;
}

const HIT_COLUMNS = `m.conversation_id AS conversationId, c.title AS conversationTitle, m.id AS messageId, m.role AS role,
  m.brain AS brain, m.created_at AS createdAt, (m.on_live_path = 0 AND m.kind != 'summary') AS offBranch`;

/** The first characters of a text (`text` in the query) that a snippet cut here reads, and whether it goes on. */
const HEAD_COLUMNS = (text: string): string =>
  `substr(${text}, 1, ${SNIPPET_SCAN_CHARS}) AS head, (length(${text}) > ${SNIPPET_SCAN_CHARS}) AS truncated`;

/**
 * Words indexed by unicode61: ranked by bm25, snippets cut by FTS5 with the private-use marks; a text longer than
 * `FTS_SNIPPET_MAX_CHARS` gets its snippet cut here around its first hit instead.
 */
function wordHits(db: AppDatabase, terms: readonly string[], limit: number): MessageHit[] {
  const rows = db.$client
    .prepare<[string, string, string, number], MessageHitRow & { readonly snippet: string | null; readonly head: string | null; readonly truncated: number | null }>(
      `SELECT ${HIT_COLUMNS}, hits.snippet AS snippet,
         CASE WHEN hits.snippet IS NULL THEN substr(m.text, 1, ${SNIPPET_SCAN_CHARS}) END AS head,
         CASE WHEN hits.snippet IS NULL THEN length(m.text) > ${SNIPPET_SCAN_CHARS} END AS truncated
       FROM (SELECT rowid, rank,
               CASE WHEN length(text) <= ${FTS_SNIPPET_MAX_CHARS}
                 THEN snippet(messages_fts, 0, ?, ?, '${SNIPPET_ELLIPSIS}', ${SNIPPET_TOKENS}) END AS snippet
             FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?) AS hits
       JOIN messages m ON m.rowid = hits.rowid
       JOIN conversations c ON c.id = m.conversation_id
       ORDER BY hits.rank`,
    )
    .all(SEARCH_MARK_START, SEARCH_MARK_END, ftsMatchExpression(terms), limit);
  return rows.map(({ snippet, head, truncated, ...row }) => ({
    ...row,
    snippet: snippet ?? snippetAround({ text: head ?? '', truncated: truncated === 1 }, terms, 'word-start'),
  }));
}

/**
 * A query with Chinese, Japanese or Korean in it: the trigram index finds each term anywhere inside a run. Terms of
 * three characters or more go into one MATCH (ranked by bm25); shorter ones are LIKE filters, which FTS5 answers over
 * the trigram table alone. The snippet is cut here, around the first hit, with the same marks, from the text's first
 * `SNIPPET_SCAN_CHARS` characters (only those leave SQLite).
 */
function cjkHits(db: AppDatabase, terms: readonly string[], limit: number): MessageHit[] {
  const matched = terms.filter((term) => Array.from(term).length >= TRIGRAM_LENGTH);
  const liked = terms.filter((term) => Array.from(term).length < TRIGRAM_LENGTH);
  const conditions = [
    ...(matched.length > 0 ? ['messages_cjk_fts MATCH ?'] : []),
    ...liked.map(() => `messages_cjk_fts.text LIKE ? ESCAPE '\\'`),
  ];
  const order = matched.length > 0 ? 'rank' : 'rowid DESC';
  const rows = db.$client
    .prepare<unknown[], HitWithHead>(
      `SELECT ${HIT_COLUMNS}, hits.head AS head, hits.truncated AS truncated
       FROM (SELECT rowid, ${matched.length > 0 ? 'rank' : 'NULL AS rank'}, ${HEAD_COLUMNS('text')} FROM messages_cjk_fts
             WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ?) AS hits
       JOIN messages m ON m.rowid = hits.rowid
       JOIN conversations c ON c.id = m.conversation_id
       ORDER BY ${matched.length > 0 ? 'hits.rank' : 'hits.rowid DESC'}`,
    )
    .all(...(matched.length > 0 ? [matched.map(ftsString).join(' ')] : []), ...liked.map(containsPattern), limit);
  return rows.map(({ head, truncated, ...row }) => ({ ...row, snippet: snippetAround({ text: head, truncated: truncated === 1 }, terms) }));
}

/** Conversations whose title holds every term (SQLite's LIKE: case-insensitive for ASCII), newest first. */
function titleHits(db: AppDatabase, terms: readonly string[], limit: number): SearchHitView[] {
  const rows = db.$client
    .prepare<unknown[], { id: string; title: string; brain: BrainId | null; createdAt: string }>(
      `SELECT id, title, brain, created_at AS createdAt FROM conversations
       WHERE ${terms.map(() => `title LIKE ? ESCAPE '\\'`).join(' AND ')}
       ORDER BY updated_at DESC, id DESC LIMIT ?`,
    )
    .all(...terms.map(containsPattern), limit);
  return rows.map((row) => ({
    conversationId: row.id,
    conversationTitle: row.title,
    messageId: null,
    role: null,
    brain: row.brain,
    snippet: markTerms(row.title, terms),
    createdAt: row.createdAt,
    offBranch: false,
  }));
}

/** How far indexing the rows written before the index existed has come; null once it is done (or was never needed). */
export function searchIndexingProgress(db: AppDatabase): { percent: number } | null {
  const marker = db.$client
    .prepare<[], { done: number; through: number }>('SELECT done_through_rowid AS done, through_rowid AS through FROM search_backfill WHERE id = 1')
    .get();
  if (marker === undefined) return null;
  return { percent: marker.through <= 0 ? 0 : Math.min(99, Math.floor((marker.done / marker.through) * 100)) };
}

/**
 * Every conversation whose title holds the terms, then the messages that do, best first (bm25), at most `limit` in all.
 * Streaming replies are not indexed until they finish, so they are not found until then.
 */
export function searchMessages(db: AppDatabase, query: string, { limit = DEFAULT_SEARCH_LIMIT }: { limit?: number } = {}): SearchResultsView {
  const terms = searchTerms(query);
  const indexing = searchIndexingProgress(db);
  if (terms.length === 0) return { hits: [], indexing };
  const titles = titleHits(db, terms, limit);
  const messageRows = terms.some(hasCjk) ? cjkHits(db, terms, limit) : wordHits(db, terms, limit);
  const messageHits = messageRows.map((row): SearchHitView => ({ ...row, offBranch: row.offBranch === 1 }));
  return { hits: [...titles, ...messageHits].slice(0, limit), indexing };
}
