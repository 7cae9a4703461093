import { useState } from 'react';
import { errorText } from '../state/api-client';

export interface BusyChange {
  readonly busy: boolean;
  readonly error: string | null;
  readonly setError: (error: string | null) => void;
  /** Runs `change` with `busy` set, keeping the Api's refusal as `error`. Resolves true once it went through. */
  readonly run: (change: () => Promise<void>) => Promise<boolean>;
}

/** The busy flag and error line a settings control keeps around the change it asked for. */
export function useBusyChange(): BusyChange {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (change: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await change();
      return true;
    } catch (caught) {
      setError(errorText(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, setError, run };
}
