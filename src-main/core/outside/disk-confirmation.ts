/**
 * Waiting for the disk to confirm a write, with a time limit. Commits never wait for the disk (store/log-sync.ts);
 * what tells the person "saved" (a finished reply, a command's answer) waits for the log's sync, but a disk that has
 * stopped answering (a network folder, a failing drive, a system under heavy write load) must not stop the window:
 * past the limit the answer goes out anyway, since the write is already in the database and survives Anybrain
 * itself stopping, and the disk is reported as not answering until that sync comes back.
 */
import { NotAnswering } from './not-answering';
import { answeredWithin } from './time-limit';

/** How long a reply's end or a command's answer waits for the disk before going on without its confirmation. */
export const DISK_CONFIRM_WAIT_MS = 2_000;

const NOT_ANSWERING_KEY = 'disk';

export class DiskConfirmation {
  private waiting = 0;

  constructor(
    private readonly notAnswering: NotAnswering = new NotAnswering(),
    private readonly waitMs: number = DISK_CONFIRM_WAIT_MS,
  ) {}

  /**
   * Resolves when `sync` does, or after the wait with the disk reported as not answering; never rejects (a sync the
   * disk refused is logged with `what`: "saving a reply").
   */
  async confirm(sync: Promise<void>, what: string): Promise<void> {
    this.waiting += 1;
    const settled = sync.then(
      () => undefined,
      (refusal: unknown) => {
        // SQLite has the write and shows it; only a power cut before the disk recovers could still lose it.
        console.warn(`Anybrain: the disk did not confirm ${what}: ${refusal instanceof Error ? refusal.message : String(refusal)}`);
      },
    );
    void settled.then(() => {
      this.waiting -= 1;
      if (this.waiting === 0) this.notAnswering.answered(NOT_ANSWERING_KEY);
    });
    if ((await answeredWithin(settled, this.waitMs)).kind === 'late') {
      this.notAnswering.report(
        NOT_ANSWERING_KEY,
        'disk',
        'the disk',
        `The disk has not confirmed Anybrain's writes for ${this.waitMs / 1000} s: what you see is saved, but a power cut now could still lose it.`,
      );
    }
  }
}
