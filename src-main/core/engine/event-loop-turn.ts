/**
 * Turns of the event loop between the steps of a long turn's request. At a long history each step (the walk that
 * measures the window, the read of the rows that fit, the build, the send) takes from a few to tens of milliseconds;
 * chained through resolved promises they would run as one task, and the main process (the window's commands, other
 * turns' deltas, the web host's requests) would wait for all of them at once. A short history is built in well under
 * a millisecond a step and goes out within the task that admitted it.
 */

/** From this many rows a step takes milliseconds (reading and building cost about 30 µs a row on two shared cores). */
export const LONG_HISTORY_ROWS = 256;

export function nextEventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A turn of the event loop when the request holds a long history; nothing otherwise. */
export async function betweenSteps(historyRows: number): Promise<void> {
  if (historyRows >= LONG_HISTORY_ROWS) await nextEventLoopTurn();
}
