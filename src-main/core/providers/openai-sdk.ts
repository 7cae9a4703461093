/**
 * The `openai` SDK as the OpenAI-shaped wires use it (chat-completions for kimi, openai-responses for codex and grok):
 * one client per call, and SDK failures turned into `ProviderFailure`s the stream mappers report as error parts.
 */
import OpenAI from 'openai';
import { isRecord, stringField } from './json-fields';
import { classifyProviderFailure } from './provider-errors';
import { failureFromSdkError, requiredApiKey, sdkClientOptions, streamThroughSdk, type SdkErrorClasses } from './sdk-stream';
import type { ProviderCall, ProviderError } from './stream-parts';

export function sendWithOpenAiSdk(call: ProviderCall, send: (client: OpenAI) => PromiseLike<AsyncIterable<unknown>>): AsyncIterable<unknown> {
  return streamThroughSdk(
    () => {
      const client = new OpenAI({
        ...sdkClientOptions(call),
        apiKey: requiredApiKey(call),
        // OPENAI_ORG_ID / OPENAI_PROJECT_ID would otherwise leak into requests to other providers.
        organization: null,
        project: null,
      });
      return send(client);
    },
    (thrown) => failureFromSdkError(thrown, call.baseUrl, OPENAI_ERRORS, errorFromOpenAiErrorObject),
  );
}

/** The SDK keeps the inner `error` object of `{"error":{message,type,code}}` as the APIError's `error`. */
const OPENAI_ERRORS: SdkErrorClasses = {
  APIUserAbortError: OpenAI.APIUserAbortError,
  APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError,
  APIConnectionError: OpenAI.APIConnectionError,
  APIError: OpenAI.APIError,
  base: OpenAI.OpenAIError,
};

/**
 * Reads OpenAI's error object, `{message, type, param, code}` (the value of the body's `error` key). xAI's bodies are
 * `{"code":"…","error":"the message"}`, so there the value is the message itself.
 */
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
    message: (details === null ? null : stringField(details, 'message')) ?? (typeof errorObject === 'string' && errorObject.trim() !== '' ? errorObject : fallbackMessage),
  });
}
