/**
 * One classification of provider failures for every wire, so the app shows the same codes and Retry advice whichever
 * brain failed.
 */
import type { ProviderError } from './stream-parts';

/** What a provider said about a failure, read from its own error body or in-stream error event. */
export interface ProviderFailureReport {
  /** HTTP status; absent when the error arrived inside a stream after HTTP 200. */
  readonly status?: number;
  /** The provider's error category (`overloaded_error`, `invalid_request_error`, …). */
  readonly type?: string | null;
  /** The provider's machine code (`context_length_exceeded`, `insufficient_quota`, …). */
  readonly code?: string | null;
  /** The provider's own message, shown to the person. */
  readonly message: string;
  /** How long the provider asked to wait (from `retryAfterSecondsFrom`), in seconds. */
  readonly retryAfterSeconds?: number | null;
}

/** Thrown by a request function so the stream mapper can turn an SDK failure into an `error` part. */
export class ProviderFailure extends Error {
  readonly providerError: ProviderError;

  constructor(providerError: ProviderError) {
    super(providerError.message);
    this.name = 'ProviderFailure';
    this.providerError = providerError;
  }
}

export const CLOSED_EARLY_MESSAGE = 'The connection closed before the reply finished.';

// Anthropic: "prompt is too long: N tokens > M maximum"; OpenAI: "maximum context length is N tokens" with code
// context_length_exceeded; Moonshot: "exceeded model token limit"; Gemini: "input token count … exceeds the maximum".
const CONTEXT_TOO_LARGE_PATTERN =
  /prompt is too long|context length|context_length_exceeded|context window|token limit|input token count.*exceeds/i;

// Anthropic and Moonshot error types, OpenAI 429 types (`requests`, `tokens`) and Google's canonical status names.
const AUTH_TYPES = new Set(['authentication_error', 'permission_error', 'invalid_authentication_error', 'permission_denied_error', 'PERMISSION_DENIED', 'UNAUTHENTICATED']);
const OVERLOAD_TYPES = new Set(['overloaded_error', 'engine_overloaded_error', 'UNAVAILABLE']);
const RATE_LIMIT_TYPES = new Set(['rate_limit_error', 'rate_limit_reached_error', 'rate_limit_exceeded', 'requests', 'tokens', 'RESOURCE_EXHAUSTED']);
// Billing failures come back as 402 or as a 429 with code insufficient_quota: waiting does not help.
const BILLING_MARKERS = new Set(['billing_error', 'insufficient_quota', 'exceeded_current_quota_error']);

export function classifyProviderFailure(report: ProviderFailureReport): ProviderError {
  const { status, message } = report;
  const type = report.type ?? '';
  const code = report.code ?? '';
  const retryAfterSeconds = report.retryAfterSeconds ?? null;
  const waitNote = retryAfterSeconds === null ? '' : `; the provider asks to wait ${formatSeconds(retryAfterSeconds)} s`;
  const where = (status === undefined ? ' during the reply' : ` (HTTP ${status})`) + waitNote;
  const providerText = message.trim() === '' ? 'no details given' : message.trim();
  const extras = { ...(status === undefined ? {} : { status }), ...(retryAfterSeconds === null ? {} : { retryAfterSeconds }) };

  if (status === 401 || status === 403 || AUTH_TYPES.has(type)) {
    return { code: 'auth', message: `The provider refused the API key${where}: ${providerText}`, ...extras, retryable: false };
  }
  const mentionsWindow = status !== 429 && CONTEXT_TOO_LARGE_PATTERN.test(message);
  if (status === 413 || type === 'request_too_large' || code === 'context_length_exceeded' || mentionsWindow) {
    return {
      code: 'context-too-large',
      message: `The conversation is too large for the model${where}: ${providerText}`,
      ...extras,
      retryable: false,
    };
  }
  if (status === 402 || BILLING_MARKERS.has(type) || BILLING_MARKERS.has(code)) {
    return { code: 'provider-error', message: `The provider refused the request for billing reasons${where}: ${providerText}`, ...extras, retryable: false };
  }
  if (status === 529 || OVERLOAD_TYPES.has(type)) {
    return { code: 'overloaded', message: `The provider is overloaded${where}: ${providerText}`, ...extras, retryable: true };
  }
  if (status === 429 || RATE_LIMIT_TYPES.has(type) || code === 'rate_limit_exceeded') {
    return { code: 'rate-limited', message: `The provider is rate-limiting requests${where}: ${providerText}`, ...extras, retryable: true };
  }
  const retryable = status === undefined || status >= 500 || status === 408 || status === 409;
  return { code: 'provider-error', message: `The provider answered with an error${where}: ${providerText}`, ...extras, retryable };
}

/** Seconds as a person reads them: whole numbers as is, fractions to one decimal (`0.2`, `1.5`). */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Math.round(seconds * 10) / 10);
}

/**
 * How long a provider asks to wait before a retry, in seconds, or null when it does not say. OpenAI sends
 * `retry-after-ms` beside `retry-after`; `retry-after` is either delta-seconds or an HTTP date
 * (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after).
 */
export function retryAfterSecondsFrom(headers: Pick<Headers, 'get'> | null | undefined, now: number = Date.now()): number | null {
  if (headers === null || headers === undefined) return null;
  const milliseconds = headers.get('retry-after-ms')?.trim() ?? '';
  if (/^\d+(\.\d+)?$/.test(milliseconds)) return Number(milliseconds) / 1000;
  const value = headers.get('retry-after')?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  // Date.parse reads "-3" as a year: an HTTP date always names its weekday and month.
  if (!/[a-z]{3}/i.test(value)) return null;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export function connectionError(message: string): ProviderError {
  return { code: 'connection', message, retryable: true };
}

export function malformedStreamError(detail: string): ProviderError {
  return { code: 'malformed-stream', message: `The provider sent a reply that could not be read: ${detail}`, retryable: true };
}

/**
 * Turns whatever a stream threw into an error part. Request functions wrap SDK errors in `ProviderFailure`; what is
 * left is a body that failed to parse (`SyntaxError`) or a socket that closed mid-stream.
 */
export function errorFromThrown(thrown: unknown): ProviderError {
  if (thrown instanceof ProviderFailure) return thrown.providerError;
  if (thrown instanceof SyntaxError) return malformedStreamError(thrown.message);
  return connectionError(CLOSED_EARLY_MESSAGE);
}

/** Host of a base URL for messages: never the whole URL, which could carry credentials in its user info or query. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'the provider';
  }
}
