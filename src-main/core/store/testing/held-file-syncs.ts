import type { FileSync } from '../log-sync';

export interface HeldFileSyncs {
  readonly syncFile: FileSync;
  /** The files each sync was asked for, in order. */
  readonly paths: string[];
  /** Ends the oldest sync still running (with `error`, as a disk that refused), then lets what waited on it run. */
  finishNext(error?: Error): Promise<void>;
  /** How many syncs have started and not ended. */
  running(): number;
}

/** File syncs that end only when the test says, so a test can see what waits for the disk. */
export function heldFileSyncs(): HeldFileSyncs {
  const paths: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  return {
    paths,
    syncFile: (path) => {
      paths.push(path);
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finishNext: async (error) => {
      const next = pending.shift();
      if (next === undefined) throw new Error('no sync is running');
      if (error) next.reject(error);
      else next.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
    running: () => pending.length,
  };
}
