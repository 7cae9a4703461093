/**
 * Upgrading a 100,000-message database to the search index (migration 0006): how long the migration holds the
 * window (it only records what to index), how long the worker takes to index every row written before it, how long
 * the window waits for one of its own writes while the worker runs, and how long a search takes afterwards.
 *
 * This file reports; it never fails on time (the machine is shared and noisy). Its assertions are about behaviour:
 * every finished row is indexed, and a search finds a word from the last one.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsBefore } from '../../src-main/core/store/migrations';
import { openDatabase } from '../../src-main/core/store/open';
import { searchIndexingProgress, searchMessages } from '../../src-main/core/store/search';
import { startSearchBackfill } from '../../src-main/core/store/search-backfill';
import { lapsedMessage, WaitLapsedError } from '../support/bounded-wait';
import { isSmokeRun } from '../support/scenario-line';

/** The smoke run (`ANYBRAIN_BENCH_SMOKE=1`) upgrades 1,000 messages. */
const MESSAGES = isSmokeRun() ? 1_000 : 100_000;
const NOW = '2026-12-01T10:00:00.000Z';
/** The worker indexing 100,000 rows (15.5 s in bench/RESULTS.md), on a loaded two-core machine; inside the test's 300 s. */
const BACKFILL_BOUND_MS = 180_000;
const WORDS = (
  'the a of to and in that is for it with as was on be at by this had not are but from or have an they which one you ' +
  'were her all she there would their we him been has when who will more no if out so said what up its about into ' +
  'than them can only other new some could time these two may then do first any my now such like our over man me ' +
  'even most made after also did many before must through back years where much your way well down should because ' +
  'database migration window worker index search message conversation brain reply stream token function variable'
).split(' ');

/** A reply of 40 to 200 words (about 250 to 1,200 characters), a tenth of them in Hangul, every one unique by its number. */
function messageText(index: number): string {
  const length = 40 + ((index * 7919) % 160);
  const words: string[] = [];
  for (let position = 0; position < length; position += 1) words.push(WORDS[(index * 31 + position * 17) % WORDS.length]!);
  if (index % 10 === 0) words.push('서울에서', '친구를', '만났어요');
  words.push(`marker${index}`);
  return words.join(' ');
}

const folder = mkdtempSync(join(tmpdir(), 'anybrain-search-bench-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe(`search backfill of ${MESSAGES.toLocaleString('en')} messages`, () => {
  it('migrates at once and indexes in a worker', async () => {
    const path = join(folder, 'anybrain.db');
    const older = openDatabase(path, { migrations: migrationsBefore('0006_messages_fts') });
    const insert = older.$client.prepare(
      "INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'complete', ?, ?)",
    );
    const insertConversation = older.$client.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)');
    let characters = 0;
    older.$client.transaction(() => {
      for (let conversation = 0; conversation < MESSAGES / 100; conversation += 1) {
        insertConversation.run(`c${conversation}`, `Conversation ${conversation}`, NOW, NOW);
      }
      for (let index = 0; index < MESSAGES; index += 1) {
        const text = messageText(index);
        characters += text.length;
        insert.run(`m${String(index).padStart(7, '0')}`, `c${Math.floor(index / 100)}`, index % 100, `t${index}`, index % 2 === 0 ? 'user' : 'assistant', text, NOW, NOW);
      }
    })();
    older.$client.pragma('wal_checkpoint(TRUNCATE)');
    older.$client.close();
    const bytesBefore = statSync(path).size;

    // The migration runs inside openDatabase, after a pre-migration copy of the file (VACUUM INTO).
    const openStarted = performance.now();
    const db = openDatabase(path);
    const openMs = performance.now() - openStarted;

    const backfillStarted = performance.now();
    const backfill = startSearchBackfill({ databasePath: path });
    // The window keeps writing while the worker indexes: time each of its writes.
    const writeWaits: number[] = [];
    const insertDuring = db.$client.prepare(
      "INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, created_at, updated_at) VALUES (?, 'c0', ?, ?, 'user', 'written meanwhile', 'complete', ?, ?)",
    );
    let done = false;
    void backfill.finished.finally(() => {
      done = true;
    });
    let seq = 1000;
    while (!done) {
      // Checked between two timed writes, never inside one.
      if (performance.now() - backfillStarted > BACKFILL_BOUND_MS) {
        const progress = searchIndexingProgress(db);
        await backfill.stop();
        throw new WaitLapsedError(
          lapsedMessage(
            'the search backfill worker never finished',
            BACKFILL_BOUND_MS,
            `${writeWaits.length} window writes were made meanwhile; the index marker said ${progress === null ? 'done' : `${progress.percent}%`} (stopped the worker)`,
          ),
        );
      }
      const started = performance.now();
      insertDuring.run(`w${seq}`, seq, `tw${seq}`, NOW, NOW);
      writeWaits.push(performance.now() - started);
      seq += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const indexed = await backfill.finished;
    const backfillMs = performance.now() - backfillStarted;

    const searchStarted = performance.now();
    const found = searchMessages(db, `marker${MESSAGES - 1}`);
    const searchMs = performance.now() - searchStarted;
    const commonStarted = performance.now();
    searchMessages(db, 'database worker');
    const commonMs = performance.now() - commonStarted;
    const hangulStarted = performance.now();
    const hangul = searchMessages(db, '서울');
    const hangulMs = performance.now() - hangulStarted;
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
    const bytesAfter = statSync(path).size;
    const sortedWaits = [...writeWaits].sort((left, right) => left - right);

    console.log(
      [
        `messages: ${MESSAGES.toLocaleString('en')} (${(characters / 1e6).toFixed(1)} M characters)`,
        `open with migration 0006 (pre-migration copy included): ${openMs.toFixed(0)} ms`,
        `backfill in the worker: ${backfillMs.toFixed(0)} ms (${(indexed ?? 0).toLocaleString('en')} rows)`,
        `window writes during the backfill: ${writeWaits.length}, median ${sortedWaits[Math.floor(sortedWaits.length / 2)]?.toFixed(1)} ms, max ${sortedWaits.at(-1)?.toFixed(1)} ms`,
        `database file: ${(bytesBefore / 1e6).toFixed(0)} MB before, ${(bytesAfter / 1e6).toFixed(0)} MB with the index`,
        `search for a rare word: ${searchMs.toFixed(1)} ms; for two common words: ${commonMs.toFixed(1)} ms; Hangul (trigram, 2 characters): ${hangulMs.toFixed(1)} ms`,
      ].join('\n'),
    );
    expect(indexed).toBe(MESSAGES);
    expect(found.hits.map((hit) => hit.messageId)).toEqual([`m${String(MESSAGES - 1).padStart(7, '0')}`]);
    expect(hangul.hits.length).toBeGreaterThan(0);
    db.$client.close();
  });
});
