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

/** The numbers a size refusal names, when its wording gives them. */
export interface SizeFigures {
  /** The window or limit the provider named, in tokens. */
  readonly limitTokens?: number;
  /** What the provider counted for the request, in tokens. */
  readonly requestTokens?: number;
}

interface SizeWording {
  readonly pattern: RegExp;
  readonly figures: (numbers: readonly number[]) => SizeFigures;
}

/**
 * Each wire's own words for a request larger than the model's window, with the numbers they carry. The first match
 * wins, so the wordings that name numbers come before the bare ones.
 */
const SIZE_WORDINGS: readonly SizeWording[] = [
  // Anthropic, when input fits but input plus max_tokens does not: "input length and `max_tokens` exceed context
  // limit: 190000 + 32000 > 200000" (the backticks are missing in some responses).
  {
    pattern: /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i,
    figures: ([input = 0, output = 0, limit = 0]) => ({ limitTokens: limit, requestTokens: input + output }),
  },
  // Anthropic: "prompt is too long: 212345 tokens > 200000 maximum".
  { pattern: /prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum/i, figures: ([request, limit]) => ({ requestTokens: request, limitTokens: limit }) },
  // OpenAI (Chat Completions era): "This model's maximum context length is N tokens. However, your messages resulted in
  // M tokens" (or "you requested M tokens").
  {
    pattern: /maximum context length is (\d+) tokens[.,]?\s*However,? (?:your messages resulted in|you requested) (\d+) tokens/i,
    figures: ([limit, request]) => ({ limitTokens: limit, requestTokens: request }),
  },
  // xAI: "This model's maximum prompt length is 131072 but the request contains 140000 tokens."
  { pattern: /maximum prompt length is (\d+),? but the request contains (\d+) tokens/i, figures: ([limit, request]) => ({ limitTokens: limit, requestTokens: request }) },
  // Moonshot: "Invalid request: Your request exceeded model token limit: 262144".
  { pattern: /exceeded model token limit:\s*(\d+)/i, figures: ([limit]) => ({ limitTokens: limit }) },
  // Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."
  {
    pattern: /input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)/i,
    figures: ([request, limit]) => ({ requestTokens: request, limitTokens: limit }),
  },
  // llama.cpp's server, whose error Ollama passes on with `truncate: false`: "request (8889 tokens) exceeds the
  // available context size (4096 tokens), try increasing it".
  {
    pattern: /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/i,
    figures: ([request, limit]) => ({ requestTokens: request, limitTokens: limit }),
  },
  // Wordings without numbers: OpenAI Responses "Your input exceeds the context window of this model"; xAI's newer
  // "exceeds budget"; Gemini without counts; Ollama "the input length exceeds the context length" and, with
  // `shift: false`, "the prompt is longer than the context length"; a bare `context_length_exceeded`.
  {
    pattern:
      /prompt is too long|exceed context limit|context length|context_length_exceeded|context window|context size|token limit|input token count.*exceeds|exceeds? (?:the )?(?:token |context |prompt )?budget|input_too_large/i,
    figures: () => ({}),
  },
];

// Rate limits also speak of tokens ("tokens per minute", Groq's 413 "Request too large … on tokens per minute (TPM)"):
// waiting helps them, compaction does not.
const PER_MINUTE_PATTERN = /per minute|per min\b|\bTPM\b|\bRPM\b/i;
// Error types and codes that name a size refusal outright.
const SIZE_MARKERS = new Set(['request_too_large', 'context_length_exceeded', 'input_too_large', 'exceed_context_size_error']);

/** The size figures a refusal's wording carries, or null when the text is not a size refusal. */
export function sizeRefusalFigures(message: string): SizeFigures | null {
  for (const wording of SIZE_WORDINGS) {
    const match = wording.pattern.exec(message);
    if (match !== null) return wording.figures(match.slice(1).filter((group) => group !== undefined).map(Number));
  }
  return null;
}

// The wire mappers do not know the brain; `namingTheBrain` puts its label in place of "the model" afterwards.
const TOO_LARGE_OPENING = "The conversation is too large for the model's window";

/** A size refusal's message naming the brain ("too large for Kimi's window"); any other error unchanged. */
export function namingTheBrain(error: ProviderError, label: string): ProviderError {
  if (error.code !== 'context-too-large' || !error.message.startsWith(TOO_LARGE_OPENING)) return error;
  return { ...error, message: `The conversation is too large for ${label}'s window${error.message.slice(TOO_LARGE_OPENING.length)}` };
}

/** The advice a size refusal ends with: the app's own remedy. */
export const COMPACT_AND_RETRY_ADVICE = 'Compact and retry: Anybrain summarises the oldest messages first.';

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
  const figures = status === 429 || PER_MINUTE_PATTERN.test(message) || RATE_LIMIT_TYPES.has(type) ? null : sizeFigures(status, type, code, message);
  if (figures !== null) {
    const endsSentence = /[.!?]$/.test(providerText) ? '' : '.';
    return {
      code: 'context-too-large',
      message: `${TOO_LARGE_OPENING}${where}: ${providerText}${endsSentence} ${COMPACT_AND_RETRY_ADVICE}`,
      ...extras,
      ...figures,
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

/** A size refusal's figures, or null when the failure is not one: a 413, a size type or code, or a size wording. */
function sizeFigures(status: number | undefined, type: string, code: string, message: string): SizeFigures | null {
  const fromWording = sizeRefusalFigures(message);
  if (fromWording !== null) return fromWording;
  return status === 413 || SIZE_MARKERS.has(type) || SIZE_MARKERS.has(code) ? {} : null;
}

/** A refusal's own words, as the `refusal` stream part carries them. */
export interface RefusalDetails {
  readonly explanation: string | null;
  readonly category: string | null;
}

/**
 * How a refusal reads: "Claude declined to answer (cyber): <explanation>". The category and explanation are the
 * provider's untrusted text, quoted as is and shown as text only.
 */
export function refusalMessage(label: string, refusal: RefusalDetails): string {
  const category = refusal.category === null ? '' : ` (${refusal.category})`;
  return `${label} declined to answer${category}${refusal.explanation === null ? '.' : `: ${refusal.explanation}`}`;
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
