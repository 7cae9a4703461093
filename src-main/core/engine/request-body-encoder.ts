/**
 * Builds a long history's request body off the main thread: a worker thread (request-body-worker.ts) runs the pure
 * build and `JSON.stringify`, and hands back the body's bytes, which the providers send as they are. The worker starts
 * on the first long request, stays for the next ones (idle, it keeps no process alive) and ends with `dispose`.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { EncodedBody } from '../providers/encoded-body';
import type { TurnRequestParts } from '../replay/request-parts';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from './event-loop-turn';

/**
 * A job crosses in messages: its rows a page at a time, each with those rows' calls, then the rest of its parts.
 * Copying a message to the worker is a synchronous step on this thread, about 5 ms a megabyte of rows.
 */
export type BodyJob =
  | {
      readonly id: number;
      readonly type: 'rows';
      readonly rows: TurnRequestParts['rows'];
      readonly invocations: TurnRequestParts['invocations'];
    }
  | { readonly id: number; readonly type: 'build'; readonly parts: TurnRequestParts };

export type BodyJobAnswer =
  | { readonly id: number; readonly type: 'done'; readonly json: Uint8Array<ArrayBuffer>; readonly fields: Record<string, unknown> }
  | { readonly id: number; readonly type: 'failed'; readonly message: string };

export interface RequestBodyEncoder {
  /** The body `buildFromParts(parts)` builds, serialised; rejects when the worker failed or was disposed. */
  encode(parts: TurnRequestParts): Promise<EncodedBody>;
  dispose(): Promise<void>;
}

interface PendingJob {
  readonly resolve: (body: EncodedBody) => void;
  readonly reject: (error: Error) => void;
}

/** Runs each job in the worker `startWorker` starts, one worker at a time, started again after it fails. */
export class WorkerBodyEncoder implements RequestBodyEncoder {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, PendingJob>();
  private nextId = 1;
  private disposed = false;

  constructor(private readonly startWorker: () => Worker) {}

  async encode(parts: TurnRequestParts): Promise<EncodedBody> {
    if (this.disposed) throw new Error('The request body worker is closed.');
    const worker = (this.worker ??= this.started());
    const id = this.nextId++;
    const answered = new Promise<EncodedBody>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Failed while its parts are still being sent (the worker stopped, or was disposed): the caller hears it below.
    answered.catch(() => {});
    // A job under way keeps the process alive until its answer comes.
    worker.ref();
    try {
      for (let start = 0; start < parts.rows.length && this.pending.has(id); start += LONG_HISTORY_ROWS) {
        const rows = parts.rows.slice(start, start + LONG_HISTORY_ROWS);
        const invocations = new Map(rows.flatMap((row) => { const calls = parts.invocations.get(row.id); return calls === undefined ? [] : [[row.id, calls] as const]; }));
        worker.postMessage({ id, type: 'rows', rows, invocations } satisfies BodyJob);
        await nextEventLoopTurn();
      }
      if (this.pending.has(id)) worker.postMessage({ id, type: 'build', parts: { ...parts, rows: [], invocations: new Map() } } satisfies BodyJob);
    } catch (thrown) {
      // A part that cannot be copied to the worker: the job ends here.
      this.settled(worker, id);
      throw thrown;
    }
    return answered;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('The request body worker is closed.'));
    await worker?.terminate();
  }

  private started(): Worker {
    const worker = this.startWorker();
    worker.unref();
    worker.on('message', (answer: BodyJobAnswer) => {
      const job = this.pending.get(answer.id);
      if (job === undefined) return;
      this.settled(worker, answer.id);
      if (answer.type === 'done') job.resolve({ json: answer.json, fields: answer.fields });
      else job.reject(new Error(answer.message));
    });
    worker.on('error', (error: Error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`The request body worker stopped (exit code ${code}).`)));
    return worker;
  }

  private settled(worker: Worker, id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) worker.unref();
  }

  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    for (const job of jobs) job.reject(error);
  }
}

const BUILT_WORKER = 'request-body-worker.js';

/**
 * Starts the worker: the built entry beside the main bundle (or one folder above a shared chunk), as both builds emit
 * it; from the sources (tests, benchmarks), the TypeScript entry through tsx. Null when neither is there.
 */
export function requestBodyWorkerStarter(moduleUrl: string = import.meta.url): (() => Worker) | null {
  const built = [new URL(`./${BUILT_WORKER}`, moduleUrl), new URL(`../${BUILT_WORKER}`, moduleUrl)].find((candidate) => existsSync(candidate));
  if (built !== undefined) return () => new Worker(built);
  const source = new URL('./request-body-worker.ts', moduleUrl);
  if (!moduleUrl.endsWith('.ts') || !existsSync(source)) return null;
  const bootstrap = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(moduleUrl)}));`;
  return () => new Worker(bootstrap, { eval: true });
}

/** The encoder over the worker, or null where no worker can start (the body is then built on the main thread). */
export function createRequestBodyEncoder(moduleUrl: string = import.meta.url): RequestBodyEncoder | null {
  const start = requestBodyWorkerStarter(moduleUrl);
  return start === null ? null : new WorkerBodyEncoder(start);
}
