import { useEffect, useState } from 'react';
import { errorText } from '../state/api-client';

/** What the main process answered, or why it could not. */
export type Answer<Value> = { readonly status: 'ready'; readonly value: Value } | { readonly status: 'error'; readonly message: string };

/**
 * Asks the main process again whenever `key` changes, dropping answers to an earlier key. Returns the last answer (it
 * may belong to an earlier key while the new one is asked: `current` says whether it is the key's own).
 */
export function useAnswerFor<Value>(key: string, ask: () => Promise<Value>): { readonly answer: Answer<Value> | null; readonly current: boolean } {
  const [held, setHeld] = useState<{ readonly key: string; readonly answer: Answer<Value> } | null>(null);
  useEffect(() => {
    let live = true;
    ask().then(
      (value) => {
        if (live) setHeld({ key, answer: { status: 'ready', value } });
      },
      (error: unknown) => {
        if (live) setHeld({ key, answer: { status: 'error', message: errorText(error) } });
      },
    );
    return () => {
      live = false;
    };
    // `ask` is a new function each render; the key names everything it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { answer: held?.answer ?? null, current: held !== null && held.key === key };
}
