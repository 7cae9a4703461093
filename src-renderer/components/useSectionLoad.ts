import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../state/api-client';

interface SectionLoad {
  /** Why the last load failed, or null. */
  readonly error: string | null;
  readonly retry: () => void;
}

/** Runs a settings section's loader when the section mounts and on each retry. `load` must be a stable function. */
export function useSectionLoad(load: () => Promise<void>): SectionLoad {
  const [attempt, setAttempt] = useState(0);
  const [failure, setFailure] = useState<{ readonly attempt: number; readonly message: string } | null>(null);

  useEffect(() => {
    let current = true;
    load().catch((caught: unknown) => {
      if (current) setFailure({ attempt, message: errorText(caught) });
    });
    return () => {
      current = false;
    };
  }, [load, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { error: failure?.attempt === attempt ? failure.message : null, retry };
}
