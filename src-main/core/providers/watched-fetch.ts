/**
 * The `fetch` every wire sends through, the SDKs included (as their `fetch` option): it gives up a body that goes quiet
 * for longer than the wire's idle limit, and names a JSON answer where a stream was expected. Both failures reach the
 * stream reader as a `ProviderFailure` thrown from the body, so each wire reports them through its normal error path.
 *
 * Without the idle limit a stalled stream ends only when undici's body timeout (300 s) cuts the socket, as a vague
 * "connection closed".
 */
import type { WireId } from '../../../src-shared/brains';
import { isRecord, stringField } from './json-fields';
import { ProviderFailure, formatSeconds, hostOf } from './provider-errors';
import { truncate } from './stream-mapping';
import type { ProviderCall, ProviderError, ProviderSilence } from './stream-parts';

/**
 * How long a streaming body may send nothing before the request is given up, per wire. Each wire sends something well
 * within this while the model works: Anthropic a `ping` event every few seconds, the others a chunk per token; a
 * reasoning model that thinks silently still streams reasoning or keep-alive events.
 */
export const STREAM_IDLE_TIMEOUT_MS: Readonly<Record<WireId, number>> = {
  'anthropic-messages': 90_000,
  'openai-responses': 90_000,
  'chat-completions': 90_000,
  'gemini-generate-content': 90_000,
  'ollama-chat': 90_000,
};

/** A JSON answer longer than this is not read further: the start names what came back. */
const JSON_ANSWER_READ_LIMIT = 64 * 1024;
const PROVIDER_TEXT_LIMIT = 300;

export interface StreamWatch {
  readonly idleTimeoutMs: number;
  /** Who the failure messages name: the brain's label, else the provider's host. */
  readonly label: string;
  readonly silence?: ProviderSilence;
}

export function streamWatchFor(call: Pick<ProviderCall, 'wire' | 'baseUrl' | 'label' | 'idleTimeoutMs' | 'silence'>): StreamWatch {
  return {
    idleTimeoutMs: call.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS[call.wire],
    label: call.label ?? hostOf(call.baseUrl),
    ...(call.silence === undefined ? {} : { silence: call.silence }),
  };
}

/** Runs `request`, telling `silence` when no response has come after its delay, and when one (or a failure) then does. */
async function heardWithin<T>(request: Promise<T>, silence: ProviderSilence | undefined): Promise<T> {
  if (silence === undefined) return request;
  let told = false;
  const timer = setTimeout(() => {
    told = true;
    silence.silent();
  }, silence.afterMs);
  try {
    return await request;
  } finally {
    clearTimeout(timer);
    if (told) silence.answered();
  }
}

export function stalledError(watch: StreamWatch): ProviderError {
  return {
    code: 'provider-stalled',
    message: `${watch.label} stopped sending for ${formatSeconds(watch.idleTimeoutMs / 1000)} s; the reply so far is kept. Retry, or switch brain.`,
    retryable: true,
  };
}

/** HTTP 200 with `application/json` where a stream was asked for: says what came back, with the provider's own words. */
export function notAStreamError(watch: StreamWatch, bodyText: string): ProviderError {
  const parsed = parseJson(bodyText);
  const providerText = parsed.ok ? errorTextIn(parsed.value) : null;
  if (providerText !== null) {
    return {
      code: 'not-a-stream',
      message: `${watch.label} answered with a JSON error instead of a stream (HTTP 200): ${truncate(providerText, PROVIDER_TEXT_LIMIT)}`,
      retryable: true,
    };
  }
  const what = parsed.ok ? describeJson(parsed.value) : `a body that is not valid JSON (${truncate(collapseSpace(bodyText), 100) || 'empty'})`;
  return {
    code: 'not-a-stream',
    message: `${watch.label} answered with ${what} instead of a stream (HTTP 200, application/json). A proxy in between, or a server that does not stream, may have answered.`,
    retryable: false,
  };
}

/** HTTP 200 with an HTML page where a stream was asked for: a captive portal, a proxy's login or error page. */
export function htmlInsteadOfStreamError(watch: StreamWatch, bodyText: string): ProviderError {
  const title = collapseSpace(/<title[^>]*>([^<]*)<\/title>/i.exec(bodyText)?.[1] ?? '');
  return {
    code: 'not-a-stream',
    message: `${watch.label} answered with an HTML page${title === '' ? '' : ` ("${truncate(title, 100)}")`} instead of a stream (HTTP 200, text/html). A proxy, captive portal or wrong base URL may have answered.`,
    retryable: false,
  };
}

/**
 * A `fetch` whose responses carry a watched body. Error statuses keep their status, headers and body text, so the SDKs
 * and `postForStream` read the provider's error body and `retry-after` as before; only a stall there ends them early.
 */
export function watchedFetch(watch: StreamWatch): typeof fetch {
  return async (input, init) => {
    // Our own controller, so a stall can close the socket whatever signal the caller passed.
    const controller = new AbortController();
    const callerSignal = init?.signal ?? null;
    const forwardAbort = (): void => controller.abort(callerSignal?.reason);
    // The caller's signal may outlive this request (a turn's signal spans its tool rounds): let go of it once done.
    const release = (): void => callerSignal?.removeEventListener('abort', forwardAbort);
    if (callerSignal?.aborted) forwardAbort();
    else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
    let response: Response;
    try {
      response = await heardWithin(fetch(input, { ...init, signal: controller.signal }), watch.silence);
    } catch (thrown) {
      release();
      throw thrown;
    }
    if (response.body === null) {
      release();
      return response;
    }
    // Error bodies are watched too: a gateway that stalls while sending its error page ends the same way.
    const body = watchIdle(response.body, watch, () => controller.abort(new Error('stalled')), release);
    const answerKind = response.ok ? notAStreamKind(response) : null;
    const watched = answerKind === null ? body : failWithWholeAnswer(body, watch, answerKind);
    return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** What a successful answer is instead of a stream: JSON (a proxy, an error object) or HTML (a captive portal, a login page). */
type NotAStreamKind = 'json' | 'html';

function notAStreamKind(response: Response): NotAStreamKind | null {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'text/html') return 'html';
  return null;
}

/**
 * Passes the body through, one chunk per read, and errors it with a `provider-stalled` failure when a read waits longer
 * than the idle limit. The clock runs only while the reader waits, so a slow consumer never counts as a stalled provider.
 */
function watchIdle(
  body: ReadableStream<Uint8Array>,
  watch: StreamWatch,
  closeConnection: () => void,
  onSettled: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  // One timer for the whole body, re-armed only when it fires: a timer set and cleared for every chunk cost each
  // streamed delta a timer-list insert and removal, on the main process.
  let waitingSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stalled = false;
  let output: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stopClock = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const checkIdle = (): void => {
    timer = null;
    // Between reads the clock stands still; the next read starts it again.
    if (waitingSince === null) return;
    const waited = performance.now() - waitingSince;
    if (waited < watch.idleTimeoutMs) {
      timer = setTimeout(checkIdle, watch.idleTimeoutMs - waited);
      return;
    }
    stalled = true;
    output?.error(new ProviderFailure(stalledError(watch)));
    closeConnection();
    reader.cancel().catch(() => undefined);
    onSettled();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        output = controller;
      },
      async pull(controller) {
        waitingSince = performance.now();
        timer ??= setTimeout(checkIdle, watch.idleTimeoutMs);
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (thrown) {
          stopClock();
          // The stall already errored this body; the read the cancel ended says nothing new.
          if (stalled) return;
          onSettled();
          throw thrown;
        } finally {
          waitingSince = null;
        }
        if (stalled) return;
        if (result.done) {
          stopClock();
          controller.close();
          onSettled();
        } else controller.enqueue(result.value);
      },
      cancel: (reason) => {
        stopClock();
        onSettled();
        return reader.cancel(reason);
      },
    },
    // Read only when asked, so the idle clock measures the provider, not a buffer filling ahead of the reader.
    { highWaterMark: 0 },
  );
}

/** A body that reads the whole answer (up to the limit) and then fails with what it said. */
function failWithWholeAnswer(body: ReadableStream<Uint8Array>, watch: StreamWatch, kind: NotAStreamKind): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const decoder = new TextDecoder();
      let text = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          if (text.length >= JSON_ANSWER_READ_LIMIT) {
            reader.cancel().catch(() => undefined);
            break;
          }
        }
      } catch (thrown) {
        controller.error(thrown);
        return;
      }
      const bodyText = text + decoder.decode();
      controller.error(new ProviderFailure(kind === 'json' ? notAStreamError(watch, bodyText) : htmlInsteadOfStreamError(watch, bodyText)));
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The error text inside a JSON answer: `error.message` (OpenAI, Anthropic, Google), `error` as a string (Ollama),
 * or a top-level `message` / `detail` (proxies and gateways).
 */
function errorTextIn(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const error = value.error;
  const candidates = [isRecord(error) ? stringField(error, 'message') : null, typeof error === 'string' ? error : null, stringField(value, 'message'), stringField(value, 'detail')];
  const found = candidates.find((candidate) => candidate !== null && candidate.trim() !== '');
  return found === undefined || found === null ? null : collapseSpace(found);
}

function describeJson(value: unknown): string {
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty JSON object';
    const shown = keys.slice(0, 6).join(', ');
    return `a JSON object (fields: ${shown}${keys.length > 6 ? ', …' : ''})`;
  }
  if (Array.isArray(value)) return `a JSON array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  return `a bare JSON ${value === null ? 'null' : typeof value}`;
}

function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
