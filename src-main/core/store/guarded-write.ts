/**
 * Writes made where nothing waits for a throw: a timer, an event listener, a promise nobody awaits. A throw there
 * reaches the event loop and ends the process (the web host, the command line, the desktop app's main process), so
 * every such write runs through `guardedWrite` and its caller decides what a refusal means: try again on the next
 * tick (another process's writer outlasted the busy wait), or end what it serves with the refusal's sentence.
 */
import { writeWhenNotBusy } from './busy-retry';
import { storeRefusalOf, type StoreRefusal } from './write-failure';

export type GuardedWrite<Value> =
  | { readonly kind: 'written'; readonly value: Value }
  /** `unexpected`: an error that is not the store refusing the write (logged here, with `what`). */
  | { readonly kind: 'refused'; readonly refusal: StoreRefusal | 'unexpected'; readonly error: unknown };

/** A write the store (or anything else) refused, as its caller decides on it; an error that is not the store's is logged. */
function refusedWrite(what: string, error: unknown): GuardedWrite<never> {
  const refusal = storeRefusalOf(error);
  if (refusal === null) console.warn(`Anybrain: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  return { kind: 'refused', refusal: refusal ?? 'unexpected', error };
}

export function guardedWrite<Value>(what: string, write: () => Value): GuardedWrite<Value> {
  try {
    return { kind: 'written', value: write() };
  } catch (error) {
    return refusedWrite(what, error);
  }
}

/** `guardedWrite`, tried again while the data folder is busy (store/busy-retry.ts), for at most `budgetMs`. */
export async function guardedWriteWhenNotBusy<Value>(what: string, write: () => Value, budgetMs?: number): Promise<GuardedWrite<Value>> {
  try {
    return { kind: 'written', value: await writeWhenNotBusy(write, budgetMs) };
  } catch (error) {
    return refusedWrite(what, error);
  }
}
