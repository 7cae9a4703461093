/**
 * The `openai` SDK as the OpenAI-shaped wires use it (chat-completions for kimi, openai-responses for codex and grok):
 * one client per call, and SDK failures turned into `ProviderFailure`s the stream mappers report as error parts.
 */
import OpenAI from 'openai';
import { isRecord, stringField } from './json-fields';
import { ProviderFailure, classifyProviderFailure, connectionError, hostOf, retryAfterSecondsFrom } from './provider-errors';
import { REQUEST_TIMEOUT_MS } from './stream-mapping';
import type { ProviderCall, ProviderError } from './stream-parts';
import { streamWatchFor, watchedFetch } from './watched-fetch';

export async function* sendWithOpenAiSdk(
  call: ProviderCall,
  send: (client: OpenAI) => PromiseLike<AsyncIterable<unknown>>,
): AsyncIterable<unknown> {
  if (call.apiKey === null) {
    // Without an explicit key the SDK falls back to OPENAI_API_KEY, which may belong to another brain.
    throw new ProviderFailure({ code: 'auth', message: 'No API key is set for this brain.', retryable: false });
  }
  const client = new OpenAI({
    baseURL: call.baseUrl,
    apiKey: call.apiKey,
    // OPENAI_ORG_ID / OPENAI_PROJECT_ID would otherwise leak into requests to other providers.
    organization: null,
    project: null,
    // The app shows the failure and offers Retry; silent SDK retries would hide it and double the wait.
    maxRetries: 0,
    timeout: REQUEST_TIMEOUT_MS,
    // The SDK logs unparseable chunks verbatim; failures reach the person as error parts instead.
    logLevel: 'off',
    // Gives up a stalled body and names a JSON answer where a stream was expected.
    fetch: watchedFetch(streamWatchFor(call)),
  });
  let stream: AsyncIterable<unknown>;
  try {
    stream = await send(client);
  } catch (thrown) {
    throw failureFromOpenAiError(thrown, call.baseUrl);
  }
  try {
    yield* stream;
  } catch (thrown) {
    throw failureFromOpenAiError(thrown, call.baseUrl);
  }
}

function failureFromOpenAiError(thrown: unknown, baseUrl: string): unknown {
  if (thrown instanceof OpenAI.APIUserAbortError) return thrown;
  if (thrown instanceof OpenAI.APIConnectionTimeoutError) {
    return new ProviderFailure(connectionError(`${hostOf(baseUrl)} did not answer in time.`));
  }
  if (thrown instanceof OpenAI.APIConnectionError) {
    const cause = thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
    return new ProviderFailure(connectionError(`Could not connect to ${hostOf(baseUrl)}${cause}.`));
  }
  if (thrown instanceof OpenAI.APIError) {
    // The SDK keeps the inner `error` object of `{"error":{message,type,code}}`, from an HTTP error body or from a
    // `data: {"error":…}` line after HTTP 200 alike.
    return new ProviderFailure(errorFromOpenAiErrorObject(thrown.error, thrown.status, thrown.message, retryAfterSecondsFrom(thrown.headers)));
  }
  if (thrown instanceof OpenAI.OpenAIError) {
    return new ProviderFailure({ code: 'provider-error', message: `The request could not be sent: ${thrown.message}`, retryable: false });
  }
  return thrown;
}

/** Reads OpenAI's error object, `{message, type, param, code}` (the value of the body's `error` key). */
export function errorFromOpenAiErrorObject(
  errorObject: unknown,
  status: number | undefined,
  fallbackMessage: string,
  retryAfterSeconds: number | null = null,
): ProviderError {
  const details = isRecord(errorObject) ? errorObject : null;
  const code = details?.code;
  return classifyProviderFailure({
    ...(status === undefined ? {} : { status }),
    retryAfterSeconds,
    type: details === null ? null : stringField(details, 'type'),
    code: typeof code === 'string' || typeof code === 'number' ? String(code) : null,
    message: (details === null ? null : stringField(details, 'message')) ?? fallbackMessage,
  });
}
