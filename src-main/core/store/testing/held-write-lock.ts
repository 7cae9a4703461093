/**
 * Another writer on the data folder, as a second Anybrain, the command line or a backup tool would be: a connection on
 * a thread of its own that takes the write lock (BEGIN IMMEDIATE) and keeps it for a while, whatever the main thread
 * is doing meanwhile.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface HeldWriteLock {
  /** Resolves once the other connection holds the lock. */
  readonly held: Promise<void>;
  /** Resolves once it has let go of the lock and closed. */
  readonly released: Promise<void>;
}

const HOLDER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3Path);
const sqlite = new Database(workerData.databasePath);
sqlite.exec('BEGIN IMMEDIATE');
parentPort.postMessage('held');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
sqlite.exec('ROLLBACK');
sqlite.close();
`;

/** Holds the write lock of the database at `databasePath` for `holdMs` from a connection on another thread. */
export function holdWriteLock(databasePath: string, holdMs: number): HeldWriteLock {
  const worker = new Worker(HOLDER_SOURCE, {
    eval: true,
    workerData: { databasePath, holdMs, betterSqlite3Path: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  const held = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const released = new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the lock holder exited with code ${code}`))));
  });
  return { held, released };
}
