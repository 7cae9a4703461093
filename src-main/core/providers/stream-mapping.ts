/** What every wire's pure stream mapper shares. */
import type { StreamPart } from './stream-parts';

export interface StreamMappingOptions {
  /** When this aborts, the mapping ends quietly instead of reporting the cut-off stream. */
  readonly signal?: AbortSignal;
}

/** Time allowed until the response headers arrive; a streamed body may take much longer. */
export const REQUEST_TIMEOUT_MS = 5 * 60_000;

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** The served model is reported once, the first time a stream names it. */
export function createModelAnnouncer(): (model: string | null) => StreamPart | null {
  let announced = false;
  return (model) => {
    if (announced || model === null || model === '') return null;
    announced = true;
    return { type: 'response-model', model };
  };
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
