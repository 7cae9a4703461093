/**
 * The exports of all conversations this process runs or holds: one running at a time, each finished zip held until it
 * is read to the end, cancelled, or left unread for KEEP_FINISHED_MS. The zip goes out in pieces (readExport) so no
 * answer outgrows what IPC, the web host or a JSON string can carry, whatever the size of the history.
 */
import { ApiError, type ApiEvent, type ExportArchiveResult, type ExportChunk } from '../../../src-shared/api';
import type { ArchiveRunner, ExportAllRequest, ExportArchive, ExportProgressListener } from './export-archive';

/** 4 MiB a piece: about 5.6 MB of base64, far under the web host's and IPC's limits, and few round trips. */
export const EXPORT_CHUNK_BYTES = 4 * 1024 * 1024;
export const KEEP_FINISHED_MS = 10 * 60_000;

interface FinishedExport {
  readonly bytes: Uint8Array;
  readonly timer: ReturnType<typeof setTimeout>;
}

export interface ExportJobsDependencies {
  readonly runArchive: ArchiveRunner;
  readonly emit: (event: ApiEvent) => void;
  /** The day in the zip's name. */
  readonly now?: () => Date;
  readonly chunkBytes?: number;
}

export class ExportJobs {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  private readonly finished = new Map<string, FinishedExport>();
  private disposed = false;

  constructor(private readonly dependencies: ExportJobsDependencies) {}

  async exportAll(exportId: string, request: ExportAllRequest): Promise<ExportArchiveResult> {
    if (this.disposed) throw new ApiError('shutting-down', 'Anybrain is closing.');
    if (this.running.has(exportId) || this.finished.has(exportId)) {
      throw new ApiError('invalid-input', `An export named ${exportId} already exists; name each export anew.`);
    }
    if (this.running.size > 0) {
      throw new ApiError('export-running', 'An export of all conversations is already running. Wait for it, or cancel it, and try again.');
    }
    const controller = new AbortController();
    const emitProgress: ExportProgressListener = (done, total) => this.dependencies.emit({ type: 'export-progress', exportId, done, total });
    const work = this.dependencies.runArchive(request, controller.signal, emitProgress);
    this.running.set(exportId, { controller, done: work.catch(() => undefined) });
    let archive: ExportArchive | null;
    try {
      archive = await work;
    } finally {
      this.running.delete(exportId);
    }
    if (archive === null || controller.signal.aborted || this.disposed) return { outcome: 'cancelled', exportId };
    this.keep(exportId, archive.bytes);
    const day = (this.dependencies.now?.() ?? new Date()).toISOString().slice(0, 10);
    return {
      outcome: 'done',
      exportId,
      filename: `anybrain-conversations-${request.format}-${day}.zip`,
      mimeType: 'application/zip',
      bytes: archive.bytes.length,
      conversations: archive.conversations,
      messages: archive.messages,
    };
  }

  /** Stops a running export, or lets go of a finished one; false when there is no such export. */
  cancel(exportId: string): boolean {
    const running = this.running.get(exportId);
    if (running) {
      running.controller.abort();
      return true;
    }
    return this.drop(exportId);
  }

  read(exportId: string, offset: number): ExportChunk {
    const finished = this.finished.get(exportId);
    if (!finished) {
      throw new ApiError('not-found', `No finished export named ${exportId} is waiting: it was read to the end, cancelled, or kept too long. Export again.`);
    }
    const total = finished.bytes.length;
    if (offset > total) throw new ApiError('invalid-input', `The export is ${total} bytes; offset ${offset} is past its end.`);
    const end = Math.min(total, offset + (this.dependencies.chunkBytes ?? EXPORT_CHUNK_BYTES));
    const data = Buffer.from(finished.bytes.buffer, finished.bytes.byteOffset + offset, end - offset).toString('base64');
    const nextOffset = end < total ? end : null;
    if (nextOffset === null) this.drop(exportId);
    return { exportId, offset, data, nextOffset };
  }

  /** Stops every running export and lets go of every finished one; resolves once the workers have ended. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const ending = [...this.running.values()].map(({ controller, done }) => {
      controller.abort();
      return done;
    });
    for (const exportId of [...this.finished.keys()]) this.drop(exportId);
    await Promise.all(ending);
  }

  private keep(exportId: string, bytes: Uint8Array): void {
    const timer = setTimeout(() => this.drop(exportId), KEEP_FINISHED_MS);
    // A zip nobody collects must not keep the command line or the web host alive.
    timer.unref?.();
    this.finished.set(exportId, { bytes, timer });
  }

  private drop(exportId: string): boolean {
    const finished = this.finished.get(exportId);
    if (!finished) return false;
    clearTimeout(finished.timer);
    this.finished.delete(exportId);
    return true;
  }
}
