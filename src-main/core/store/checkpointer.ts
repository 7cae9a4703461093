/**
 * Checkpoints of the write-ahead log, off the main thread. SQLite checkpoints on its own, inside the commit that makes
 * the log reach 1,000 pages, on the thread that commits: it syncs the log, copies it into the database and syncs that,
 * so every few megabytes of writes one commit waited for the disk twice on the main thread, and waited forever on a
 * disk that stopped answering. Here the main connection never checkpoints (`wal_autocheckpoint = 0`); after each sync
 * of the log, a log file past `CHECKPOINT_AFTER_BYTES` (SQLite's 1,000 pages of 4 KiB) is checkpointed by a worker
 * thread with a connection of its own (PASSIVE: it never waits for readers or writers, and what it cannot copy now it
 * copies next time). Once a checkpoint has copied the whole log, the next commit starts the log over and
 * `journal_size_limit` cuts the file back, so its size says what the log holds: without that it never shrank, and
 * past the first 4 MiB every sync asked for a checkpoint.
 *
 * Nothing here opens SQLite's `-shm` file to read its count: POSIX file locks belong to a process, and closing any
 * descriptor of a file drops every lock the process holds on it, SQLite's included. Another process then took the
 * wal-index for its own, truncated it, and this one died of SIGBUS reading its mapping.
 *
 * Closing the main connection still checkpoints, as the last connection does: the app is leaving anyway.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AppDatabase } from './open';
import { startJobWorker } from '../workers/job-worker';

/** SQLite's own threshold (`wal_autocheckpoint`'s default): 1,000 pages of 4 KiB. */
export const CHECKPOINT_AFTER_BYTES = 4 * 1024 * 1024;

/**
 * Once a checkpoint has copied the whole log, the next commit starts the log over from its beginning, but SQLite keeps
 * the file at its largest size unless told a limit: past it, the file is cut back to what it holds.
 */
export const KEPT_LOG_BYTES = 1024 * 1024;

// Leaving, a log still past the threshold is copied and cut to nothing if no other connection reads or writes it at
// that moment (busy_timeout 0: TRUNCATE would otherwise wait for them). A PASSIVE checkpoint that met another process's
// reader copied only part of the log, and only a later write starts it over: without this, the last command to write
// left the file at its largest until some other process wrote again.
const WORKER_PROGRAM = `
const { statSync } = require('node:fs');
const Database = require(workerData.betterSqlite3Path);
const sqlite = new Database(workerData.databasePath, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('journal_size_limit = ${KEPT_LOG_BYTES}');
function answerJob() {
  return sqlite.pragma('wal_checkpoint(PASSIVE)')[0];
}
function logSize() {
  try {
    return statSync(workerData.databasePath + '-wal').size;
  } catch {
    return 0;
  }
}
function closeWorker() {
  if (logSize() >= workerData.afterBytes) {
    sqlite.pragma('busy_timeout = 0');
    try {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Busy: the log stays as it is, for the next checkpoint of whoever writes next.
    }
  }
  sqlite.close();
}
`;

export interface CheckpointResult {
  /** 1 when another connection held a lock it needed (the next one goes on). */
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

export interface Checkpointer {
  /**
   * Checkpoints when the log file has grown past the threshold (one checkpoint at a time); answers the checkpoint it
   * started (settling when it has ended, whichever way), or null.
   */
  afterLogSync(): Promise<void> | null;
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
  // The connection that starts the log over is the one that writes next: this one.
  db.$client.pragma(`journal_size_limit = ${KEPT_LOG_BYTES}`);
  const afterBytes = options.afterBytes ?? CHECKPOINT_AFTER_BYTES;
  const logPath = `${options.databasePath}-wal`;
  const logSize = (): number => {
    try {
      return statSync(logPath).size;
    } catch {
      return 0;
    }
  };
  const worker = startJobWorker<'checkpoint', CheckpointResult>({
    name: 'the checkpoint worker',
    source: WORKER_PROGRAM,
    workerData: {
      databasePath: options.databasePath,
      afterBytes,
      nativeBinding: options.nativeBinding ?? null,
      betterSqlite3Path: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  let running: Promise<void> | null = null;
  let disposed = false;

  return {
    afterLogSync() {
      if (disposed || running !== null || logSize() < afterBytes) return null;
      running = worker
        .run('checkpoint')
        .then(
          (result) => options.onCheckpoint?.(result),
          (error: unknown) => console.warn(`Anybrain: a checkpoint of the write-ahead log failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => {
          running = null;
        });
      return running;
    },
    settled: () => running ?? Promise.resolve(),
    async dispose() {
      disposed = true;
      await worker.close();
      await running;
    },
  };
}
