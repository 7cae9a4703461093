/** What every wire's pure stream mapper shares. */
import type { Usage } from '../../../src-shared/api';
import type { FinishReason, ProviderCall, StreamPart } from './stream-parts';
import { CLOSED_EARLY_MESSAGE, connectionError, errorFromThrown, malformedStreamError, namingTheBrain } from './provider-errors';

export interface StreamMappingOptions {
  /** When this aborts, the mapping ends quietly instead of reporting the cut-off stream. */
  readonly signal?: AbortSignal;
  /** The brain as the person chose it ("Kimi"): a size refusal names its window instead of "the model's". */
  readonly label?: string;
}

/** The mapping options a call carries: its abort signal, and the label its errors name. */
export function mappingOptionsFor(call: Pick<ProviderCall, 'signal' | 'label'>): StreamMappingOptions {
  return call.label === undefined ? { signal: call.signal } : { signal: call.signal, label: call.label };
}

/** Time allowed until the response headers arrive; a streamed body may take much longer. */
export const REQUEST_TIMEOUT_MS = 5 * 60_000;

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** The served model is reported once, the first time a stream names it: the announcer gives its part, then null. */
export function createModelAnnouncer(): (model: string | null) => StreamPart | null {
  let announced = false;
  return (model) => {
    if (announced || model === null || model === '') return null;
    announced = true;
    return { type: 'response-model', model };
  };
}

/**
 * A call streamed in pieces, now whole: its tool-call part, or, when its input did not read as a JSON object, the
 * error that ends the reply (the call cannot run). `field` is what the wire calls the input (`input`, `arguments`).
 */
export function streamedToolCall(
  call: { readonly id: string; readonly name: string },
  input: Record<string, unknown> | null,
  field: { readonly name: string; readonly text: string },
): StreamPart {
  if (input === null) {
    return { type: 'error', error: malformedStreamError(`the ${field.name} of tool call "${call.name}" ${field.name === 'input' ? 'is' : 'are'} not a JSON object: ${truncate(field.text, 200)}`) };
  }
  return { type: 'tool-call', providerCallId: call.id === '' ? null : call.id, name: call.name, input };
}

/** The longest refusal explanation or category kept: the provider's text is untrusted and shown in full. */
const REFUSAL_TEXT_LIMIT = 1_000;

/** A refusal part from the provider's own words; blank words count as none. */
export function refusalPart(explanation: string | null, category: string | null): StreamPart {
  const kept = (text: string | null): string | null => (text === null || text.trim() === '' ? null : truncate(text.trim(), REFUSAL_TEXT_LIMIT));
  return { type: 'refusal', explanation: kept(explanation), category: kept(category) };
}

/**
 * Yields the parts until and including the first `error`, and says whether there was one: an error ends the reply, so
 * the mapper returns and nothing (no `finish`) follows it. Every turn ends with exactly one terminal part.
 */
export function* untilError(parts: Iterable<StreamPart>): Generator<StreamPart, boolean> {
  for (const part of parts) {
    yield part;
    if (part.type === 'error') return true;
  }
  return false;
}

/**
 * How a wire's mapping loop ended: it yielded its own terminal part (`ended`), or its stream ran out, before the
 * provider said the reply was over (`cut-off`) or after (`closing`: the parts that finish the reply).
 */
export type MappingEnd = 'ended' | 'cut-off' | { readonly closing: readonly StreamPart[] };

/** A reply that ran to its end: the parts before `finish` (a call completed last), its usage when sent, then `finish`. */
export function closingParts(before: readonly StreamPart[], usage: Usage | null, reason: FinishReason, rawReason: string): MappingEnd {
  return { closing: [...before, ...(usage === null ? [] : [{ type: 'usage', usage } as const]), { type: 'finish', reason, rawReason }] };
}

/**
 * The end every wire's stream shares, so each reply ends with exactly one terminal part: a throw from the event source
 * (a dropped connection, an idle timeout) becomes one `error` part, a stream cut off before its end becomes a
 * connection error, and an abort (Stop, shutdown) ends quietly: the engine records the stop itself. Error parts name
 * the brain where the options give its label.
 */
export async function* withStreamEnding(parts: AsyncGenerator<StreamPart, MappingEnd>, options: StreamMappingOptions): AsyncGenerator<StreamPart> {
  const { label } = options;
  const named = (part: StreamPart): StreamPart => (label === undefined || part.type !== 'error' ? part : { type: 'error', error: namingTheBrain(part.error, label) });
  let end: MappingEnd | null = null;
  try {
    // Stepped by hand rather than `yield*`, so each part passes through `named` here instead of in one more generator:
    // every layer costs every delta of the reply its own promise turns.
    for (;;) {
      const step = await parts.next();
      if (step.done === true) {
        end = step.value;
        break;
      }
      yield named(step.value);
    }
  } catch (thrown) {
    if (options.signal?.aborted) return;
    yield named({ type: 'error', error: errorFromThrown(thrown) });
    return;
  } finally {
    // The reader stopped early (Stop, a failed turn): the mapper's own `finally` closes the provider's stream.
    if (end === null) await parts.return('ended');
  }
  if (end === 'ended' || options.signal?.aborted) return;
  if (end === 'cut-off') {
    yield { type: 'error', error: connectionError(CLOSED_EARLY_MESSAGE) };
    return;
  }
  for (const part of end.closing) yield named(part);
}
