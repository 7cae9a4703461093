/**
 * The export worker's entry: its own read-only connection to the data folder's database, so exporting every
 * conversation never holds the main thread's event loop (or its connection). Built as its own entry beside the main
 * bundle (electron.vite.config.ts, vite.node.config.ts); export-worker-runner.ts starts it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeDatabase, openReadOnlyDatabase } from '../store/open';
import { writeExportArchive } from './export-archive';
import type { ExportWorkerMessage, ExportWorkerRequest } from './export-worker-runner';

function post(message: ExportWorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

const { databasePath, dataDir, nativeBinding, request } = workerData as ExportWorkerRequest;
try {
  const db = openReadOnlyDatabase(databasePath, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    // Never null here: cancelling terminates this thread instead of signalling it.
    const archive = writeExportArchive(db, request, (done, total) => post({ type: 'progress', done, total }), undefined, dataDir)!;
    // Transferred, not copied: the zip changes hands without the main thread touching its bytes.
    post({ type: 'done', bytes: archive.bytes, conversations: archive.conversations, messages: archive.messages }, [archive.bytes.buffer as ArrayBuffer]);
  } finally {
    closeDatabase(db);
  }
} catch (error) {
  // A thrown SqliteError reaches the main thread as a bare object; its sentence is what the person needs.
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
