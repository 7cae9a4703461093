/**
 * The longest task on this process's main thread, as a timer that ticks every millisecond sees it.
 *
 * The gap between two ticks is the loop's delay: the tasks it ran in between, plus the time the loop sat idle in the
 * kernel waiting for its next event before the machine woke it. On a shared machine that wake-up alone can take 20 ms
 * with nothing running. libuv counts the time it spends waiting (`performance.eventLoopUtilization`), so the busy part
 * of a gap is the loop's task (or run of tasks with no turn between them). That busy part is what a window or the web
 * host waits on. The whole gap is shown beside it.
 */
import { performance } from 'node:perf_hooks';

/** The loop's clock: the time, and how much of it the loop has spent busy (not waiting for an event), both in ms. */
export interface LoopClock {
  now(): number;
  busyMs(): number;
}

export const processLoopClock: LoopClock = {
  now: () => performance.now(),
  busyMs: () => performance.eventLoopUtilization().active,
};

export interface LoopPhase {
  /** The most time the loop spent busy between two of its turns. */
  readonly longestTaskMs: number;
  /** The longest gap between two of its turns, idle wake-ups included. */
  readonly longestDelayMs: number;
}

export class LoopWatch {
  private readonly ticker: ReturnType<typeof setInterval>;
  private lastAt: number;
  private lastBusy: number;
  private longestTaskMs = 0;
  private longestDelayMs = 0;

  constructor(private readonly clock: LoopClock = processLoopClock) {
    this.lastAt = clock.now();
    this.lastBusy = clock.busyMs();
    this.ticker = setInterval(() => this.sample(), 1);
  }

  /** What the loop did since the watch started or the last phase ended; the next phase starts now. */
  endPhase(): LoopPhase {
    // Called from inside a task: the part of it run so far belongs to the phase that is ending.
    this.sample();
    const phase = { longestTaskMs: this.longestTaskMs, longestDelayMs: this.longestDelayMs };
    this.longestTaskMs = 0;
    this.longestDelayMs = 0;
    return phase;
  }

  dispose(): void {
    clearInterval(this.ticker);
  }

  private sample(): void {
    const at = this.clock.now();
    const busy = this.clock.busyMs();
    this.longestDelayMs = Math.max(this.longestDelayMs, at - this.lastAt);
    this.longestTaskMs = Math.max(this.longestTaskMs, busy - this.lastBusy);
    this.lastAt = at;
    this.lastBusy = busy;
  }
}
