/**
 * Waits with a bound that names what never came. A benchmark that waits for an event (a reply's `complete`, a child
 * process's first line, a worker's end) fails, when the bound lapses, with `WHAT within N s: WHAT THE BENCH SAW`
 * instead of hanging `npm test` or failing with a bare timeout.
 *
 * While the wait runs the helper does one thing: it arms one timer (no polling, no recording). `observe` runs only
 * once the bound has lapsed, so a measured section that waits through here carries no extra work; `observe` is itself
 * bounded, since what it reads (a page, a host) may be what hung.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** How long `observe` may take before the message says the observation itself did not come. */
export const OBSERVE_WITHIN_MS = 10_000;

export interface BoundedWaitOptions {
  /** What never came, as the message's opening: `the reply never reached status complete`. */
  readonly what: string;
  readonly withinMs: number;
  /** What the bench can see once the bound has lapsed (the page's state, the host's threads); called only then. */
  readonly observe?: () => string | Promise<string>;
  /** Runs once the bound has lapsed, after `observe`: stops what was waited on (a child process) so it cannot outlive the run. */
  readonly abandon?: () => void;
  readonly observeWithinMs?: number;
}

/** The error a lapsed bound throws; its message is the whole explanation. */
export class WaitLapsedError extends Error {
  override name = 'WaitLapsedError';
}

/** `240 s`, `1.5 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** The message a lapsed bound fails with. */
export function lapsedMessage(what: string, withinMs: number, observation: string | null): string {
  return observation === null || observation === '' ? `${what} within ${formatDuration(withinMs)}` : `${what} within ${formatDuration(withinMs)}: ${observation}`;
}

async function observeBounded(observe: () => string | Promise<string>, withinMs: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lapsed = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`(nothing could be observed within ${formatDuration(withinMs)})`), withinMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(observe), lapsed]);
  } catch (error) {
    return `(observing failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `work`'s value, or a `WaitLapsedError` once `withinMs` has passed without it. `work` is not stopped (a promise
 * cannot be); `abandon` stops what it waits on. Its later settling is handled, never an unhandled rejection.
 */
export async function within<T>(work: Promise<T>, options: BoundedWaitOptions): Promise<T> {
  const lapse = Symbol('lapsed');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lapsed = new Promise<typeof lapse>((resolve) => {
    timer = setTimeout(() => resolve(lapse), options.withinMs);
  });
  let outcome: T | typeof lapse;
  try {
    outcome = await Promise.race([work, lapsed]);
  } finally {
    clearTimeout(timer);
  }
  if (outcome !== lapse) return outcome;
  work.catch(() => undefined);
  const observation = options.observe ? await observeBounded(options.observe, options.observeWithinMs ?? OBSERVE_WITHIN_MS) : null;
  options.abandon?.();
  throw new WaitLapsedError(lapsedMessage(options.what, options.withinMs, observation));
}

/** The last `maxLines` non-empty lines of `text`, joined with ` | ` (a process's stderr tail in one line). */
export function tailLines(text: string, maxLines: number): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-maxLines)
    .join(' | ');
}

/** One thread of a process, as /proc shows it. */
export interface ThreadState {
  /** R, S, D, …: /proc/PID/task/TID/stat's state. */
  readonly state: string;
  /** The kernel function the thread sleeps in (`do_epoll_wait`, `futex_do_wait`, `poll_schedule_timeout…`); `0` when running. */
  readonly wchan: string;
}

/**
 * One line for a process's threads, grouped by where they wait, largest group first (then by name):
 * `11 threads: 5 in futex_do_wait, 4 in poll_schedule_timeout, 2 in do_epoll_wait`. A libuv pool thread with no work
 * sleeps in `futex_do_wait`; one stuck in a blocking call shows that call (`poll_schedule_timeout` for select/poll).
 */
export function summariseThreads(threads: readonly ThreadState[]): string {
  const groups = new Map<string, number>();
  for (const thread of threads) {
    const key = thread.wchan === '0' || thread.wchan === '' ? (thread.state === 'R' ? 'running' : `state ${thread.state}`) : `in ${thread.wchan.replace(/\.constprop\.\d+$/, '')}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const parts = [...groups].sort(([leftKey, left], [rightKey, right]) => right - left || leftKey.localeCompare(rightKey)).map(([key, count]) => `${count} ${key}`);
  return `${threads.length} thread${threads.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** A process's threads from /proc (Linux); null where /proc does not have them. */
export function readThreadStates(pid: number): ThreadState[] | null {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
        return [{ state, wchan: readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').trim() }];
      } catch {
        return [];
      }
    });
  } catch {
    return null;
  }
}

/**
 * The pid of the node process whose environment has `variable=value` (the web host: `ANYBRAIN_DATA_DIR` is its own
 * data folder), on Linux; null elsewhere or when none is found. Reads /proc once, only when called.
 */
export function findProcessByEnvironment(variable: string, value: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'node') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${variable}=${value}`)) return Number(entry);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return null;
}

/** `the host (pid 123): 11 threads: …`, or why that could not be seen. */
export function describeHostThreads(dataDir: string): string {
  const pid = findProcessByEnvironment('ANYBRAIN_DATA_DIR', dataDir);
  if (pid === null) return 'the host process was not found';
  const threads = readThreadStates(pid);
  return threads === null ? `the host (pid ${pid}) had exited` : `the host (pid ${pid}): ${summariseThreads(threads)}`;
}
