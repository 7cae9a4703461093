/**
 * Waits that never hang and never leave a timer or a listener behind: an MCP host waits on processes that may never
 * answer, and a shutdown must end every wait at once.
 */

/** A wait ended because the host is shutting down. */
export class ShutDownError extends Error {}

/** Resolves true when the promise settles within the time, false otherwise; never leaves a timer behind. */
export async function settlesWithin(promise: Promise<unknown>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), milliseconds);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ShutDownError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ShutDownError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The promise, abandoned (not cancelled) when the caller's signal aborts. */
export function unlessAborted<Value>(promise: Promise<Value>, signal: AbortSignal | undefined): Promise<Value> {
  if (!signal) return promise;
  return new Promise<Value>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('The call was cancelled.'));
    // Handlers go on first, so an abandoned promise never rejects unhandled.
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
