/**
 * The neutral stream every provider adapter produces. Errors are parts, not throws, so one stream can report a
 * failure and still end cleanly.
 */
import type { Usage } from '../../../src-shared/api';
import type { WireId } from '../../../src-shared/brains';
import type { ReasoningPlace } from '../replay/types';

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export type ProviderErrorCode =
  /** The provider answered with an error (HTTP status or an error event after HTTP 200). */
  | 'provider-error'
  /** 401/403: the key is missing, wrong or lacks access. */
  | 'auth'
  /** 429 or an overload: try again later. */
  | 'rate-limited'
  | 'overloaded'
  /** The request is too large for the model's window. */
  | 'context-too-large'
  /** The connection failed or dropped mid-stream. */
  | 'connection'
  /** The stream could not be parsed. */
  | 'malformed-stream'
  /** The stream went quiet for longer than the wire's idle limit (STREAM_IDLE_TIMEOUT_MS). */
  | 'provider-stalled'
  /** HTTP 200 with a JSON body where a stream was expected: a proxy's page or an error object. */
  | 'not-a-stream';

export interface ProviderError {
  readonly code: ProviderErrorCode;
  /** One sentence a person can act on; includes the provider's own message where there is one. */
  readonly message: string;
  readonly status?: number;
  readonly retryable: boolean;
  /** How long the provider asked to wait before a retry (`retry-after`, `retry-after-ms`), in seconds. */
  readonly retryAfterSeconds?: number;
  /** A size refusal's window or limit, in tokens, when the provider's wording names it. */
  readonly limitTokens?: number;
  /** A size refusal's count for the request, in tokens, when the provider's wording names it. */
  readonly requestTokens?: number;
}

export type StreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  /**
   * An opaque reasoning carrier (thinking signature, encrypted item, …), kept verbatim for replay to the same brain;
   * `place` says what followed it, on wires whose reasoning sits between a reply's calls.
   */
  | { readonly type: 'reasoning-opaque'; readonly opaque: unknown; readonly place?: ReasoningPlace }
  | {
      readonly type: 'tool-call';
      readonly providerCallId: string | null;
      readonly name: string;
      readonly input: Record<string, unknown>;
      readonly opaque?: unknown;
    }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'response-model'; readonly model: string }
  /**
   * The provider declined to answer (a refusal stop reason or content part, a safety block). `explanation` and
   * `category` are the provider's own words, null where it gives none: untrusted text, shown as text only. It comes
   * before the reply's `finish`; any words streamed before it stay the reply's words.
   */
  | { readonly type: 'refusal'; readonly explanation: string | null; readonly category: string | null }
  | { readonly type: 'finish'; readonly reason: FinishReason; readonly rawReason: string | null }
  | { readonly type: 'error'; readonly error: ProviderError };

export interface ProviderCall {
  readonly wire: WireId;
  /** Base URL as the brain table / settings give it (e.g. `https://api.moonshot.ai/v1`). */
  readonly baseUrl: string;
  readonly apiKey: string | null;
  /** The model the turn targets; Gemini names it in the URL, the other wires also carry it in their body. */
  readonly model: string;
  /** The exact request body the replay converter built, sent as is; with `encodedBody`, only its top-level fields. */
  readonly body: Record<string, unknown>;
  /**
   * The same body already serialised, as a long history's is off the main thread (see encoded-body.ts): these exact
   * bytes are sent, and `body` holds only what the SDKs read before sending.
   */
  readonly encodedBody?: Uint8Array<ArrayBuffer>;
  readonly signal: AbortSignal;
  /** Who failure messages name (the brain's label, "Claude"); the base URL's host when absent. */
  readonly label?: string;
  /** How long the stream may send nothing before it is given up; `STREAM_IDLE_TIMEOUT_MS[wire]` when absent. */
  readonly idleTimeoutMs?: number;
  /** Told when the provider has not answered the request (no response yet) for a while, and when it then does. */
  readonly silence?: ProviderSilence;
}

/**
 * A request the provider has taken and not answered: a server loading a model, a proxy holding the connection, a
 * server that accepted the connection and says nothing. The wait itself goes on (up to the request's own limit, and
 * Stop ends it at once); this only lets the window say what it is waiting on.
 */
export interface ProviderSilence {
  readonly afterMs: number;
  silent(): void;
  answered(): void;
}
