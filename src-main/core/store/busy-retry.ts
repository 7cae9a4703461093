/**
 * The main thread never waits for another process's writer. Once the store is open, its connection's busy wait is a
 * few milliseconds (`stopWaitingForTheWriteLock`): SQLite's busy handler sleeps on the thread that asked, so a longer
 * wait froze the window, Stop and every reply for as long as a second Anybrain, the command line or a backup tool held
 * the write lock. A write that finds the data folder busy is tried again on a timer instead, the loop free meanwhile,
 * until `BUSY_WAIT_MS` have passed; then the store's "busy" refusal stands. Reads never wait: WAL gives them the last
 * committed snapshot.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppDatabase } from './open';
import { BUSY_WAIT_MS, storeRefusalOf } from './write-failure';

/** How long the main thread's connection waits for the write lock before SQLITE_BUSY. */
export const MAIN_THREAD_BUSY_WAIT_MS = 10;

/**
 * From now on the connection waits at most `MAIN_THREAD_BUSY_WAIT_MS` for another process's write lock, and its
 * callers try again on a timer. Opening (migrations, the start-up sweeps) waits the whole `BUSY_WAIT_MS` before it:
 * nothing can go on until it is done.
 */
export function stopWaitingForTheWriteLock(db: AppDatabase): void {
  db.$client.pragma(`busy_timeout = ${MAIN_THREAD_BUSY_WAIT_MS}`);
}

/**
 * The pauses between attempts, growing to the longest, which repeats until the budget is spent: SQLite's own busy
 * handler sleeps at most 100 ms between tries, so a writer that waits here is not starved by ones that wait there.
 */
const RETRY_PAUSES_MS: readonly number[] = [5, 10, 25, 50];
const LONGEST_PAUSE_MS = 100;

/** Pauses between attempts: each `next()` waits one pause and answers `done` once the budget is spent. */
export async function* busyRetryPauses(budgetMs: number = BUSY_WAIT_MS): AsyncGenerator<void, void, void> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 0; ; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(RETRY_PAUSES_MS[attempt] ?? LONGEST_PAUSE_MS, left));
    yield;
  }
}

/**
 * Runs `write` until the store takes it, trying again while the data folder is busy, for at most `budgetMs`; then
 * throws the last refusal. A busy write changed nothing: a transaction takes the write lock before it writes.
 */
export async function writeWhenNotBusy<Value>(write: () => Value, budgetMs: number = BUSY_WAIT_MS): Promise<Value> {
  const pauses = busyRetryPauses(budgetMs);
  for (;;) {
    try {
      return write();
    } catch (error) {
      if (storeRefusalOf(error) !== 'storage-busy' || (await pauses.next()).done === true) throw error;
    }
  }
}
