/**
 * A worker thread that answers jobs one message at a time, and the loop it keeps alive.
 *
 * Node ends a process when its event loop has nothing referenced left, even with a top-level `await` unsettled (exit
 * code 13, and no `finally` after it runs). An idle worker must not keep a finished command alive, so it is unref'd;
 * `Worker.unref()` unrefs its message port too, so a job awaited on an unref'd worker is such an unsettled await. Here
 * the worker is ref'd from the moment a job or the close is posted until its answer arrives, and unref'd when idle.
 * Closing asks the worker to close what it holds and waits for its exit, at most `closeTimeLimitMs`, then terminates it.
 */
import { Worker } from 'node:worker_threads';

/** How long a worker may take to close what it holds before it is terminated (a checkpoint can wait 5 s for a lock). */
export const WORKER_CLOSE_TIME_LIMIT_MS = 10_000;

export interface JobWorkerOptions {
  /** Names the worker in warnings and errors ("the checkpoint worker"). */
  readonly name: string;
  /**
   * The worker's program as CommonJS source, run with `eval` (the app, the command line and the tests are bundled
   * differently; a source text runs the same in all three). It defines `answerJob(job)`, returning the answer or
   * throwing, and `closeWorker()`, closing what it holds; `workerData` is in scope.
   */
  readonly source: string;
  readonly workerData?: unknown;
  readonly closeTimeLimitMs?: number;
}

export interface JobWorker<Job, Answer> {
  /** Starts the worker on the first job; rejects with the worker's error, or when it ends before answering. */
  run(job: Job): Promise<Answer>;
  /**
   * The worker answers the jobs posted before, then closes what it holds and exits; past the time limit it is
   * terminated, and jobs still unanswered reject.
   */
  close(): Promise<void>;
}

type WorkerAnswer = { readonly id: number; readonly ok: true; readonly answer: unknown } | { readonly id: number; readonly ok: false; readonly message: string };

const SOURCE_FRAME = (program: string): string => `
const { parentPort, workerData } = require('node:worker_threads');
${program}
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    try {
      closeWorker();
    } finally {
      parentPort.close();
    }
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, ok: true, answer: answerJob(message.job) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Pending {
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: Error) => void;
}

export function startJobWorker<Job, Answer>(options: JobWorkerOptions): JobWorker<Job, Answer> {
  const closeTimeLimitMs = options.closeTimeLimitMs ?? WORKER_CLOSE_TIME_LIMIT_MS;
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 0;
  let closed = false;

  const holdLoopWhileBusy = (made: Worker): void => {
    if (pending.size > 0) made.ref();
    else made.unref();
  };

  const started = (): Worker => {
    if (worker !== null) return worker;
    const made = new Worker(SOURCE_FRAME(options.source), { eval: true, workerData: options.workerData });
    made.on('message', (answer: WorkerAnswer) => {
      const job = pending.get(answer.id);
      if (job === undefined) return;
      pending.delete(answer.id);
      holdLoopWhileBusy(made);
      if (answer.ok) job.resolve(answer.answer);
      else job.reject(new Error(answer.message));
    });
    made.on('error', (error) => console.warn(`Anybrain: ${options.name} stopped: ${error.message}`));
    made.on('exit', (code) => {
      if (worker === made) worker = null;
      for (const job of pending.values()) job.reject(new Error(`${options.name} ended (exit code ${code}) before it answered.`));
      pending.clear();
    });
    worker = made;
    return made;
  };

  return {
    run(job) {
      if (closed) return Promise.reject(new Error(`${options.name} is closed.`));
      const running = started();
      const id = nextId++;
      const answered = new Promise<Answer>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      });
      holdLoopWhileBusy(running);
      running.postMessage({ type: 'job', id, job });
      return answered;
    },
    async close() {
      closed = true;
      const closing = worker;
      if (closing === null) return;
      // Referenced until it has gone: a command that awaits this close ends only after it.
      closing.ref();
      const exited = new Promise<void>((resolve) => closing.once('exit', () => resolve()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<'timed-out'>((resolve) => {
        timer = setTimeout(() => resolve('timed-out'), closeTimeLimitMs);
      });
      closing.postMessage({ type: 'close' });
      try {
        if ((await Promise.race([exited, timedOut])) === 'timed-out') {
          console.warn(`Anybrain: ${options.name} did not close within ${closeTimeLimitMs / 1000} s; it was stopped.`);
          await closing.terminate();
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
