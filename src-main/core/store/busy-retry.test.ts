import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN_THREAD_BUSY_WAIT_MS, stopWaitingForTheWriteLock, writeWhenNotBusy } from './busy-retry';
import { inTransaction, openDatabase, type AppDatabase } from './open';
import { holdWriteLock } from './testing/held-write-lock';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function openStore(): { db: AppDatabase; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-busy-retry-'));
  const path = join(folder, 'anybrain.db');
  const db = openDatabase(path);
  stopWaitingForTheWriteLock(db);
  db.$client.exec('CREATE TABLE notes (text TEXT)');
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }), () => db.$client.close());
  return { db, path };
}

const addNote = (db: AppDatabase, text: string) => () => inTransaction(db, () => db.$client.prepare('INSERT INTO notes VALUES (?)').run(text).changes);
const notes = (db: AppDatabase) => db.$client.prepare('SELECT text FROM notes').pluck().all();

describe('writes that find the data folder busy', () => {
  it('wait only a few milliseconds on this thread once the store is open', () => {
    const { db } = openStore();
    expect(db.$client.pragma('busy_timeout', { simple: true })).toBe(MAIN_THREAD_BUSY_WAIT_MS);
  });

  it('are tried again on a timer and stored once the other writer lets go, with the loop turning meanwhile', async () => {
    const { db, path } = openStore();
    const other = holdWriteLock(path, 600);
    await other.held;
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 20);
    try {
      await expect(writeWhenNotBusy(addNote(db, 'kept'), 5_000)).resolves.toBe(1);
    } finally {
      clearInterval(ticking);
    }
    await other.released;
    expect(notes(db)).toEqual(['kept']);
    // The loop went on turning while the write waited for about 600 ms.
    expect(ticks).toBeGreaterThan(5);
  });

  it('answer the busy refusal once the budget is spent, having written nothing', async () => {
    const { db, path } = openStore();
    const other = holdWriteLock(path, 1_500);
    await other.held;
    await expect(writeWhenNotBusy(addNote(db, 'never'), 200)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    await other.released;
    expect(notes(db)).toEqual([]);
  });

  it('pass other refusals on at once, untried', async () => {
    const { db } = openStore();
    let attempts = 0;
    const refused = () => {
      attempts += 1;
      return db.$client.prepare('INSERT INTO missing VALUES (1)').run();
    };
    await expect(writeWhenNotBusy(refused, 5_000)).rejects.toThrow('no such table: missing');
    expect(attempts).toBe(1);
  });

  it('never wait for a reader: a write goes through while another connection reads', async () => {
    const { db, path } = openStore();
    const reader = new Database(path, { readonly: true });
    cleanups.push(() => reader.close());
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM notes').get();
    await expect(writeWhenNotBusy(addNote(db, 'beside a reader'), 0)).resolves.toBe(1);
    reader.exec('COMMIT');
  });
});
