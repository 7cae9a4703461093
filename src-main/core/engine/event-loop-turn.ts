/**
 * Turns of the event loop between the steps of a turn's request. Each step (admission, the walk that measures the
 * window, the read of the rows that fit, the build, the send) takes a few milliseconds at any length and tens at a long
 * history; chained through resolved promises they would run as one task, and the main process (the window's commands,
 * other turns' deltas, the web host's requests) would wait for all of them at once.
 */

/**
 * Rows a step handles in one task: reading and building cost about 10–30 µs a row on two shared cores, so a page of
 * this many stays within a few milliseconds. From this many rows a request's body is also built off the main thread
 * (see request-body-worker.ts) when a worker is at hand.
 */
export const LONG_HISTORY_ROWS = 256;

export function nextEventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
