/**
 * Streaming POSTs over plain `fetch`, for the wires without an SDK here (ollama-chat, gemini-generate-content).
 * Failures before the body starts become `ProviderFailure`s, so the stream mappers report them as error parts.
 */
import { ProviderFailure, connectionError, hostOf, retryAfterSecondsFrom } from './provider-errors';
import { REQUEST_TIMEOUT_MS } from './stream-mapping';
import type { ProviderError } from './stream-parts';
import { watchedFetch, type StreamWatch } from './watched-fetch';

export interface StreamingPost {
  readonly url: string;
  /** Used in messages instead of the full URL, which may carry a key in its query. */
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The body already serialised (see encoded-body.ts): sent in place of `body`. */
  readonly encodedBody?: Uint8Array<ArrayBuffer>;
  readonly signal: AbortSignal;
  readonly watch: StreamWatch;
  /** Reads the provider's own error body for a non-2xx answer; `retryAfterSeconds` from its `retry-after` headers. */
  readonly describeHttpError: (status: number, bodyText: string, retryAfterSeconds: number | null) => ProviderError;
}

export async function postForStream(request: StreamingPost): Promise<AsyncIterable<Uint8Array>> {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(request.signal.reason);
  if (request.signal.aborted) forwardAbort();
  request.signal.addEventListener('abort', forwardAbort, { once: true });
  // The timeout covers the wait for headers only: a long reply may stream for many minutes.
  const timeout = setTimeout(() => controller.abort(new Error('timeout')), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await watchedFetch(request.watch)(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.encodedBody ?? JSON.stringify(request.body),
      signal: controller.signal,
    });
  } catch (thrown) {
    if (request.signal.aborted) throw thrown;
    if (controller.signal.aborted) throw new ProviderFailure(connectionError(`${hostOf(request.baseUrl)} did not answer in time.`));
    const cause = thrown instanceof Error && thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
    throw new ProviderFailure(connectionError(`Could not connect to ${hostOf(request.baseUrl)}${cause}.`));
  } finally {
    clearTimeout(timeout);
  }
  if (!response.ok) {
    const bodyText = await response.text().catch(() => '');
    throw new ProviderFailure(request.describeHttpError(response.status, bodyText, retryAfterSecondsFrom(response.headers)));
  }
  if (response.body === null) throw new ProviderFailure(connectionError(`${hostOf(request.baseUrl)} answered without a body.`));
  // Node's web streams are async iterable; TypeScript's DOM lib (which highlight.js's types pull into this program)
  // types `ReadableStream` without `Symbol.asyncIterator`.
  return response.body as unknown as AsyncIterable<Uint8Array>;
}

/** Newline-delimited JSON (Ollama): one value a line; a line that is not JSON throws `SyntaxError`. */
export async function* readJsonLines(chunks: AsyncIterable<Uint8Array>): AsyncIterable<unknown> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let lineEnd = pending.indexOf('\n');
    while (lineEnd >= 0) {
      const line = pending.slice(0, lineEnd).trim();
      pending = pending.slice(lineEnd + 1);
      if (line !== '') yield JSON.parse(line) as unknown;
      lineEnd = pending.indexOf('\n');
    }
  }
  const rest = (pending + decoder.decode()).trim();
  if (rest !== '') yield JSON.parse(rest) as unknown;
}

export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
