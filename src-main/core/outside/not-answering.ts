/**
 * What outside Anybrain is not answering right now: the system keychain, the disk, an MCP server, a provider's server.
 * Each is reported once when it stops answering (a log line and an event to every window) and once when it answers
 * again; a window that opens later asks for the list.
 */
import type { NotAnsweringView, OutsideKind } from '../../../src-shared/api';

export type NotAnsweringListener = (list: readonly NotAnsweringView[]) => void;

export class NotAnswering {
  private readonly entries = new Map<string, NotAnsweringView>();
  private readonly listeners = new Set<NotAnsweringListener>();

  constructor(
    private readonly log: (line: string) => void = (line) => console.warn(line),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * `key` names one thing ("keychain", "mcp:files"), `subject` says it in words ("the system keychain"). A second
   * report of the same key with the same message changes nothing, so a call that keeps hanging is reported once.
   */
  report(key: string, kind: OutsideKind, subject: string, message: string): void {
    const current = this.entries.get(key);
    if (current !== undefined && current.message === message) return;
    this.entries.set(key, { key, kind, subject, message, since: current?.since ?? this.now().toISOString() });
    this.log(`Anybrain: ${message}`);
    this.changed();
  }

  /** `key` answers again. */
  answered(key: string): void {
    const current = this.entries.get(key);
    if (current === undefined) return;
    this.entries.delete(key);
    this.log(`Anybrain: ${current.subject} answers again.`);
    this.changed();
  }

  list(): NotAnsweringView[] {
    return [...this.entries.values()];
  }

  subscribe(listener: NotAnsweringListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const list = this.list();
    for (const listener of this.listeners) listener(list);
  }
}
