/**
 * Every conversation in one zip: a file per conversation, each exactly what exporting that conversation alone gives,
 * and an `index.json` naming them. Reads one snapshot (one read transaction), so rows written meanwhile by the main
 * connection never make the files and the index disagree. Runs on the export worker (see export-worker.ts); plain and
 * synchronous here so it is also callable, and testable, in-process.
 */
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import type { ExportFormat, ExportOptions } from '../../../src-shared/api';
import { listConversations } from '../store/conversations';
import { countMessagesByConversation } from '../store/messages';
import { inReadTransaction, type AppDatabase } from '../store/open';
import { exportConversation } from './export';
import { EXPORT_INDEX_FILE, exportFileNames } from './export-file-names';

/** What to export: the same for every conversation of the archive. */
export interface ExportAllRequest extends Pick<ExportOptions, 'includeTools' | 'includeReasoning' | 'branches' | 'includeAttachments'> {
  readonly format: ExportFormat;
}

export const EXPORT_INDEX_FORMAT = 'anybrain.export-index';
export const EXPORT_INDEX_VERSION = 1;

export interface ExportIndexEntry {
  readonly id: string;
  readonly title: string;
  readonly file: string;
  /** Every stored row: each branch and system line (what the JSON transcript lists). */
  readonly messages: number;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface ExportIndex {
  readonly format: typeof EXPORT_INDEX_FORMAT;
  readonly version: typeof EXPORT_INDEX_VERSION;
  readonly export_format: ExportFormat;
  /** Newest first, like the sidebar. */
  readonly conversations: readonly ExportIndexEntry[];
}

export interface ExportArchive {
  readonly bytes: Uint8Array;
  readonly conversations: number;
  readonly messages: number;
}

/** Builds the archive away from the caller; resolves to null when `signal` stopped it. */
export type ArchiveRunner = (request: ExportAllRequest, signal: AbortSignal, onProgress: ExportProgressListener) => Promise<ExportArchive | null>;

/**
 * The writer on the calling thread, for tests and tools that have no built worker: the same archive, but it holds the
 * thread while it runs.
 */
export function inProcessArchiveRunner(db: AppDatabase, dataDir?: string): ArchiveRunner {
  return async (request, signal, onProgress) => {
    await Promise.resolve();
    return writeExportArchive(db, request, onProgress, signal, dataDir);
  };
}

/** `done` of `total` conversations are in the archive. */
export type ExportProgressListener = (done: number, total: number) => void;

/** A zip entry's time is a DOS date: 1980 to 2107, and fflate refuses years past 2099. */
function zipTime(iso: string): Date | undefined {
  const time = new Date(iso);
  const year = time.getFullYear();
  return Number.isNaN(time.getTime()) || year < 1980 || year > 2099 ? undefined : time;
}

/** Calls `listener` at the start, at the end, and when the whole percentage moves: at most 101 times. */
function percentSteps(total: number, listener: ExportProgressListener): (done: number) => void {
  let lastPercent = -1;
  return (done) => {
    const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
    if (percent === lastPercent && done !== 0 && done !== total) return;
    lastPercent = percent;
    listener(done, total);
  };
}

/**
 * The zip of every conversation, or null when `signal` aborted between two conversations (the worker is terminated
 * instead; the signal serves callers on the main thread). Attachments' bytes come from `dataDir`: embedded in JSON and
 * HTML, and for Markdown as files in the zip beside each conversation's file (`<file>.attachments/<name>`).
 */
export function writeExportArchive(
  db: AppDatabase,
  request: ExportAllRequest,
  onProgress: ExportProgressListener = () => {},
  signal?: AbortSignal,
  dataDir?: string,
): ExportArchive | null {
  // One snapshot, so every file of the archive agrees; a read that never waits for another process's writer.
  return inReadTransaction(db, () => {
    const conversations = listConversations(db);
    const messageCounts = countMessagesByConversation(db);
    const names = exportFileNames(conversations, request.format);
    const report = percentSteps(conversations.length, onProgress);

    const pieces: Uint8Array[] = [];
    let zipError: Error | null = null;
    // fflate's synchronous ZipDeflate hands each compressed piece over before push returns.
    const zip = new Zip((error, piece) => {
      if (error) zipError = error;
      else pieces.push(piece);
    });
    const addFile = (name: string, content: string | Uint8Array, modified: Date | undefined): void => {
      const file = new ZipDeflate(name, { level: 6, ...(modified ? { mtime: modified } : {}) });
      zip.add(file);
      file.push(typeof content === 'string' ? strToU8(content) : content, true);
      if (zipError) throw zipError;
    };

    report(0);
    const entries: ExportIndexEntry[] = [];
    let messages = 0;
    for (const [position, conversation] of conversations.entries()) {
      if (signal?.aborted) return null;
      const file = names[position]!;
      const { format, ...shown } = request;
      const exported = exportConversation(db, conversation.id, format, shown, dataDir, file);
      addFile(file, exported.content, zipTime(conversation.updatedAt));
      for (const attached of exported.files ?? []) addFile(attached.path, Buffer.from(attached.dataBase64, 'base64'), zipTime(conversation.updatedAt));
      const count = messageCounts.get(conversation.id) ?? 0;
      messages += count;
      entries.push({
        id: conversation.id,
        title: conversation.title,
        file,
        messages: count,
        created_at: conversation.createdAt,
        updated_at: conversation.updatedAt,
      });
      report(position + 1);
    }
    const index: ExportIndex = { format: EXPORT_INDEX_FORMAT, version: EXPORT_INDEX_VERSION, export_format: request.format, conversations: entries };
    addFile(EXPORT_INDEX_FILE, `${JSON.stringify(index, null, 2)}\n`, conversations[0] ? zipTime(conversations[0].updatedAt) : undefined);
    zip.end();
    if (zipError) throw zipError;

    const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    let offset = 0;
    for (const piece of pieces) {
      bytes.set(piece, offset);
      offset += piece.length;
    }
    return { bytes, conversations: conversations.length, messages };
  });
}
