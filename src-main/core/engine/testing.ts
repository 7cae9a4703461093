/** Test support for the engine: a provider stream the test feeds part by part. */
import type { ProviderCall, StreamPart } from '../providers/stream-parts';

/** A provider stream the test feeds part by part. */
export class ScriptedStream {
  readonly calls: ProviderCall[] = [];
  private queue: Array<StreamPart | 'end'> = [];
  private wake: (() => void) | null = null;

  push(...parts: Array<StreamPart | 'end'>): void {
    this.queue.push(...parts);
    this.wake?.();
  }

  readonly stream = (call: ProviderCall): AsyncIterable<StreamPart> => {
    this.calls.push(call);
    return this.parts(call.signal);
  };

  private async *parts(signal: AbortSignal): AsyncIterable<StreamPart> {
    for (;;) {
      const next = this.queue.shift();
      if (next === undefined) {
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        continue;
      }
      if (next === 'end') return;
      yield next;
    }
  }
}

