/**
 * What the two generated SDK clients (`openai`, `@anthropic-ai/sdk`) share: the same error classes and the same
 * client options this app needs, so a stream sent through either ends the same way.
 */
import { ProviderFailure, connectionError, hostOf, retryAfterSecondsFrom } from './provider-errors';
import { REQUEST_TIMEOUT_MS } from './stream-mapping';
import type { ProviderCall, ProviderError } from './stream-parts';
import { streamWatchFor, watchedFetch } from './watched-fetch';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes both SDKs export, under the same names. */
export interface SdkErrorClasses {
  readonly APIUserAbortError: ErrorClass;
  readonly APIConnectionTimeoutError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
  readonly APIError: ErrorClass;
  /** The base of every error the SDK throws itself (`OpenAIError`, `AnthropicError`). */
  readonly base: ErrorClass;
}

/** The fields of an SDK `APIError` this app reads. */
interface SdkApiError {
  readonly error: unknown;
  readonly status: number | undefined;
  readonly headers: Pick<Headers, 'get'> | undefined;
  readonly message: string;
}

/** Reads a provider's own error body into a ProviderError. */
export type ErrorBodyReader = (body: unknown, status: number | undefined, fallbackMessage: string, retryAfterSeconds: number | null) => ProviderError;

/**
 * The call's key, for a client that must never pick one up itself: without an explicit key each SDK falls back to
 * variables of its own (OPENAI_API_KEY; ANTHROPIC_* and profile files), which may belong to another brain.
 */
export function requiredApiKey(call: ProviderCall): string {
  if (call.apiKey === null) throw new ProviderFailure({ code: 'auth', message: 'No API key is set for this brain.', retryable: false });
  return call.apiKey;
}

/** Client options both SDKs take alike, for one call. */
export function sdkClientOptions(call: ProviderCall) {
  return {
    baseURL: call.baseUrl,
    // The app shows the failure and offers Retry; silent SDK retries would hide it and double the wait.
    maxRetries: 0,
    timeout: REQUEST_TIMEOUT_MS,
    // The SDK logs unparseable chunks verbatim; failures reach the person as error parts instead.
    logLevel: 'off' as const,
    // Gives up a stalled body and names a JSON answer where a stream was expected.
    fetch: watchedFetch(streamWatchFor(call)),
  };
}

/**
 * Yields the SDK's raw stream, opened on the first read; every SDK failure, before or during the stream, becomes a
 * `ProviderFailure`. A failure thrown by `open` itself (a missing key) passes through `toFailure` the same way.
 */
export async function* streamThroughSdk(
  open: () => PromiseLike<AsyncIterable<unknown>>,
  toFailure: (thrown: unknown) => unknown,
): AsyncIterable<unknown> {
  let stream: AsyncIterable<unknown>;
  try {
    stream = await open();
  } catch (thrown) {
    throw toFailure(thrown);
  }
  try {
    yield* stream;
  } catch (thrown) {
    throw toFailure(thrown);
  }
}

/** An SDK error as a ProviderFailure; an abort and anything not from the SDK pass through unchanged. */
export function failureFromSdkError(thrown: unknown, baseUrl: string, classes: SdkErrorClasses, readErrorBody: ErrorBodyReader): unknown {
  if (thrown instanceof classes.APIUserAbortError) return thrown;
  if (thrown instanceof classes.APIConnectionTimeoutError) {
    return new ProviderFailure(connectionError(`${hostOf(baseUrl)} did not answer in time.`));
  }
  if (thrown instanceof classes.APIConnectionError) {
    const cause = thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
    return new ProviderFailure(connectionError(`Could not connect to ${hostOf(baseUrl)}${cause}.`));
  }
  if (thrown instanceof classes.APIError) {
    // Both SDKs keep the provider's error object, from an HTTP error body or from an error event after HTTP 200 alike.
    const apiError = thrown as unknown as SdkApiError;
    return new ProviderFailure(readErrorBody(apiError.error, apiError.status, apiError.message, retryAfterSecondsFrom(apiError.headers)));
  }
  if (thrown instanceof classes.base) {
    return new ProviderFailure({ code: 'provider-error', message: `The request could not be sent: ${thrown.message}`, retryable: false });
  }
  return thrown;
}
