/**
 * What a write the store refused means to the person: SQLite's codes turned into a kind and one sentence each. The
 * dispatcher answers commands with them, and a streaming reply ends with them (engine/run-turn.ts).
 */

export type StoreRefusal = 'disk-full' | 'storage-busy' | 'storage-unavailable';

/** How long a write is tried again while another process's writer holds the lock, before the "busy" refusal (busy-retry.ts). */
export const BUSY_WAIT_MS = 5_000;

/** The refusal a SQLite error stands for, or null for an error that is not the store refusing a write. */
export function storeRefusalOf(error: unknown): StoreRefusal | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  // Extended codes keep the primary one as their prefix: SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED.
  if (code.startsWith('SQLITE_FULL')) return 'disk-full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'storage-busy';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR')) return 'storage-unavailable';
  return null;
}

export function storeRefusalMessage(refusal: StoreRefusal): string {
  switch (refusal) {
    case 'disk-full':
      return 'The disk is full, so Anybrain could not save. Free some space and try again; nothing already saved was lost.';
    case 'storage-busy':
      return (
        `Another Anybrain (a window, the web host or the command line) kept the data folder busy for ${BUSY_WAIT_MS / 1000} s, ` +
        'so this was not saved. Try again in a moment; nothing already saved was lost.'
      );
    case 'storage-unavailable':
      return 'Anybrain cannot write to its data folder. Check that the folder exists and is writable.';
    default: {
      const unknownRefusal: never = refusal;
      throw new Error(`Unknown store refusal ${String(unknownRefusal)}`);
    }
  }
}

/**
 * Why a reply stopped being written before its end: the store refused a write, or another process took the
 * conversation over (its lease lapsed, say while this computer slept, and another window answered in it).
 */
export type ReplyWriteRefusal = StoreRefusal | 'unexpected' | 'answering-elsewhere';

/** The end of a reply the store refused to keep writing: what was stored before stays, and the person is told why. */
export function replyStoreRefusalMessage(refusal: ReplyWriteRefusal): string {
  switch (refusal) {
    case 'disk-full':
      return 'The disk is full, so Anybrain stopped this reply and kept what was already saved. Free some space, then retry.';
    case 'storage-busy':
      return (
        `Another Anybrain kept the data folder busy for ${BUSY_WAIT_MS / 1000} s, so the end of this reply was not saved; ` +
        'what was already saved is kept. Retry in a moment.'
      );
    case 'storage-unavailable':
      return 'Anybrain cannot write to its data folder, so it stopped this reply and kept what was already saved. Check that the folder is writable, then retry.';
    case 'unexpected':
      return 'Anybrain could not save this reply, so it stopped it and kept what was already saved. Retry.';
    case 'answering-elsewhere':
      return 'Another window took this conversation over, so Anybrain stopped this reply and kept what was already saved. Retry once that window has answered.';
    default: {
      const unknownRefusal: never = refusal;
      throw new Error(`Unknown store refusal ${String(unknownRefusal)}`);
    }
  }
}
