/**
 * Starts the export worker and turns its messages into a promise: the archive, or null when the signal stopped it.
 * Stopping terminates the worker: its read-only connection goes with it, and nothing it had built is kept.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ExportAllRequest, ExportArchive, ExportProgressListener } from './export-archive';

export interface ExportWorkerRequest {
  readonly databasePath: string;
  /** The data folder, whose `attachments/` the export reads attachments' bytes from. */
  readonly dataDir: string;
  /** The better-sqlite3 binary the main thread loaded (the Electron shell's own ABI build). */
  readonly nativeBinding?: string;
  readonly request: ExportAllRequest;
}

export type ExportWorkerMessage =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly bytes: Uint8Array; readonly conversations: number; readonly messages: number }
  | { readonly type: 'failed'; readonly message: string };

const WORKER_FILE = 'export-worker.js';

/**
 * Where the built worker is: both builds emit `export-worker.js` as an entry beside the main bundle, and this module
 * lands either in that bundle or in a shared chunk one folder below it (`assets/`, `chunks/`). From the sources (the
 * tests) there is no such file: TypeScript workers would need vite's transforms (the migrations are bundled with
 * `import.meta.glob`), so tests build the worker (cli/testing.ts) or run the archive writer in-process.
 */
export function exportWorkerEntry(moduleUrl: string = import.meta.url): URL {
  const candidates = [new URL(`./${WORKER_FILE}`, moduleUrl), new URL(`../${WORKER_FILE}`, moduleUrl)];
  const built = candidates.find((candidate) => existsSync(candidate));
  if (built === undefined) {
    throw new Error(`The export worker ${WORKER_FILE} is not built beside ${new URL('.', moduleUrl).pathname}. Run \`npm run build\` first.`);
  }
  return built;
}

export interface ExportWorkerRun extends ExportWorkerRequest {
  readonly signal: AbortSignal;
  readonly onProgress: ExportProgressListener;
  /** The built worker; found beside this module when left out. */
  readonly entry?: URL;
}

export function runExportWorker(run: ExportWorkerRun): Promise<ExportArchive | null> {
  const { signal, onProgress } = run;
  if (signal.aborted) return Promise.resolve(null);
  const entry = run.entry ?? exportWorkerEntry();
  const workerData: ExportWorkerRequest = {
    databasePath: run.databasePath,
    dataDir: run.dataDir,
    request: run.request,
    ...(run.nativeBinding === undefined ? {} : { nativeBinding: run.nativeBinding }),
  };
  const worker = new Worker(entry, { workerData });
  return new Promise((resolve, reject) => {
    let archive: ExportArchive | null = null;
    let failure: Error | null = null;
    const stop = (): void => void worker.terminate();
    signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: ExportWorkerMessage) => {
      switch (message.type) {
        case 'progress':
          if (!signal.aborted) onProgress(message.done, message.total);
          return;
        case 'done':
          archive = { bytes: message.bytes, conversations: message.conversations, messages: message.messages };
          return;
        case 'failed':
          failure = new Error(message.message);
          return;
        default: {
          const unknown: never = message;
          failure = new Error(`The export worker sent an unknown message: ${JSON.stringify(unknown)}`);
        }
      }
    });
    worker.on('error', (error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(`The export worker failed: ${String(error)}`);
    });
    worker.on('exit', () => {
      signal.removeEventListener('abort', stop);
      if (signal.aborted) resolve(null);
      else if (failure !== null) reject(failure);
      else if (archive !== null) resolve(archive);
      else reject(new Error('The export worker ended without an archive.'));
    });
  });
}
