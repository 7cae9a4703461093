import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitSyncingInBackground, syncFileToDisk, useFileSyncFor, WriteAheadLogSync } from './log-sync';
import { openDatabase, type AppDatabase } from './open';
import { openTestDatabase } from './test-database';
import { heldFileSyncs } from './testing/held-file-syncs';

const folders: string[] = [];
const opened: AppDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.$client.open) db.$client.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function databaseOnDisk(): { db: AppDatabase; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-log-sync-'));
  folders.push(folder);
  const path = join(folder, 'anybrain.db');
  const db = openDatabase(path);
  opened.push(db);
  return { db, path };
}

const SAFETY_LEVEL_NORMAL = 1;

describe('commitSyncingInBackground', () => {
  it('commits at the safety level that does not sync on this thread, then syncs the log of that database', async () => {
    const { db, path } = databaseOnDisk();
    const syncs = heldFileSyncs();
    useFileSyncFor(db, syncs.syncFile);
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    let levelInside = 0;
    const commit = commitSyncingInBackground(db, () => {
      levelInside = db.$client.pragma('synchronous', { simple: true }) as number;
      db.$client.prepare('INSERT INTO notes VALUES (?)').run('kept');
      return 'written';
    });
    expect(commit.result).toBe('written');
    expect(levelInside).toBe(SAFETY_LEVEL_NORMAL);
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(SAFETY_LEVEL_NORMAL);
    expect(syncs.paths).toEqual([`${path}-wal`]);
    let durable = false;
    void commit.durable.then(() => (durable = true));
    await Promise.resolve();
    expect(durable).toBe(false);
    await syncs.finishNext();
    expect(durable).toBe(true);
    expect(db.$client.prepare('SELECT text FROM notes').pluck().all()).toEqual(['kept']);
  });

  it('rolls back a failed transaction and syncs nothing', () => {
    const { db } = databaseOnDisk();
    const syncs = heldFileSyncs();
    useFileSyncFor(db, syncs.syncFile);
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    expect(() =>
      commitSyncingInBackground(db, () => {
        db.$client.prepare('INSERT INTO notes VALUES (?)').run('lost');
        throw new Error('the disk is full');
      }),
    ).toThrow('the disk is full');
    expect(db.$client.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(0);
    expect(syncs.paths).toEqual([]);
  });

  it('inside an open transaction joins it: the outer commit decides, and nothing is synced separately', async () => {
    const { db } = databaseOnDisk();
    const syncs = heldFileSyncs();
    useFileSyncFor(db, syncs.syncFile);
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    const outer = db.$client.transaction(() => {
      return commitSyncingInBackground(db, () => db.$client.prepare('INSERT INTO notes VALUES (?)').run('joined').changes);
    })();
    expect(outer.result).toBe(1);
    await expect(outer.durable).resolves.toBeUndefined();
    expect(syncs.paths).toEqual([]);
  });

  it('has nothing to sync for a database in memory', async () => {
    const db = openTestDatabase();
    opened.push(db);
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    const commit = commitSyncingInBackground(db, () => db.$client.prepare('INSERT INTO notes VALUES (?)').run('here').changes);
    expect(commit.result).toBe(1);
    await expect(commit.durable).resolves.toBeUndefined();
  });

  it('syncs the real log file, and a log removed by the last connection closing is nothing left to sync', async () => {
    const { db, path } = databaseOnDisk();
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    const commit = commitSyncingInBackground(db, () => db.$client.prepare('INSERT INTO notes VALUES (?)').run('on disk').changes);
    expect(existsSync(`${path}-wal`)).toBe(true);
    await expect(commit.durable).resolves.toBeUndefined();
    db.$client.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    await expect(syncFileToDisk(`${path}-wal`)).resolves.toBeUndefined();
  });

  it('passes on a sync the disk refused', async () => {
    const { db } = databaseOnDisk();
    const syncs = heldFileSyncs();
    useFileSyncFor(db, syncs.syncFile);
    db.$client.exec('CREATE TABLE notes (text TEXT)');
    const commit = commitSyncingInBackground(db, () => db.$client.prepare('INSERT INTO notes VALUES (?)').run('unsynced').changes);
    const outcome = commit.durable.then(
      () => 'durable',
      (error: Error) => error.message,
    );
    await syncs.finishNext(new Error('EIO: i/o error, fsync'));
    await expect(outcome).resolves.toBe('EIO: i/o error, fsync');
  });
});

describe('WriteAheadLogSync', () => {
  it('runs one sync at a time; the commits made while one runs share a single sync queued behind it', async () => {
    const syncs = heldFileSyncs();
    const logSync = new WriteAheadLogSync('/data/anybrain.db-wal', syncs.syncFile);
    const settled: string[] = [];
    const track = (name: string, sync: Promise<void>) =>
      void sync.then(
        () => settled.push(name),
        (error: Error) => settled.push(`${name}: ${error.message}`),
      );
    track('first', logSync.request());
    track('second', logSync.request());
    track('third', logSync.request());
    expect(syncs.paths).toHaveLength(1);
    await syncs.finishNext();
    // The first sync may have started before the second and third commits wrote: they wait for the next one.
    expect(settled).toEqual(['first']);
    expect(syncs.paths).toHaveLength(2);
    track('fourth', logSync.request());
    await syncs.finishNext(new Error('EIO'));
    expect(settled).toEqual(['first', 'second: EIO', 'third: EIO']);
    // A refused sync does not stop the queue: the fourth commit gets a sync of its own.
    expect(syncs.paths).toHaveLength(3);
    await syncs.finishNext();
    expect(settled).toEqual(['first', 'second: EIO', 'third: EIO', 'fourth']);
    track('fifth', logSync.request());
    expect(syncs.paths).toHaveLength(4);
    await syncs.finishNext();
    expect(settled.at(-1)).toBe('fifth');
  });

  it('resolves at once when the database has no log on disk', async () => {
    const syncs = heldFileSyncs();
    const logSync = new WriteAheadLogSync(null, syncs.syncFile);
    await expect(logSync.request()).resolves.toBeUndefined();
    expect(syncs.paths).toEqual([]);
  });
});
