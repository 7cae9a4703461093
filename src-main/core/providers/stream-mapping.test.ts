import { describe, expect, it } from 'vitest';
import { ProviderFailure, classifyProviderFailure, CLOSED_EARLY_MESSAGE } from './provider-errors';
import { withStreamEnding, type MappingEnd } from './stream-mapping';
import type { StreamPart } from './stream-parts';
import { collect } from './testing/recorded-streams';

const SIZE_REFUSAL = classifyProviderFailure({ status: 400, message: 'Invalid request: Your request exceeded model token limit: 262144' });
const FINISH: StreamPart = { type: 'finish', reason: 'stop', rawReason: 'stop' };

/** A mapper's generator over `parts`, ending as `end` or throwing `failure`, that records whether its `finally` ran. */
function mapper(parts: readonly StreamPart[], end: MappingEnd | { readonly failure: unknown }) {
  const state = { closed: false };
  async function* generate(): AsyncGenerator<StreamPart, MappingEnd> {
    try {
      yield* parts;
      if (typeof end === 'object' && 'failure' in end) throw end.failure;
      return end;
    } finally {
      state.closed = true;
    }
  }
  return { state, parts: generate() };
}

describe('withStreamEnding', () => {
  it('passes the parts through, then the closing parts', async () => {
    const { parts } = mapper([{ type: 'text-delta', text: 'Hi' }], { closing: [FINISH] });
    expect(await collect(withStreamEnding(parts, {}))).toEqual([{ type: 'text-delta', text: 'Hi' }, FINISH]);
  });

  it('reports a stream cut off before its end as a connection error', async () => {
    const { parts } = mapper([{ type: 'text-delta', text: 'Hi' }], 'cut-off');
    expect(await collect(withStreamEnding(parts, {}))).toEqual([
      { type: 'text-delta', text: 'Hi' },
      { type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } },
    ]);
  });

  it('names the brain in a size refusal the mapper yields or the source throws, where the options give its label', async () => {
    const yielded = mapper([{ type: 'error', error: SIZE_REFUSAL }], 'ended');
    const thrown = mapper([], { failure: new ProviderFailure(SIZE_REFUSAL) });
    const named = { type: 'error', error: { ...SIZE_REFUSAL, message: SIZE_REFUSAL.message.replace("the model's window", "Kimi's window") } };
    expect(named.error.message).toContain("too large for Kimi's window");
    expect(await collect(withStreamEnding(yielded.parts, { label: 'Kimi' }))).toEqual([named]);
    expect(await collect(withStreamEnding(thrown.parts, { label: 'Kimi' }))).toEqual([named]);
    const unnamed = mapper([{ type: 'error', error: SIZE_REFUSAL }], 'ended');
    expect(await collect(withStreamEnding(unnamed.parts, {}))).toEqual([{ type: 'error', error: SIZE_REFUSAL }]);
  });

  it('ends quietly when the signal aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { parts } = mapper([{ type: 'text-delta', text: 'Hi' }], { failure: new Error('aborted') });
    expect(await collect(withStreamEnding(parts, { signal: controller.signal }))).toEqual([{ type: 'text-delta', text: 'Hi' }]);
  });

  it('closes the mapper (and with it the provider stream) when the reader stops early', async () => {
    const { state, parts } = mapper(
      [
        { type: 'text-delta', text: 'one' },
        { type: 'text-delta', text: 'two' },
      ],
      { closing: [FINISH] },
    );
    for await (const part of withStreamEnding(parts, {})) {
      expect(part).toEqual({ type: 'text-delta', text: 'one' });
      break;
    }
    expect(state.closed).toBe(true);
  });
});
