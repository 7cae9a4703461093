/**
 * Search, top 50 over a conversation of 100,000 messages (`searchMessages`, what the search box runs: titles, then
 * the FTS5 hits joined to their messages and conversations, with snippets) against the raw FTS5 query alone (the same
 * MATCH, ranked by bm25, 50 rows with their snippets; for Hangul the trigram table's rows with their text), per index
 * (target: at most 2x).
 *
 * This file reports; it never fails on time. Both must find 50 hits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MARK_END, SEARCH_MARK_START } from '../../src-shared/search';
import { closeDatabase, openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { insertConversation } from '../../src-main/core/store/conversations';
import { insertMessage } from '../../src-main/core/store/messages';
import { ftsMatchExpression, ftsString, searchMessages, searchTerms } from '../../src-main/core/store/search';
import { SNIPPET_ELLIPSIS } from '../../src-main/core/store/search-snippet';
import { seedConversation } from '../replay/seed-conversation';
import { measureInterleaved, median } from '../replay/timing';
import { isSmokeRun, reportScenario } from '../support/scenario-line';
import { SEED_TIMEOUT_MS, sizeLabel } from './turns';

const SMOKE = isSmokeRun();
const MESSAGES = SMOKE ? 300 : 100_000;
const PLAN = SMOKE ? { warmups: 0, repetitions: 1, settleMs: 0 } : { warmups: 3, repetitions: 15, settleMs: 50 };
const TOP = 50;
const TARGET_RATIO = 2;
/** A snippet cut from 64 Ki characters against a MATCH that reads none: a few milliseconds over it is the cost. */
const DEGENERATE_TARGET_RATIO = 10;
const SEEDED_AT = '2026-12-01T10:00:00.000Z';

interface Query {
  readonly label: string;
  readonly query: string;
  /** The raw FTS5 query for the same terms, answering `TOP` rows. */
  readonly raw: (db: AppDatabase, query: string) => unknown[];
}

/** unicode61 words, ranked by bm25, with the snippet FTS5 cuts (the app's marks and length). */
function rawWordQuery(db: AppDatabase, query: string): unknown[] {
  return db.$client
    .prepare(`SELECT rowid, snippet(messages_fts, 0, ?, ?, ?, 16) AS snippet FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?`)
    .all(SEARCH_MARK_START, SEARCH_MARK_END, SNIPPET_ELLIPSIS, ftsMatchExpression(searchTerms(query)), TOP);
}

/** Hangul of three characters or more: the trigram table, ranked by bm25, with the text a snippet is cut from. */
function rawTrigramQuery(db: AppDatabase, query: string): unknown[] {
  return db.$client
    .prepare('SELECT rowid, text FROM messages_cjk_fts WHERE messages_cjk_fts MATCH ? ORDER BY rank LIMIT ?')
    .all(ftsMatchExpression(searchTerms(query)).replace(/\*$/, ''), TOP);
}

const QUERIES: readonly Query[] = [
  { label: 'words', query: 'composite index', raw: rawWordQuery },
  { label: 'hangul', query: '회의는', raw: rawTrigramQuery },
];

describe(`search, top ${TOP} over ${MESSAGES.toLocaleString('en')} messages`, () => {
  let folder = '';
  let db: AppDatabase;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'anybrain-bench-search-'));
    db = openDatabase(join(folder, 'anybrain.db'));
    seedConversation(db, MESSAGES, 1);
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
  }, SEED_TIMEOUT_MS);

  afterAll(() => {
    if (db) closeDatabase(db);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  for (const { label, query, raw } of QUERIES) {
    it(`${label}: "${query}" against the raw FTS5 query`, async () => {
      const appName = 'searchMessages';
      const rawName = 'raw FTS5 query';
      const cases = new Map<string, () => number>([
        [appName, () => searchMessages(db, query, { limit: TOP }).hits.length],
        [rawName, () => raw(db, query).length],
      ]);
      const { samples, failures } = await measureInterleaved(cases, PLAN, (name, hits) => {
        expect(hits, `${name} found fewer than ${TOP}`).toBe(TOP);
      });
      expect([...failures].map(([name, error]) => `${name}: ${error.message}`)).toEqual([]);
      const value = median(samples.get(appName)!.wallMs);
      const baseline = median(samples.get(rawName)!.wallMs);
      reportScenario({
        name: `search-top-${TOP}-${label}-${sizeLabel(MESSAGES)}-vs-raw-fts5`,
        value,
        baseline,
        unit: 'ms',
        target: `<= ${TARGET_RATIO}x`,
        met: value <= baseline * TARGET_RATIO,
      });
    });
  }
});

/** One reply of a phrase repeated to 240 KB: every word is a hit, which FTS5's `snippet()` pays for squared. */
const DEGENERATE_BYTES = SMOKE ? 24 * 1024 : 240 * 1024;
const DEGENERATE: ReadonlyArray<{ readonly label: string; readonly phrase: string; readonly query: string; readonly raw: string }> = [
  { label: 'words', phrase: 'the loop goes round ', query: 'loop', raw: 'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 50' },
  { label: 'hangul', phrase: '서울에서 친구를 만났어요 ', query: '친구를', raw: 'SELECT rowid FROM messages_cjk_fts WHERE messages_cjk_fts MATCH ? ORDER BY rank LIMIT 50' },
];

describe(`search over one repetitive reply of ${DEGENERATE_BYTES / 1024} KB`, () => {
  for (const { label, phrase, query, raw } of DEGENERATE) {
    it(`${label}: "${query}" against the raw FTS5 MATCH without snippets`, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'anybrain-bench-search-degenerate-'));
      const db = openDatabase(join(folder, 'anybrain.db'));
      try {
        insertConversation(db, { id: 'c1', title: 'Repetition', brain: 'kimi', model: null, now: SEEDED_AT });
        const text = phrase.repeat(Math.ceil(DEGENERATE_BYTES / Buffer.byteLength(phrase)));
        insertMessage(db, { id: 'm1', conversationId: 'c1', seq: 1, turnId: 't1', role: 'assistant', text, status: 'complete', brain: 'kimi', createdAt: SEEDED_AT });
        const appName = 'searchMessages';
        const rawName = 'raw FTS5 MATCH';
        const cases = new Map<string, () => number>([
          [appName, () => searchMessages(db, query, { limit: TOP }).hits.length],
          [rawName, () => db.$client.prepare(raw).all(ftsString(query)).length],
        ]);
        const { samples, failures } = await measureInterleaved(cases, PLAN, (name, hits) => {
          expect(hits, `${name} did not find the reply`).toBe(1);
        });
        expect([...failures].map(([name, error]) => `${name}: ${error.message}`)).toEqual([]);
        const value = median(samples.get(appName)!.wallMs);
        const baseline = median(samples.get(rawName)!.wallMs);
        reportScenario({
          name: `search-degenerate-${label}-${DEGENERATE_BYTES / 1024}kb-vs-raw-match`,
          value,
          baseline,
          unit: 'ms',
          target: `<= ${DEGENERATE_TARGET_RATIO}x`,
          met: value <= baseline * DEGENERATE_TARGET_RATIO,
        });
      } finally {
        closeDatabase(db);
        rmSync(folder, { recursive: true, force: true });
      }
    });
  }
});
