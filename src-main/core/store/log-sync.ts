/**
 * Commits never wait for the disk on the thread that makes them; the write-ahead log is synced on libuv's thread pool.
 *
 * The store runs WAL with `synchronous = NORMAL` (store/open.ts): a commit writes the log and returns, and the
 * database stays consistent through a power cut, though the newest commits may be lost. With FULL, every commit
 * fsyncs on the main thread: 2-5 ms on a quiet SSD, 10-20 ms on a busy or slow disk, and forever on a disk that has
 * stopped answering (a network folder, a dying drive), which would freeze the window, Stop and every reply. An fsync
 * of the log file afterwards, from a descriptor of our own (POSIX fsync flushes the file, whichever descriptor wrote
 * it), makes the commits before it as durable as FULL would have: callers that tell the person something is saved
 * wait for that sync, with a time limit (outside/disk-confirmation.ts).
 */
import { open } from 'node:fs/promises';
import type Database from 'better-sqlite3';
import { inTransaction, type AppDatabase } from './open';
import { statementCacheFor } from './statements';
import { pendingCalls } from '../outside/pending-calls';

export interface BackgroundSyncedCommit<T> {
  readonly result: T;
  /** Resolves once the commit is on the disk; rejects when the disk refused the sync (the commit itself stands). */
  readonly durable: Promise<void>;
}

/** Flushes one file to the disk. */
export type FileSync = (path: string) => Promise<void>;

export async function syncFileToDisk(path: string): Promise<void> {
  let handle;
  try {
    // Writable: Windows flushes a file's buffers only through a handle that may write it.
    handle = await open(path, 'r+');
  } catch (error) {
    // SQLite removes the log when its last connection closes, after copying it into the database and syncing that.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * One connection's log syncs. A sync that has not started yet covers every commit made before it starts, so commits
 * arriving while one runs share the single sync queued behind it.
 */
export class WriteAheadLogSync {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** Runs after each sync, refused or not (a checkpoint that is due, see checkpointer.ts). */
  afterSync: (() => void) | null = null;

  constructor(
    private readonly logPath: string | null,
    private readonly syncFile: FileSync = syncFileToDisk,
  ) {}

  /** A sync that starts after this call. */
  request(): Promise<void> {
    if (this.logPath === null) return Promise.resolve();
    if (this.queued !== null) return this.queued;
    if (this.running === null) return this.start(this.logPath);
    const logPath = this.logPath;
    const queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start(logPath);
      });
    this.queued = queued;
    return queued;
  }

  private start(logPath: string): Promise<void> {
    const running = pendingCalls.track('syncing the write-ahead log', this.syncFile(logPath)).finally(() => {
      if (this.running === running) this.running = null;
      this.afterSync?.();
    });
    this.running = running;
    return running;
  }
}

/** The write-ahead log's path, or null for a database without one on disk (in memory, or not in WAL mode). */
function writeAheadLogPath(client: Database.Database): string | null {
  if (client.memory) return null;
  if (String(client.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
  const main = (client.pragma('database_list') as { name: string; file: string }[]).find((database) => database.name === 'main');
  return main && main.file !== '' ? `${main.file}-wal` : null;
}

const logSyncs = new WeakMap<Database.Database, WriteAheadLogSync>();

function logSyncFor(client: Database.Database): WriteAheadLogSync {
  let logSync = logSyncs.get(client);
  if (logSync === undefined) {
    logSync = new WriteAheadLogSync(writeAheadLogPath(client));
    logSyncs.set(client, logSync);
  }
  return logSync;
}

/** Runs `hook` after each sync of the connection's log. */
export function afterEachLogSync(db: AppDatabase, hook: () => void): void {
  logSyncFor(db.$client).afterSync = hook;
}

/** For tests: the connection's log syncs go through `syncFile`. */
export function useFileSyncFor(db: AppDatabase, syncFile: FileSync): void {
  logSyncs.set(db.$client, new WriteAheadLogSync(writeAheadLogPath(db.$client), syncFile));
}

/** A sync of the connection's log that starts after this call: every commit made before it is on the disk once it resolves. */
export function requestLogSync(db: AppDatabase): Promise<void> {
  return logSyncFor(db.$client).request();
}

/** The rows this connection has inserted, changed or deleted since it opened: a command that changed it moves it. */
export function totalChanges(db: AppDatabase): number {
  return totalChangesStatement(db).pluck().get() as number;
}
const totalChangesStatement = statementCacheFor('SELECT total_changes()');

/**
 * Runs `work` in one transaction; `durable` says when its commit is on the disk. Inside a transaction already open,
 * `work` joins it and the outer commit decides.
 */
export function commitSyncingInBackground<T>(db: AppDatabase, work: () => T): BackgroundSyncedCommit<T> {
  const client = db.$client;
  const joined = client.inTransaction;
  const result = inTransaction(db, work);
  return { result, durable: joined ? Promise.resolve() : logSyncFor(client).request() };
}
