import { useCallback, useEffect, useState } from 'react';

export type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied" (or "Copy failed") shows after a copy. */
export const COPY_NOTE_MS = 1_500;

/** Copies text to the clipboard and says how it went for a moment, then goes back to idle. */
export function useCopy(): { readonly copyState: CopyState; readonly copy: (text: string) => Promise<void> } {
  const [copyState, setCopyState] = useState<CopyState>('idle');

  useEffect(() => {
    if (copyState === 'idle') return;
    const timer = setTimeout(() => setCopyState('idle'), COPY_NOTE_MS);
    return () => clearTimeout(timer);
  }, [copyState]);

  const copy = useCallback(async (text: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  }, []);

  return { copyState, copy };
}
