/**
 * Streamed text reaches the window at most once per frame: the first delta goes at once, later ones are batched.
 * One send per token is what freezes a renderer.
 */
export class DeltaCoalescer {
  private pending = '';
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sentAny = false;

  constructor(
    private readonly send: (textDelta: string) => void,
    private readonly intervalMs = 16,
  ) {}

  push(textDelta: string): void {
    if (textDelta.length === 0) return;
    if (!this.sentAny) {
      this.sentAny = true;
      this.send(textDelta);
      return;
    }
    this.pending += textDelta;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends whatever is pending now; called before a turn's final state is stored, so shown text equals stored text. */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const textDelta = this.pending;
    this.pending = '';
    this.send(textDelta);
  }
}
