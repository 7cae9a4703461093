import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_LOG_BYTES, takeOverCheckpoints, type Checkpointer, type CheckpointResult } from './checkpointer';
import { openDatabase, type AppDatabase } from './open';

const folders: string[] = [];
const opened: { db: AppDatabase; checkpoints: Checkpointer }[] = [];
afterEach(async () => {
  for (const { db, checkpoints } of opened.splice(0)) {
    await checkpoints.dispose();
    db.$client.close();
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp(afterBytes: number) {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-checkpoints-'));
  folders.push(folder);
  const databasePath = join(folder, 'anybrain.db');
  const db = openDatabase(databasePath);
  const results: CheckpointResult[] = [];
  const checkpoints = takeOverCheckpoints(db, { databasePath, afterBytes, onCheckpoint: (result) => results.push(result) });
  opened.push({ db, checkpoints });
  db.$client.exec('CREATE TABLE filler (text TEXT)');
  const fill = (rows: number) => {
    const insert = db.$client.prepare('INSERT INTO filler VALUES (?)');
    db.$client.transaction(() => {
      for (let row = 0; row < rows; row += 1) insert.run('x'.repeat(1_000));
    })();
  };
  return { db, checkpoints, results, fill, databasePath, logSize: () => statSync(`${databasePath}-wal`).size };
}

describe('checkpoints off the main thread', () => {
  it('leaves the main connection never checkpointing: its log grows past SQLite\u2019s own threshold', () => {
    const { db, fill, logSize } = setUp(Number.MAX_SAFE_INTEGER);
    expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let commit = 0; commit < 10; commit += 1) fill(1_000);
    // Ten commits of about a megabyte: SQLite would have checkpointed and started the log over after the fourth.
    expect(logSize()).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('checkpoints on its worker once the log has grown past the threshold, one at a time, and not below it', async () => {
    const { fill, checkpoints, results } = setUp(1024 * 1024);
    fill(100);
    checkpoints.afterLogSync();
    await checkpoints.settled();
    expect(results).toEqual([]);
    fill(2_000);
    checkpoints.afterLogSync();
    checkpoints.afterLogSync();
    await checkpoints.settled();
    expect(results).toHaveLength(1);
    expect(results[0]!.busy).toBe(0);
    expect(results[0]!.checkpointed).toBe(results[0]!.log);
    expect(results[0]!.log).toBeGreaterThan(256);
  });

  it('asks for no checkpoint after one has copied the log, however large the log file grew', async () => {
    const { fill, checkpoints, results } = setUp(4 * 1024 * 1024);
    fill(8_000);
    checkpoints.afterLogSync();
    await checkpoints.settled();
    expect(results).toHaveLength(1);
    for (let commit = 0; commit < 10; commit += 1) {
      fill(10);
      checkpoints.afterLogSync();
      await checkpoints.settled();
    }
    expect(results).toHaveLength(1);
  });

  it('cuts the log file back once a checkpoint has copied it and the next commit starts it over', async () => {
    const { fill, checkpoints, logSize } = setUp(4 * 1024 * 1024);
    fill(8_000);
    expect(logSize()).toBeGreaterThan(8 * 1024 * 1024);
    checkpoints.afterLogSync();
    await checkpoints.settled();
    fill(10);
    expect(logSize()).toBeLessThanOrEqual(KEPT_LOG_BYTES);
  });

  it("cuts the log to nothing on leaving when another process's reader kept the last checkpoint from copying it all", async () => {
    const { db, fill, checkpoints, results, logSize, databasePath } = setUp(4 * 1024 * 1024);
    fill(2_000);
    // Another process's reader, its snapshot older than the next writes: a PASSIVE checkpoint stops at its mark.
    const reader = new Database(databasePath);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM filler').get();
    fill(6_000);
    checkpoints.afterLogSync();
    await checkpoints.settled();
    expect(results).toHaveLength(1);
    expect(results[0]!.checkpointed).toBeLessThan(results[0]!.log);
    reader.exec('COMMIT');
    // The reader is done, and nothing writes again to start the log over: leaving, the checkpointer cuts it.
    expect(logSize()).toBeGreaterThan(4 * 1024 * 1024);
    await checkpoints.dispose();
    expect(logSize()).toBe(0);
    reader.close();
    expect(db.$client.prepare('SELECT count(*) AS rows FROM filler').get()).toEqual({ rows: 8_000 });
  });

  it('leaves the log as it is on leaving while another connection reads it', async () => {
    const { fill, checkpoints, logSize, databasePath } = setUp(4 * 1024 * 1024);
    fill(6_000);
    const reader = new Database(databasePath);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM filler').get();
    const before = logSize();
    await checkpoints.dispose();
    expect(logSize()).toBe(before);
    reader.exec('COMMIT');
    reader.close();
  });
});
