import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEARCH_MARK_END as END, SEARCH_MARK_START as START } from '../../../src-shared/search';
import { deleteConversation, insertConversation } from './conversations';
import { checkpointMessageText, finishMessage, insertMessage } from './messages';
import { migrationsBefore } from './migrations';
import { openDatabase, type AppDatabase } from './open';
import { replaceMessageTextIfUnchanged } from './repairs';
import { backfillSettings, indexRowsWrittenBeforeSearch, startSearchBackfill } from './search-backfill';
import { ftsMatchExpression, searchMessages, searchTerms } from './search';
import { openTestDatabase } from './test-database';

const NOW = '2026-12-01T10:00:00.000Z';

const folders: string[] = [];
function tempDatabasePath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-search-'));
  folders.push(folder);
  return join(folder, 'anybrain.db');
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Above the seqs the older databases below are seeded with.
let nextSeq = 1_000_000;
function addMessage(
  db: AppDatabase,
  conversationId: string,
  text: string,
  fields: { role?: 'user' | 'assistant' | 'system'; status?: 'complete' | 'streaming' | 'failed'; id?: string; createdAt?: string } = {},
): string {
  nextSeq += 1;
  const id = fields.id ?? `m${nextSeq}`;
  insertMessage(db, {
    id,
    conversationId,
    seq: nextSeq,
    turnId: `t${nextSeq}`,
    role: fields.role ?? 'assistant',
    text,
    status: fields.status ?? 'complete',
    brain: (fields.role ?? 'assistant') === 'assistant' ? 'kimi' : null,
    createdAt: fields.createdAt ?? NOW,
  });
  return id;
}

function setup(): AppDatabase {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'Ocean notes', brain: 'kimi', model: null, now: NOW });
  return db;
}

const hitIds = (db: AppDatabase, query: string) => searchMessages(db, query).hits.map((hit) => hit.messageId ?? `title:${hit.conversationId}`);
// The index reads its texts from `messages`; its docsize table holds one row per message it indexed.
const indexedRowids = (db: AppDatabase) => db.$client.prepare('SELECT id FROM messages_fts_docsize ORDER BY id').pluck().all();
const indexedCount = (db: AppDatabase) => db.$client.prepare('SELECT count(*) FROM messages_fts_docsize').pluck().get();

describe('searchMessages', () => {
  it('finds a word that is only in a reply, with who said it and a marked snippet', () => {
    const db = setup();
    addMessage(db, 'c1', 'Tell me about whales', { role: 'user', id: 'u1' });
    addMessage(db, 'c1', 'The blue whale is the largest animal; its song carries for hundreds of kilometres.', { id: 'a1' });
    expect(searchMessages(db, 'largest')).toEqual({
      hits: [
        {
          conversationId: 'c1',
          conversationTitle: 'Ocean notes',
          messageId: 'a1',
          role: 'assistant',
          brain: 'kimi',
          snippet: `The blue whale is the ${START}largest${END} animal; its song carries for hundreds of kilometres.`,
          createdAt: NOW,
          offBranch: false,
        },
      ],
      indexing: null,
    });
  });

  it('says when a hit is on a branch the conversation does not show', () => {
    const db = setup();
    addMessage(db, 'c1', 'Tell me about whales', { role: 'user', id: 'u1' });
    addMessage(db, 'c1', 'Humpback whales sing', { id: 'a1' });
    // A second reply beside the first becomes the branch shown.
    insertMessage(db, { id: 'a2', conversationId: 'c1', seq: 5_000_000, turnId: 't2', role: 'assistant', text: 'Blue whales sing', status: 'complete', parentId: 'u1', createdAt: NOW });
    const hits = searchMessages(db, 'sing').hits.map((hit) => [hit.messageId, hit.offBranch]);
    expect(hits.sort()).toEqual([
      ['a1', true],
      ['a2', false],
    ]);
  });

  it('lists a conversation whose title matches first, its title marked, then the messages', () => {
    const db = setup();
    insertConversation(db, { id: 'c2', title: 'Whale songs', brain: null, model: null, now: NOW });
    addMessage(db, 'c1', 'A whale surfaced.', { id: 'a1' });
    const { hits } = searchMessages(db, 'whale');
    expect(hits.map((hit) => [hit.conversationId, hit.messageId, hit.role, hit.snippet])).toEqual([
      ['c2', null, null, `${START}Whale${END} songs`],
      ['c1', 'a1', 'assistant', `A ${START}whale${END} surfaced.`],
    ]);
  });

  it('matches the last term as a prefix, every term required, accents ignored', () => {
    const db = setup();
    addMessage(db, 'c1', 'Crème brûlée needs a blowtorch', { id: 'a1' });
    addMessage(db, 'c1', 'A blowtorch for welding', { id: 'a2' });
    expect(hitIds(db, 'creme brulee blowt')).toEqual(['a1']);
    expect(hitIds(db, 'blowto')).toEqual(expect.arrayContaining(['a1', 'a2']));
    expect(hitIds(db, 'welding creme')).toEqual([]);
  });

  it('ranks by bm25: the message the terms weigh most in comes first', () => {
    const db = setup();
    addMessage(db, 'c1', `Once, in passing, a kestrel. ${'Then a long digression about the weather and other matters. '.repeat(20)}`, { id: 'long' });
    addMessage(db, 'c1', 'Kestrel facts: a kestrel hovers; the kestrel hunts voles.', { id: 'dense' });
    expect(hitIds(db, 'kestrel')).toEqual(['dense', 'long']);
  });

  it('never lets input become FTS5 syntax: operators, quotes, stars and parentheses are words or dropped', () => {
    const db = setup();
    addMessage(db, 'c1', 'Rock AND roll, not near the "quoted" part (really)', { id: 'a1' });
    const inputs = [
      '"', '""', 'a"b', '"quoted', 'AND', 'OR', 'NOT', 'AND OR NOT', '*', 'rock*', '-rock', 'rock -', '(', ')', '(rock',
      'roll)', 'NEAR(rock roll)', 'text:rock', '^rock', "'", '\\', '%', '_', '+', ':', '{text}: rock', 'rock AND', '   ',
      '서울 %', '서 "(', '北京*', '北京 AND "x', '서울에서 _ NEAR(',
    ];
    for (const input of inputs) expect(() => searchMessages(db, input), input).not.toThrow();
    expect(hitIds(db, 'AND')).toEqual(['a1']);
    expect(hitIds(db, '"quoted')).toEqual(['a1']);
    // Two phrases, "near rock" and "roll": the text has no "near rock".
    expect(hitIds(db, 'NEAR(rock roll)')).toEqual([]);
    expect(hitIds(db, 'NEAR(the roll)')).toEqual(['a1']);
    expect(hitIds(db, '(really')).toEqual(['a1']);
    expect(hitIds(db, '-rock')).toEqual(['a1']);
    expect(searchMessages(db, '*').hits).toEqual([]);
  });

  it('quotes each term, doubling quotes inside, and prefixes only the last', () => {
    expect(searchTerms('  say "hi"  ( - * foo)bar ')).toEqual(['say', '"hi"', 'foo)bar']);
    expect(ftsMatchExpression(['say', '"hi"', 'foo)bar'])).toBe('"say" """hi""" "foo)bar"*');
  });

  it('finds a Hangul word inside a sentence, particles attached, and Chinese inside a run', () => {
    const db = setup();
    addMessage(db, 'c1', '오늘 서울에서 친구를 만났어요. 날씨가 좋았어요!', { id: 'ko' });
    addMessage(db, 'c1', '我们明天去北京吃烤鸭。', { id: 'zh' });
    addMessage(db, 'c1', 'Seoul trip: 서울 is lovely', { id: 'mixed' });
    expect(hitIds(db, '서울')).toEqual(expect.arrayContaining(['ko', 'mixed']));
    expect(hitIds(db, '서울')).toHaveLength(2);
    expect(hitIds(db, '친구를 만났')).toEqual(['ko']);
    expect(hitIds(db, '北京')).toEqual(['zh']);
    expect(hitIds(db, '去北京吃')).toEqual(['zh']);
    expect(hitIds(db, '서울 lovely')).toEqual(['mixed']);
    expect(searchMessages(db, '서울에서').hits[0]?.snippet).toBe(`오늘 ${START}서울에서${END} 친구를 만났어요. 날씨가 좋았어요!`);
  });

  it('keeps emoji whole in a snippet and finds the words around them', () => {
    const db = setup();
    addMessage(db, 'c1', 'Launch day 🚀🎉 went well', { id: 'a1' });
    expect(searchMessages(db, 'launch').hits[0]?.snippet).toBe(`${START}Launch${END} day 🚀🎉 went well`);
    expect(hitIds(db, 'went')).toEqual(['a1']);
    expect(searchMessages(db, '🚀').hits).toEqual([]);
  });
});

describe('the index triggers', () => {
  it('leave a streaming reply out of the index through every checkpoint, and index it when it finishes', () => {
    const db = setup();
    const id = addMessage(db, 'c1', '', { status: 'streaming' });
    const changesBefore = db.$client.prepare("SELECT count(*) FROM messages_fts_data").pluck().get();
    checkpointMessageText(db, id, 'Partial narwhal', NOW);
    checkpointMessageText(db, id, 'Partial narwhal facts', NOW);
    // Not one write reached the index: its data table is as it was.
    expect(db.$client.prepare("SELECT count(*) FROM messages_fts_data").pluck().get()).toBe(changesBefore);
    expect(indexedRowids(db)).toEqual([]);
    expect(hitIds(db, 'narwhal')).toEqual([]);
    // A row the index leaves out is no damage to it: SQLite's check of the file (`doctor`) passes.
    expect(db.$client.pragma('integrity_check', { simple: true })).toBe('ok');
    finishMessage(db, id, {
      text: 'Narwhal facts, complete.',
      status: 'complete',
      error: null,
      modelResponded: null,
      reasoning: null,
      usage: null,
      tokenEstimate: 6,
      now: NOW,
    });
    expect(hitIds(db, 'narwhal')).toEqual([id]);
    expect(hitIds(db, 'partial')).toEqual([]);
  });

  it('reindex a finished text that changes (a repair) and remove deleted rows, one by one or with their conversation', () => {
    const db = setup();
    const id = addMessage(db, 'c1', 'He said \\"hello\\" to the otter');
    expect(replaceMessageTextIfUnchanged(db, id, 'He said \\"hello\\" to the otter', 'He said "hello" to the beaver', NOW)).toBe(true);
    expect(hitIds(db, 'otter')).toEqual([]);
    expect(hitIds(db, 'beaver')).toEqual([id]);
    const other = addMessage(db, 'c1', 'A second beaver');
    db.$client.prepare('DELETE FROM messages WHERE id = ?').run(other);
    expect(hitIds(db, 'beaver')).toEqual([id]);
    addMessage(db, 'c1', '서울 beaver');
    deleteConversation(db, 'c1');
    expect(indexedRowids(db)).toEqual([]);
    db.$client.prepare("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')").run();
    expect(db.$client.prepare('SELECT count(*) FROM messages_cjk_fts').pluck().get()).toBe(0);
  });

  it('take a row that goes back to streaming out of the index', () => {
    const db = setup();
    const id = addMessage(db, 'c1', 'Stale walrus');
    db.$client.prepare("UPDATE messages SET status = 'streaming' WHERE id = ?").run(id);
    expect(hitIds(db, 'walrus')).toEqual([]);
  });
});

describe('migration 0006 and the backfill', () => {
  function olderDatabaseWithMessages(path: string, count: number): void {
    const older = openDatabase(path, { migrations: migrationsBefore('0006_messages_fts') });
    const sqlite = older.$client;
    sqlite.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Old talk', ?, ?)").run(NOW, NOW);
    const insert = sqlite.prepare(
      "INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, created_at, updated_at) VALUES (?, 'c1', ?, ?, ?, ?, ?, ?, ?)",
    );
    sqlite.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        insert.run(`m${String(index).padStart(6, '0')}`, index, `t${index}`, index % 2 === 0 ? 'user' : 'assistant', `message ${index} about puffin number${index}`, 'complete', NOW, NOW);
      }
      insert.run('streaming', count, 'ts', 'assistant', 'half written albatross', 'streaming', NOW, NOW);
      insert.run('hangul', count + 1, 'th', 'assistant', '부산에서 만나요', 'complete', NOW, NOW);
    })();
    sqlite.close();
  }

  it('migrates N-1 to N fast, leaving existing rows to the backfill, which indexes every finished row and no streaming one', () => {
    const path = tempDatabasePath();
    olderDatabaseWithMessages(path, 5000);
    const db = openDatabase(path);
    expect(db.$client.prepare('SELECT done_through_rowid, through_rowid FROM search_backfill').get()).toEqual({ done_through_rowid: 0, through_rowid: 5002 });
    expect(searchMessages(db, 'puffin')).toEqual({ hits: [], indexing: { percent: 0 } });
    const progress: number[] = [];
    const indexed = indexRowsWrittenBeforeSearch(db.$client, backfillSettings(2000, 0), (percent) => progress.push(percent));
    expect(indexed).toBe(5001);
    expect(progress).toEqual([39, 79, 100]);
    expect(searchMessages(db, 'number4999').hits.map((hit) => [hit.messageId, hit.conversationTitle])).toEqual([['m004999', 'Old talk']]);
    expect(hitIds(db, '부산')).toEqual(['hangul']);
    expect(hitIds(db, 'albatross')).toEqual([]);
    expect(searchMessages(db, 'x').indexing).toBeNull();
    // The interrupted reply is finished later (or marked interrupted): then it is indexed.
    db.$client.prepare("UPDATE messages SET status = 'interrupted' WHERE id = 'streaming'").run();
    expect(hitIds(db, 'albatross')).toEqual(['streaming']);
    db.$client.close();
  });

  it('leaves a row the backfill has not reached to the backfill, even when it is edited or deleted meanwhile', () => {
    const path = tempDatabasePath();
    olderDatabaseWithMessages(path, 10);
    const db = openDatabase(path);
    db.$client.prepare("UPDATE messages SET text = 'edited puffin' WHERE id = 'm000003'").run();
    db.$client.prepare("DELETE FROM messages WHERE id = 'm000005'").run();
    expect(indexedCount(db)).toBe(0);
    expect(indexRowsWrittenBeforeSearch(db.$client, backfillSettings(4, 0), () => {})).toBe(10);
    expect(hitIds(db, 'edited')).toEqual(['m000003']);
    expect(hitIds(db, 'number5')).toEqual([]);
    expect(indexedCount(db)).toBe(10);
    // The index is sound (FTS5's own check of its structure), and SQLite's check of the file, which `doctor` runs, passes.
    db.$client.prepare("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')").run();
    expect(db.$client.pragma('integrity_check', { simple: true })).toBe('ok');
    db.$client.close();
  });

  it('runs in a worker with its own connection, reporting progress, while the window keeps writing', async () => {
    const path = tempDatabasePath();
    olderDatabaseWithMessages(path, 3000);
    const db = openDatabase(path);
    const progress: number[] = [];
    const backfill = startSearchBackfill({ databasePath: path, batchRows: 500, onProgress: (percent) => progress.push(percent) });
    addMessage(db, 'c1', 'written during the backfill: gannet', { id: 'during' });
    expect(await backfill.finished).toBe(3001);
    expect(progress.at(-1)).toBe(100);
    expect(progress.length).toBeGreaterThan(2);
    expect(hitIds(db, 'number2999')).toEqual(['m002999']);
    expect(hitIds(db, 'gannet')).toEqual(['during']);
    expect(searchMessages(db, 'x').indexing).toBeNull();
    db.$client.close();
  });

  it('stops when asked, keeping the batches it committed, and the next run resumes from there', async () => {
    const path = tempDatabasePath();
    olderDatabaseWithMessages(path, 3000);
    const db = openDatabase(path);
    let stopRequested: Promise<void> | null = null;
    const first = startSearchBackfill({
      databasePath: path,
      batchRows: 100,
      pauseMs: 50,
      onProgress: () => {
        stopRequested ??= first.stop();
      },
    });
    expect(await first.finished).toBeNull();
    await stopRequested;
    const marker = db.$client.prepare('SELECT done_through_rowid AS done FROM search_backfill').get() as { done: number };
    expect(marker.done).toBeGreaterThan(0);
    expect(marker.done).toBeLessThan(3002);
    expect(indexedCount(db)).toBe(marker.done);
    expect(searchMessages(db, 'x').indexing).toEqual({ percent: Math.floor((marker.done / 3002) * 100) });
    const second = startSearchBackfill({ databasePath: path, pauseMs: 0 });
    expect(await second.finished).toBe(3001 - marker.done);
    expect(indexedCount(db)).toBe(3001);
    db.$client.close();
  });

  it('opens a new database with nothing to backfill', () => {
    const db = openTestDatabase();
    expect(db.$client.prepare('SELECT count(*) FROM search_backfill').pluck().get()).toBe(0);
  });
});
