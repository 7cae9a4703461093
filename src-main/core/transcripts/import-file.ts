/**
 * An import run on this thread, from a file to its stored conversations: read and checked whole (import-read.ts), then
 * written in one transaction. The import commands and the command line's `import` run it.
 */
import type { TranscriptV1 } from '../../../src-shared/transcript';
import type { AppDatabase } from '../store/open';
import { writeTranscripts } from './import';
import { checkImportDocument, readImportFile, type ForeignConverters, type ImportSource } from './import-read';

export { checkImportDocument, readImportFile, type ForeignConverters, type ImportFile, type ImportSource } from './import-read';

/** What an import wrote, and what it left out and why. */
export interface ImportOutcome {
  readonly source: ImportSource;
  readonly conversationIds: readonly string[];
  readonly messages: number;
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
}

/** How long checking runs before it reports progress and lets the process answer other work. */
const PROGRESS_INTERVAL_MS = 50;

/**
 * Reads, converts and checks every conversation of a file, then writes them all in one transaction. Checking yields
 * to the event loop every `PROGRESS_INTERVAL_MS` so progress reaches the window; the write itself is one synchronous
 * transaction, since another writer's rows must never land inside it.
 */
export async function importFile(
  db: AppDatabase,
  file: Uint8Array | string,
  converters: ForeignConverters,
  onProgress: (done: number, total: number) => void,
  dataDir?: string,
  onInflated?: (inflated: number) => void,
): Promise<ImportOutcome> {
  const read = readImportFile(file, converters, onInflated);
  const total = read.transcripts.length;
  const checked: TranscriptV1[] = [];
  let lastReport = Date.now();
  for (const [index, document] of read.transcripts.entries()) {
    checked.push(checkImportDocument(read, document, index));
    if (Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
      onProgress(index + 1, total);
      await new Promise((resolve) => setImmediate(resolve));
      lastReport = Date.now();
    }
  }
  const conversationIds = writeTranscripts(db, checked, dataDir);
  onProgress(total, total);
  return {
    source: read.source,
    conversationIds,
    messages: checked.reduce((sum, transcript) => sum + transcript.messages.length, 0),
    skipped: read.skipped,
  };
}
