/**
 * Checkpoints of the write-ahead log, off the main thread. SQLite checkpoints on its own, inside the commit that makes
 * the log reach 1,000 pages, on the thread that commits: it syncs the log, copies it into the database and syncs that,
 * so every few megabytes of writes one commit waited for the disk twice on the main thread, and waited forever on a
 * disk that stopped answering. Here the main connection never checkpoints (`wal_autocheckpoint = 0`); after each sync
 * of the log, a log past `CHECKPOINT_AFTER_BYTES` is checkpointed by a worker thread with a connection of its own
 * (PASSIVE: it never waits for readers or writers, and what it cannot copy now it copies next time).
 *
 * Closing the main connection still checkpoints, as the last connection does: the app is leaving anyway.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { AppDatabase } from './open';

/** SQLite's own threshold: 1,000 pages of 4 KiB. */
export const CHECKPOINT_AFTER_BYTES = 4 * 1024 * 1024;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3Path);
const sqlite = new Database(workerData.databasePath, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
sqlite.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    sqlite.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ type: 'checkpointed', result });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
`;

export interface CheckpointResult {
  /** 1 when another connection held a lock it needed (the next one goes on). */
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

type WorkerAnswer = { readonly type: 'checkpointed'; readonly result: CheckpointResult } | { readonly type: 'failed'; readonly message: string };

export interface Checkpointer {
  /** Checkpoints when the log has grown past the threshold (one checkpoint at a time). */
  afterLogSync(): void;
  /** Settles once a checkpoint under way has ended; the next one is asked for by the caller. */
  readonly settled: () => Promise<void>;
  dispose(): Promise<void>;
}

export interface CheckpointerOptions {
  readonly databasePath: string;
  readonly nativeBinding?: string;
  readonly afterBytes?: number;
  readonly onCheckpoint?: (result: CheckpointResult) => void;
}

/** Takes the connection's checkpoints off its thread: from now on `afterLogSync` decides when one runs. */
export function takeOverCheckpoints(db: AppDatabase, options: CheckpointerOptions): Checkpointer {
  db.$client.pragma('wal_autocheckpoint = 0');
  const afterBytes = options.afterBytes ?? CHECKPOINT_AFTER_BYTES;
  const logPath = `${options.databasePath}-wal`;
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;
  let disposed = false;

  const started = (): Worker => {
    if (worker !== null) return worker;
    const made = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        databasePath: options.databasePath,
        nativeBinding: options.nativeBinding ?? null,
        betterSqlite3Path: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
    made.unref();
    made.on('error', (error) => console.warn(`Anybrain: the checkpoint worker stopped: ${error.message}`));
    made.on('exit', () => {
      if (worker === made) worker = null;
    });
    worker = made;
    return made;
  };

  const logSize = (): number => {
    try {
      return statSync(logPath).size;
    } catch {
      return 0;
    }
  };

  return {
    afterLogSync() {
      if (disposed || running !== null || logSize() < afterBytes) return;
      const checkpointing = started();
      running = new Promise<void>((resolve) => {
        const answered = (answer: WorkerAnswer): void => {
          checkpointing.off('message', answered);
          checkpointing.off('exit', ended);
          if (answer.type === 'checkpointed') options.onCheckpoint?.(answer.result);
          else console.warn(`Anybrain: a checkpoint of the write-ahead log failed: ${answer.message}`);
          resolve();
        };
        const ended = (): void => {
          checkpointing.off('message', answered);
          resolve();
        };
        checkpointing.on('message', answered);
        checkpointing.once('exit', ended);
        checkpointing.postMessage('checkpoint');
      }).finally(() => {
        running = null;
      });
    },
    settled: () => running ?? Promise.resolve(),
    async dispose() {
      disposed = true;
      await running;
      const closing = worker;
      worker = null;
      if (closing === null) return;
      const exited = new Promise<void>((resolve) => closing.once('exit', () => resolve()));
      closing.postMessage('close');
      await exited;
    },
  };
}
