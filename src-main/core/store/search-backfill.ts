/**
 * Indexing the messages written before the search index existed, off the main thread: migration 0006 only records
 * which rowids are still to be indexed (`search_backfill`), so an upgrade of a large database stays fast, and a worker
 * with its own connection (WAL lets it write beside the window's) indexes them in short batches. The triggers index
 * everything written meanwhile outside the waiting range, and leave the rows inside it to the worker, whatever
 * happens to them. A run cut short (the app closed) resumes on the next open from the last committed batch.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { CJK_TEXT_GLOB } from './search';

/** Rowids per transaction: each batch holds the write lock for tens of milliseconds, so the window's writes wait little. */
export const BACKFILL_BATCH_ROWS = 250;
/**
 * The worker's rest between batches. SQLite's busy handler sleeps in growing steps (up to 100 ms) while another
 * connection holds the write lock, so a writer that starts the next batch at once would starve the window's writes.
 */
export const BACKFILL_PAUSE_MS = 15;

export interface BackfillSettings {
  readonly batchRows: number;
  readonly pauseMs: number;
  readonly cjkGlob: string;
}

export function backfillSettings(batchRows = BACKFILL_BATCH_ROWS, pauseMs = BACKFILL_PAUSE_MS): BackfillSettings {
  return { batchRows, pauseMs, cjkGlob: CJK_TEXT_GLOB };
}

/**
 * Indexes the rows `search_backfill` still names, one transaction per batch, calling `onProgress` with a percentage
 * after each; answers how many rows it indexed. The worker runs this function from its source text, so it refers to
 * nothing outside itself: everything it needs comes in its arguments.
 */
export function indexRowsWrittenBeforeSearch(
  sqlite: Database.Database,
  settings: BackfillSettings,
  onProgress: (percent: number) => void,
): number {
  const readMarker = sqlite.prepare<[], { done: number; through: number }>(
    'SELECT done_through_rowid AS done, through_rowid AS through FROM search_backfill WHERE id = 1',
  );
  // The triggers leave every row of the range to this function (migration 0006), so none of them is indexed yet.
  const indexWords = sqlite.prepare<[number, number]>(
    `INSERT INTO messages_fts(rowid, text)
     SELECT rowid, text FROM messages WHERE rowid > ? AND rowid <= ? AND status != 'streaming'`,
  );
  const indexCjk = sqlite.prepare<[number, number, string]>(
    `INSERT INTO messages_cjk_fts(rowid, text)
     SELECT rowid, text FROM messages WHERE rowid > ? AND rowid <= ? AND status != 'streaming' AND text GLOB ?`,
  );
  const advance = sqlite.prepare<[number]>('UPDATE search_backfill SET done_through_rowid = ? WHERE id = 1');
  const finish = sqlite.prepare('DELETE FROM search_backfill WHERE id = 1');
  let indexed = 0;
  const batch = sqlite.transaction((): number | null => {
    const marker = readMarker.get();
    if (marker === undefined) return null;
    const upTo = Math.min(marker.done + settings.batchRows, marker.through);
    indexed += indexWords.run(marker.done, upTo).changes;
    indexCjk.run(marker.done, upTo, settings.cjkGlob);
    if (upTo >= marker.through) {
      finish.run();
      return null;
    }
    advance.run(upTo);
    return Math.floor((upTo / marker.through) * 100);
  });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    // IMMEDIATE: take the write lock before reading the marker, so two processes never index the same batch.
    const percent = batch.immediate();
    if (percent === null) break;
    onProgress(percent);
    if (settings.pauseMs > 0) Atomics.wait(pause, 0, 0, settings.pauseMs);
  }
  onProgress(100);
  return indexed;
}

export interface SearchBackfill {
  /**
   * Settles with the number of rows indexed, or null when `stop` ended the worker first; rejects if the worker failed.
   * Either way the next open resumes from the last batch committed.
   */
  readonly finished: Promise<number | null>;
  /** Ends the worker; a batch it was writing rolls back, and the next open resumes from the last one committed. */
  stop(): Promise<void>;
}

export interface SearchBackfillOptions {
  readonly databasePath: string;
  /** A better-sqlite3 binary built for this runtime's ABI (the Electron shell's own build). */
  readonly nativeBinding?: string;
  readonly onProgress?: (percent: number) => void;
  readonly batchRows?: number;
  readonly pauseMs?: number;
}

type WorkerReport = { readonly type: 'progress'; readonly percent: number } | { readonly type: 'done'; readonly indexed: number };

/**
 * The worker's program, as CommonJS source: the app, the command line and the tests are bundled differently, and a
 * source text runs the same in all three, with better-sqlite3 loaded from the path this process resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3Path);
const sqlite = new Database(workerData.databasePath, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
try {
  sqlite.pragma('busy_timeout = 5000');
  const indexRowsWrittenBeforeSearch = ${indexRowsWrittenBeforeSearch.toString()};
  const indexed = indexRowsWrittenBeforeSearch(sqlite, workerData.settings, (percent) => parentPort.postMessage({ type: 'progress', percent }));
  parentPort.postMessage({ type: 'done', indexed });
} finally {
  sqlite.close();
}
`;

export function startSearchBackfill(options: SearchBackfillOptions): SearchBackfill {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      databasePath: options.databasePath,
      nativeBinding: options.nativeBinding ?? null,
      betterSqlite3Path: createRequire(import.meta.url).resolve('better-sqlite3'),
      settings: backfillSettings(options.batchRows, options.pauseMs),
    },
  });
  let indexed: number | null = null;
  let stopping = false;
  const finished = new Promise<number | null>((resolve, reject) => {
    worker.on('message', (report: WorkerReport) => {
      if (report.type === 'progress') options.onProgress?.(report.percent);
      else indexed = report.indexed;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (indexed !== null || stopping) resolve(indexed);
      else reject(new Error(`The search index worker stopped (exit code ${code}) before it finished.`));
    });
  });
  return {
    finished,
    async stop() {
      stopping = true;
      await worker.terminate();
    },
  };
}
