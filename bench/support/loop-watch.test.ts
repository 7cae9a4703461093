import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopWatch } from './loop-watch';

describe('the loop watch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells a task from a slow wake-up, and splits its phases where asked', () => {
    vi.useFakeTimers();
    const clock = { at: 0, busy: 0 };
    const watch = new LoopWatch({ now: () => clock.at, busyMs: () => clock.busy });
    const tickAt = (at: number, busy: number): void => {
      clock.at = at;
      clock.busy = busy;
      vi.advanceTimersByTime(1);
    };
    try {
      tickAt(20, 0.5); // asleep for 20 ms, half a millisecond of it running the loop
      tickAt(33, 12.5); // a 12 ms task
      tickAt(34, 13);
      clock.at = 36; // the phase ends inside a 2 ms task
      clock.busy = 15;
      expect(watch.endPhase()).toEqual({ longestTaskMs: 12, longestDelayMs: 20 });
      tickAt(37, 15.5);
      tickAt(40, 18.5);
      expect(watch.endPhase()).toEqual({ longestTaskMs: 3, longestDelayMs: 3 });
    } finally {
      watch.dispose();
    }
  });

  it('sees a task that holds the real loop', async () => {
    const watch = new LoopWatch();
    try {
      await sleep(5);
      watch.endPhase();
      const started = performance.now();
      while (performance.now() - started < 30) {
        // holding the loop, as a long synchronous task does
      }
      await sleep(5);
      const phase = watch.endPhase();
      expect(phase.longestTaskMs).toBeGreaterThanOrEqual(30);
      expect(phase.longestDelayMs).toBeGreaterThanOrEqual(30);
    } finally {
      watch.dispose();
    }
  });
});
