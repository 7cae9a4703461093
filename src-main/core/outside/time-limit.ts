/** A wait for an outside call with a time limit; the call itself goes on (a promise cannot be stopped). */
export type WithinLimit<T> = { readonly kind: 'answered'; readonly value: T } | { readonly kind: 'late' };

/** The call's answer if it comes within `limitMs`, else `late`; a failure within the limit rejects. Leaves no timer. */
export function answeredWithin<T>(call: Promise<T>, limitMs: number): Promise<WithinLimit<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<WithinLimit<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'late' }), Math.max(0, limitMs));
  });
  return Promise.race([call.then((value): WithinLimit<T> => ({ kind: 'answered', value })), late]).finally(() => clearTimeout(timer));
}
