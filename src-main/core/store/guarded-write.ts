/**
 * Writes made where nothing waits for a throw: a timer, an event listener, a promise nobody awaits. A throw there
 * reaches the event loop and ends the process (the web host, the command line, the desktop app's main process), so
 * every such write runs through `guardedWrite` and its caller decides what a refusal means: try again on the next
 * tick (another process's writer outlasted the busy wait), or end what it serves with the refusal's sentence.
 */
import { busyRetryPauses } from './busy-retry';
import { storeRefusalOf, type StoreRefusal } from './write-failure';

export type GuardedWrite<Value> =
  | { readonly kind: 'written'; readonly value: Value }
  /** `unexpected`: an error that is not the store refusing the write (logged here, with `what`). */
  | { readonly kind: 'refused'; readonly refusal: StoreRefusal | 'unexpected'; readonly error: unknown };

export function guardedWrite<Value>(what: string, write: () => Value): GuardedWrite<Value> {
  try {
    return { kind: 'written', value: write() };
  } catch (error) {
    const refusal = storeRefusalOf(error);
    if (refusal === null) console.warn(`Anybrain: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'refused', refusal: refusal ?? 'unexpected', error };
  }
}

/** `guardedWrite`, tried again while the data folder is busy (store/busy-retry.ts), for at most `budgetMs`. */
export async function guardedWriteWhenNotBusy<Value>(what: string, write: () => Value, budgetMs?: number): Promise<GuardedWrite<Value>> {
  const pauses = busyRetryPauses(budgetMs);
  for (;;) {
    const written = guardedWrite(what, write);
    if (written.kind === 'written' || written.refusal !== 'storage-busy' || (await pauses.next()).done === true) return written;
  }
}
