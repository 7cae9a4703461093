import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeHostThreads,
  findProcessByEnvironment,
  formatDuration,
  lapsedMessage,
  readThreadStates,
  summariseThreads,
  tailLines,
  WaitLapsedError,
  within,
} from './bounded-wait';

/** A promise that never settles, as a reply that never completes. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

describe('a bounded wait', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the value when it comes in time, observes nothing and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const observe = vi.fn(() => 'unused');
    const waited = within(new Promise<string>((resolve) => setTimeout(() => resolve('complete'), 1_000)), { what: 'the reply never came', withinMs: 240_000, observe });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(waited).resolves.toBe('complete');
    expect(observe).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails at the bound with what never came and what was seen, observed only then', async () => {
    vi.useFakeTimers();
    const observe = vi.fn(() => 'the window last showed status streaming with 812 characters');
    const waited = within(never(), { what: 'the reply never reached status complete', withinMs: 240_000, observe });
    const outcome = waited.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(239_999);
    expect(observe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(WaitLapsedError);
    expect((error as Error).message).toBe('the reply never reached status complete within 240 s: the window last showed status streaming with 812 characters');
    expect(observe).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('awaits an asynchronous observation and then abandons what it waited on', async () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const waited = within(never(), {
      what: 'the fake brains process never printed its address',
      withinMs: 60_000,
      observe: async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        order.push('observed');
        return 'the process (pid 42) was still running';
      },
      abandon: () => order.push('abandoned'),
    });
    const outcome = waited.catch((error: unknown) => (error as Error).message);
    await vi.advanceTimersByTimeAsync(60_500);
    expect(await outcome).toBe('the fake brains process never printed its address within 60 s: the process (pid 42) was still running');
    expect(order).toEqual(['observed', 'abandoned']);
  });

  it('says so when the observation itself hangs or fails, instead of hanging in turn', async () => {
    vi.useFakeTimers();
    const hanging = within(never(), { what: 'the window never loaded', withinMs: 1_500, observe: never, observeWithinMs: 10_000 }).catch((error: unknown) => (error as Error).message);
    const failing = within(never(), {
      what: 'the trace never came',
      withinMs: 500,
      observe: () => {
        throw new Error('Target page, context or browser has been closed\nCall log: …');
      },
    }).catch((error: unknown) => (error as Error).message);
    await vi.advanceTimersByTimeAsync(11_500);
    expect(await hanging).toBe('the window never loaded within 1.5 s: (nothing could be observed within 10 s)');
    expect(await failing).toBe('the trace never came within 500 ms: (observing failed: Target page, context or browser has been closed)');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes on the work’s own failure unchanged, without observing', async () => {
    const observe = vi.fn(() => 'unused');
    const failure = new Error('send failed: busy: a turn is running');
    await expect(within(Promise.reject(failure), { what: 'the turn never ended', withinMs: 1_000, observe })).rejects.toBe(failure);
    expect(observe).not.toHaveBeenCalled();
  });

  it('handles the work failing after the bound lapsed (no unhandled rejection)', async () => {
    let reject: (error: Error) => void = () => {};
    const work = new Promise<never>((_resolve, rejectWork) => (reject = rejectWork));
    await expect(within(work, { what: 'the page never answered', withinMs: 5 })).rejects.toThrow('the page never answered within 5 ms');
    // Playwright rejects a pending wait when the browser closes, after the test has failed on the bound.
    reject(new Error('Target closed'));
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('words durations and messages', () => {
    expect([formatDuration(250), formatDuration(1_000), formatDuration(1_500), formatDuration(240_000), formatDuration(99.6)]).toEqual(['250 ms', '1 s', '1.5 s', '240 s', '100 ms']);
    expect(lapsedMessage('the reply never came', 30_000, null)).toBe('the reply never came within 30 s');
    expect(lapsedMessage('the reply never came', 30_000, '')).toBe('the reply never came within 30 s');
    expect(lapsedMessage('the reply never came', 30_000, 'the host had exited')).toBe('the reply never came within 30 s: the host had exited');
  });

  it('keeps the last lines of a process’s output', () => {
    expect(tailLines('one\ntwo\n\nthree  \nfour\n', 3)).toBe('two | three | four');
    expect(tailLines('', 3)).toBe('');
  });
});

describe("a process's threads", () => {
  it('are grouped by where they wait, largest group first', () => {
    const threads = [
      { state: 'S', wchan: 'do_epoll_wait' },
      { state: 'S', wchan: 'do_epoll_wait' },
      ...Array.from({ length: 5 }, () => ({ state: 'S', wchan: 'futex_do_wait' })),
      ...Array.from({ length: 4 }, () => ({ state: 'S', wchan: 'poll_schedule_timeout.constprop.0' })),
      { state: 'R', wchan: '0' },
      { state: 'D', wchan: '' },
    ];
    expect(summariseThreads(threads)).toBe('13 threads: 5 in futex_do_wait, 4 in poll_schedule_timeout, 2 in do_epoll_wait, 1 running, 1 state D');
    expect(summariseThreads([{ state: 'S', wchan: 'do_epoll_wait' }])).toBe('1 thread: 1 in do_epoll_wait');
  });

  it.runIf(process.platform === 'linux')('are read from /proc, and a host is found by its data folder', async () => {
    const own = readThreadStates(process.pid);
    expect(own).not.toBeNull();
    expect(own!.length).toBeGreaterThan(0);
    expect(readThreadStates(2 ** 22 + 1)).toBeNull();

    const dataDir = `/tmp/anybrain-bounded-wait-${process.pid}-${Date.now()}`;
    expect(describeHostThreads(dataDir)).toBe('the host process was not found');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { env: { ...process.env, ANYBRAIN_DATA_DIR: dataDir }, stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      // The environment is the child's own once it has exec'd node.
      let pid: number | null = null;
      for (let attempt = 0; attempt < 100 && pid === null; attempt += 1) {
        pid = findProcessByEnvironment('ANYBRAIN_DATA_DIR', dataDir);
        if (pid === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(pid).toBe(child.pid);
      expect(describeHostThreads(dataDir)).toMatch(new RegExp(`^the host \\(pid ${child.pid}\\): \\d+ threads?: \\d+ `));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
