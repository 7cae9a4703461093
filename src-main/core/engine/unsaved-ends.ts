/**
 * Replies whose final write the store refused (a full disk, a folder busy past the budget): the window was told they
 * failed, and their rows still say `streaming`. Each is ended in the store as soon as it takes writes again, tried every
 * second, so the store and the window agree without waiting for the process to end (after which the next start marks
 * the row interrupted).
 */
import { nowIso } from '../store/clock';
import { guardedWrite } from '../store/guarded-write';
import type { AppDatabase } from '../store/open';
import { endUnsavedReply, type UnsavedReplyEnd } from '../store/turns';

export const UNSAVED_END_RETRY_MS = 1_000;

export class UnsavedReplyEnds {
  private readonly pending = new Map<string, UnsavedReplyEnd>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: AppDatabase,
    private readonly retryMs = UNSAVED_END_RETRY_MS,
  ) {}

  add(end: UnsavedReplyEnd): void {
    this.pending.set(end.messageId, end);
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.tryAll(), this.retryMs);
    // A process that is otherwise done does not stay for them: its next start marks what is left interrupted.
    this.timer.unref();
  }

  /** Replies still waiting for the store to take their end. */
  get waiting(): number {
    return this.pending.size;
  }

  tryAll(): void {
    for (const end of this.pending.values()) {
      const written = guardedWrite('ending a reply whose end the store refused', () => endUnsavedReply(this.db, end, nowIso()));
      if (written.kind === 'written') this.pending.delete(end.messageId);
    }
    if (this.pending.size === 0) this.stop();
  }

  /** One last try, then no more. */
  dispose(): void {
    if (this.pending.size > 0) this.tryAll();
    this.pending.clear();
    this.stop();
  }

  private stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
