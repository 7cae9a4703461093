/**
 * The calls to things outside Anybrain that are under way right now (a sync of the write-ahead log, a keychain read,
 * an MCP server listing its tools), so the watchdog can name what holds the main loop or the thread pool when either
 * stops moving. One registry per process: the calls are made from modules that share nothing else.
 */

export interface PendingCall {
  readonly label: string;
  readonly since: number;
}

export class PendingCalls {
  private readonly calls = new Set<PendingCall>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `call` as under way until it settles; returns it unchanged. */
  track<T>(label: string, call: Promise<T>): Promise<T> {
    const entry = { label, since: this.now() };
    this.calls.add(entry);
    this.changed();
    const settle = (): void => {
      this.calls.delete(entry);
      this.changed();
    };
    call.then(settle, settle);
    return call;
  }

  /** The calls under way, oldest first. */
  list(): PendingCall[] {
    return [...this.calls].sort((left, right) => left.since - right.since);
  }

  /** `syncing the write-ahead log (for 12 s), the system keychain: read (for 40 s)`, oldest first; `none` when empty. */
  describe(): string {
    const now = this.now();
    const calls = this.list();
    if (calls.length === 0) return 'none';
    return calls.map((call) => `${call.label} (for ${Math.round((now - call.since) / 100) / 10} s)`).join(', ');
  }

  /** Told whenever a call starts or ends. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

export const pendingCalls = new PendingCalls();
