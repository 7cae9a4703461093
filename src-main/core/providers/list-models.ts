/**
 * The cheapest call each wire allows, for Settings' "Test": its model list, which costs no tokens and proves the base
 * URL answers and the key is accepted.
 * - anthropic-messages: `GET /v1/models` with `x-api-key` and `anthropic-version` (https://docs.anthropic.com/en/api/models-list);
 * - chat-completions and openai-responses: `GET /models` with a bearer key (OpenAI's, Moonshot's and xAI's list);
 * - gemini-generate-content: `GET /v1beta/models` with `x-goog-api-key`, names as `models/<id>`;
 * - ollama-chat: `GET /api/tags`, the models pulled on that server.
 */
import type { WireId } from '../../../src-shared/brains';
import { arrayField, isRecord, recordField, stringField, type JsonRecord } from './json-fields';

/** A list is one small JSON answer; a server that takes longer is as good as unreachable for a test. */
export const LIST_MODELS_TIMEOUT_MS = 10_000;

export interface ModelListRequest {
  readonly wire: WireId;
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly timeoutMs?: number;
}

export type ModelListAnswer =
  | { readonly ok: true; readonly models: readonly string[] }
  /** `answered`: the server gave an HTTP answer (an error status or an unreadable body), not silence. */
  | { readonly ok: false; readonly answered: boolean; readonly message: string };

interface ListCall {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly idsOf: (answer: JsonRecord) => string[];
}

function idsIn(items: readonly unknown[] | null, field: string, prefix = ''): string[] {
  const ids: string[] = [];
  for (const item of items ?? []) {
    const id = isRecord(item) ? stringField(item, field) : null;
    if (id !== null) ids.push(id.startsWith(prefix) ? id.slice(prefix.length) : id);
  }
  return ids;
}

function bearer(apiKey: string | null): Record<string, string> {
  return apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
}

export function listCallFor(wire: WireId, apiKey: string | null): ListCall {
  switch (wire) {
    case 'anthropic-messages':
      return {
        path: '/v1/models',
        headers: { 'anthropic-version': '2023-06-01', ...(apiKey === null ? {} : { 'x-api-key': apiKey }) },
        idsOf: (answer) => idsIn(arrayField(answer, 'data'), 'id'),
      };
    case 'chat-completions':
    case 'openai-responses':
      return { path: '/models', headers: bearer(apiKey), idsOf: (answer) => idsIn(arrayField(answer, 'data'), 'id') };
    case 'gemini-generate-content':
      return {
        path: '/v1beta/models',
        headers: apiKey === null ? {} : { 'x-goog-api-key': apiKey },
        idsOf: (answer) => idsIn(arrayField(answer, 'models'), 'name', 'models/'),
      };
    case 'ollama-chat':
      // A hosted Ollama or a proxy in front of one takes a bearer token, as `/api/chat` does.
      return { path: '/api/tags', headers: bearer(apiKey), idsOf: (answer) => idsIn(arrayField(answer, 'models'), 'name') };
    default: {
      const unknownWire: never = wire;
      throw new Error(`No model list for wire ${String(unknownWire)}`);
    }
  }
}

/** The provider's own words from an error body: `{"error":{"message":…}}` (most wires) or `{"error":"…"}` (Ollama). */
function errorMessageIn(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (isRecord(body)) {
      const nested = recordField(body, 'error');
      const message = (nested === null ? null : stringField(nested, 'message')) ?? stringField(body, 'error') ?? stringField(body, 'message');
      if (message !== null && message.trim() !== '') return `HTTP ${status}: ${message.trim()}`;
    }
  } catch {
    // Not JSON: the status alone says what happened.
  }
  return `HTTP ${status}`;
}

const NOT_A_LIST = 'with something that is not a model list.';

/** Never throws: a refused connection, a timeout or an error status is an answer with the reason. */
export async function listModels(request: ModelListRequest): Promise<ModelListAnswer> {
  const call = listCallFor(request.wire, request.apiKey);
  try {
    const response = await fetch(`${request.baseUrl.replace(/\/+$/, '')}${call.path}`, {
      method: 'GET',
      headers: call.headers,
      signal: AbortSignal.timeout(request.timeoutMs ?? LIST_MODELS_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, answered: true, message: errorMessageIn(response.status, text) };
    const body = JSON.parse(text) as unknown;
    if (!isRecord(body)) return { ok: false, answered: true, message: NOT_A_LIST };
    return { ok: true, models: call.idsOf(body) };
  } catch (thrown) {
    if (thrown instanceof SyntaxError) return { ok: false, answered: true, message: NOT_A_LIST };
    if (thrown instanceof Error && thrown.name === 'TimeoutError') return { ok: false, answered: false, message: `No answer within ${Math.round((request.timeoutMs ?? LIST_MODELS_TIMEOUT_MS) / 1000)} s.` };
    const cause = thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause.message : thrown instanceof Error ? thrown.message : String(thrown);
    return { ok: false, answered: false, message: `Could not connect: ${cause}` };
  }
}
