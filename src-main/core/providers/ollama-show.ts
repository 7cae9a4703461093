/**
 * How large an Ollama model's window is, asked of the server: `POST /api/show` (https://docs.ollama.com/api/show).
 * The answer's `parameters` text carries the Modelfile's `num_ctx`, the window a request gets; `model_info` carries
 * `<architecture>.context_length`, the length the model was trained for. Ollama runs a model at `num_ctx` when the
 * Modelfile sets it, else at its own server default (set by `OLLAMA_CONTEXT_LENGTH` or the GPU's memory, which
 * `/api/show` does not report), never at the trained length unless `num_ctx` says so.
 */
import { arrayField, isRecord, numberField, recordField, stringField } from './json-fields';

export interface OllamaWindow {
  /** The Modelfile's `num_ctx`; null when the model sets none (the server's default applies) or the server could not be asked. */
  readonly contextWindow: number | null;
  /** `<architecture>.context_length` from `model_info`: what the model was trained for, for display. */
  readonly trainedContextLength: number | null;
  /** `capabilities`: `completion`, `vision`, `thinking`, `tools`, `embedding`; null when the server does not say. */
  readonly capabilities: readonly string[] | null;
}

export const UNKNOWN_OLLAMA_WINDOW: OllamaWindow = { contextWindow: null, trainedContextLength: null, capabilities: null };

/** A local Ollama answers `/api/show` from disk in milliseconds; a turn waits at most this long for it. */
export const OLLAMA_SHOW_TIMEOUT_MS = 5_000;

export interface OllamaShowOptions {
  /** A hosted Ollama or a proxy in front of one takes a bearer token, as `/api/chat` does; a local one needs none. */
  readonly apiKey?: string | null;
  readonly timeoutMs?: number;
}

/**
 * The window of `model` on the Ollama at `baseUrl`. Never throws: a refused connection, a timeout, an abort, a non-200
 * answer or a body that is not a JSON object all give `UNKNOWN_OLLAMA_WINDOW`.
 */
export async function fetchOllamaWindow(baseUrl: string, model: string, signal?: AbortSignal, options: OllamaShowOptions = {}): Promise<OllamaWindow> {
  return (await lookUpOllamaWindow(baseUrl, model, signal, options)) ?? UNKNOWN_OLLAMA_WINDOW;
}

/**
 * As `fetchOllamaWindow`, but null when the server gave no readable answer, so a cache can keep failures for less time
 * than answers. An answer without `num_ctx` or `model_info` is an answer: its fields are null.
 */
export async function lookUpOllamaWindow(baseUrl: string, model: string, signal?: AbortSignal, options: OllamaShowOptions = {}): Promise<OllamaWindow | null> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? OLLAMA_SHOW_TIMEOUT_MS);
  const apiKey = options.apiKey ?? null;
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/show`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }) },
      body: JSON.stringify({ model }),
      // The timeout covers the body too: a server that sends headers and then nothing is no answer either.
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    if (!response.ok) {
      // Read the error body so the connection goes back to the pool.
      await response.text();
      return null;
    }
    return ollamaWindowFromShow(JSON.parse(await response.text()) as unknown);
  } catch {
    // Refused, timed out, aborted, cut off or not JSON: the window stays unknown and the turn goes on without it.
    return null;
  }
}

/** Reads an `/api/show` answer; null when it is not a JSON object. */
export function ollamaWindowFromShow(answer: unknown): OllamaWindow | null {
  if (!isRecord(answer)) return null;
  const parameters = stringField(answer, 'parameters');
  const capabilities = arrayField(answer, 'capabilities');
  return {
    contextWindow: parameters === null ? null : numCtxIn(parameters),
    trainedContextLength: trainedContextLengthIn(recordField(answer, 'model_info')),
    capabilities: capabilities === null ? null : capabilities.filter((capability): capability is string => typeof capability === 'string'),
  };
}

/**
 * `num_ctx` in the `parameters` text, which has one `name value` line per Modelfile PARAMETER, padded into columns
 * (`num_ctx                        8192`).
 */
export function numCtxIn(parameters: string): number | null {
  for (const line of parameters.split('\n')) {
    const match = /^\s*num_ctx\s+(\d+)\s*$/.exec(line);
    if (match?.[1] !== undefined) return positiveTokens(Number(match[1]));
  }
  return null;
}

function trainedContextLengthIn(modelInfo: Record<string, unknown> | null): number | null {
  if (modelInfo === null) return null;
  const architecture = stringField(modelInfo, 'general.architecture');
  if (architecture === null || architecture === '') return null;
  const length = numberField(modelInfo, `${architecture}.context_length`);
  return length === null ? null : positiveTokens(length);
}

function positiveTokens(value: number): number | null {
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** How long an answer is trusted: a Modelfile's `num_ctx` changes only when someone recreates the model. */
export const OLLAMA_WINDOW_ANSWER_TTL_MS = 5 * 60_000;
/** How long a failure is remembered: long enough that every turn does not wait on a dead server, short enough to notice it came back. */
export const OLLAMA_WINDOW_FAILURE_TTL_MS = 30_000;

export type OllamaWindowLookup = (baseUrl: string, model: string) => Promise<OllamaWindow | null>;

export interface OllamaWindowCacheOptions {
  /** Asks the server; null for no readable answer. Defaults to `lookUpOllamaWindow` with its 5 s timeout. */
  readonly lookUp?: OllamaWindowLookup;
  /** Milliseconds, as `Date.now`. */
  readonly now?: () => number;
}

interface CachedWindow {
  readonly answer: Promise<OllamaWindow | null>;
  /** Null while the request is in flight: callers share it. */
  expiresAt: number | null;
}

/**
 * Remembers `/api/show` answers per (base URL, model): answers for 5 minutes, failures for 30 s. Callers asking while a
 * request is in flight share it. `get` never throws.
 */
export class OllamaWindowCache {
  private readonly entries = new Map<string, CachedWindow>();
  private readonly lookUp: OllamaWindowLookup;
  private readonly now: () => number;

  constructor(options: OllamaWindowCacheOptions = {}) {
    this.lookUp = options.lookUp ?? ((baseUrl, model) => lookUpOllamaWindow(baseUrl, model));
    this.now = options.now ?? Date.now;
  }

  async get(baseUrl: string, model: string): Promise<OllamaWindow> {
    const key = cacheKey(baseUrl, model);
    const cached = this.entries.get(key);
    if (cached !== undefined && (cached.expiresAt === null || cached.expiresAt > this.now())) return (await cached.answer) ?? UNKNOWN_OLLAMA_WINDOW;
    const entry: CachedWindow = { answer: this.lookUp(baseUrl, model).catch(() => null), expiresAt: null };
    this.entries.set(key, entry);
    const answer = await entry.answer;
    entry.expiresAt = this.now() + (answer === null ? OLLAMA_WINDOW_FAILURE_TTL_MS : OLLAMA_WINDOW_ANSWER_TTL_MS);
    return answer ?? UNKNOWN_OLLAMA_WINDOW;
  }

  /** Drops what is remembered for the model, so the next `get` asks again (after a size refusal, say). */
  forget(baseUrl: string, model: string): void {
    this.entries.delete(cacheKey(baseUrl, model));
  }
}

function cacheKey(baseUrl: string, model: string): string {
  return JSON.stringify([baseUrl.replace(/\/+$/, ''), model]);
}
