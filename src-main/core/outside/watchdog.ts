/**
 * Notices, and logs, the two ways a host stops answering while nothing has failed:
 * - the main loop does not turn (a synchronous call that waits, a task that never ends): seen from a worker thread,
 *   which the stalled loop cannot hold, and written straight to the log's file descriptor, since a worker's console
 *   goes through the main thread;
 * - libuv's thread pool runs nothing (every thread blocked in a call that hangs): seen by a probe task that does not
 *   come back.
 * Each report names the outside calls under way (pending-calls.ts) and the last command the host began. The worker is
 * plain JavaScript given as source, so both builds and the tests run it without an entry of its own, and it never
 * blocks in native code, so it never holds the exit.
 */
import { randomFill } from 'node:crypto';
import { writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { pendingCalls as processPendingCalls, type PendingCalls } from './pending-calls';

/** How long the main loop may not turn before it is reported. */
export const LOOP_STALL_MS = 2_000;
/** How long a probe may wait for a thread of the pool before the pool is reported full. */
export const POOL_FULL_MS = 5_000;
const HEARTBEAT_MS = 200;
const CONTEXT_BYTES = 4_096;

export interface WatchdogOptions {
  readonly loopStallMs?: number;
  readonly poolFullMs?: number;
  /** The file descriptor reports are written to; standard error by default. */
  readonly logFd?: number;
  readonly pendingCalls?: PendingCalls;
  /** Runs `done` on libuv's thread pool; a tiny random fill by default. */
  readonly probePool?: (done: () => void) => void;
}

export interface Watchdog {
  /** Remembers the command the host began last, for the reports. */
  noteCommand(name: string): void;
  dispose(): Promise<void>;
}

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const beat = new Float64Array(workerData.beat);
const contextLength = new Int32Array(workerData.contextLength);
const contextBytes = new Uint8Array(workerData.context);
let stalledSince = null;
const seconds = (ms) => Math.round(ms / 100) / 10;
const context = () => {
  const text = new TextDecoder().decode(contextBytes.slice(0, Atomics.load(contextLength, 0)));
  const [command, ...calls] = text.split('\\n').filter((line) => line !== '');
  const now = Date.now();
  const described = calls.map((line) => { const [label, since] = line.split('\\t'); return label + ' (for ' + seconds(now - Number(since)) + ' s)'; });
  return 'outside calls under way: ' + (described.length === 0 ? 'none' : described.join(', ')) + '; last command begun: ' + (command === '-' ? 'none' : command);
};
setInterval(() => {
  const quiet = Date.now() - beat[0];
  if (stalledSince === null && quiet >= workerData.loopStallMs) {
    stalledSince = beat[0];
    writeSync(workerData.logFd, 'Anybrain: the main loop has not turned for ' + seconds(quiet) + ' s; ' + context() + '\\n');
  } else if (stalledSince !== null && beat[0] !== stalledSince) {
    writeSync(workerData.logFd, 'Anybrain: the main loop turns again after ' + seconds(beat[0] - stalledSince) + ' s\\n');
    stalledSince = null;
  }
}, Math.max(50, Math.floor(workerData.loopStallMs / 4)));
`;

function defaultProbe(done: () => void): void {
  randomFill(Buffer.alloc(1), () => done());
}

export function startWatchdog(options: WatchdogOptions = {}): Watchdog {
  const loopStallMs = options.loopStallMs ?? LOOP_STALL_MS;
  const poolFullMs = options.poolFullMs ?? POOL_FULL_MS;
  const logFd = options.logFd ?? 2;
  const calls = options.pendingCalls ?? processPendingCalls;
  const probePool = options.probePool ?? defaultProbe;
  const log = (line: string): void => {
    try {
      writeSync(logFd, `${line}\n`);
    } catch {
      // A log that cannot be written must not stop the host.
    }
  };

  const beat = new Float64Array(new SharedArrayBuffer(8));
  const contextLength = new Int32Array(new SharedArrayBuffer(4));
  const context = new Uint8Array(new SharedArrayBuffer(CONTEXT_BYTES));
  let lastCommand = '-';
  let callLines: string[] = [];
  const writeContext = (): void => {
    const bytes = new TextEncoder().encode([lastCommand, ...callLines].join('\n')).subarray(0, CONTEXT_BYTES);
    context.set(bytes);
    Atomics.store(contextLength, 0, bytes.length);
  };
  const stopWatchingCalls = calls.subscribe(() => {
    callLines = calls.list().map((call) => `${call.label}\t${call.since}`);
    writeContext();
  });
  writeContext();

  beat[0] = Date.now();
  let probeStartedAt: number | null = null;
  let poolReported = false;
  const heartbeat = setInterval(() => {
    beat[0] = Date.now();
    const now = Date.now();
    if (probeStartedAt === null) {
      probeStartedAt = now;
      probePool(() => {
        if (poolReported) log(`Anybrain: the thread pool runs again after ${Math.round((Date.now() - probeStartedAt!) / 100) / 10} s`);
        poolReported = false;
        probeStartedAt = null;
      });
    } else if (!poolReported && now - probeStartedAt >= poolFullMs) {
      poolReported = true;
      log(
        `Anybrain: libuv's thread pool has run nothing for ${Math.round((now - probeStartedAt) / 100) / 10} s (every thread is busy); ` +
          `outside calls under way: ${calls.describe()}; last command begun: ${lastCommand === '-' ? 'none' : lastCommand}`,
      );
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { beat: beat.buffer, contextLength: contextLength.buffer, context: context.buffer, loopStallMs, logFd } });
  worker.unref();
  worker.on('error', (error) => log(`Anybrain: the watchdog stopped: ${error.message}`));

  return {
    noteCommand(name) {
      lastCommand = name;
      writeContext();
    },
    async dispose() {
      clearInterval(heartbeat);
      stopWatchingCalls();
      await worker.terminate();
    },
  };
}
