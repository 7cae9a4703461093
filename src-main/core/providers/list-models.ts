/**
 * The cheapest call each wire allows, for Settings' "Test": its model list, which costs no tokens and proves the base
 * URL answers and the key is accepted.
 * - anthropic-messages: `GET /v1/models` with `x-api-key` and `anthropic-version` (https://docs.anthropic.com/en/api/models-list);
 * - chat-completions and openai-responses: `GET /models` with a bearer key (OpenAI's, Moonshot's and xAI's list);
 * - gemini-generate-content: `GET /v1beta/models` with `x-goog-api-key`, names as `models/<id>`;
 * - ollama-chat: `GET /api/tags`, the models pulled on that server.
 */
import type { WireId } from '../../../src-shared/brains';
import type { ReportedModel } from '../../../src-shared/models/reported';
import { arrayField, isRecord, recordField, stringField, type JsonRecord } from './json-fields';
import { anthropicModelsIn, geminiModelsIn, ollamaTagsIn, openAiStyleModelsIn } from './reported-models';

/** A list is one small JSON answer; a server that takes longer is as good as unreachable for a test. */
export const LIST_MODELS_TIMEOUT_MS = 10_000;

export interface ModelListRequest {
  readonly wire: WireId;
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly timeoutMs?: number;
  /** Aborts the ask (a host closing); an aborted ask answers as unreachable. */
  readonly signal?: AbortSignal;
}

export type ModelListAnswer =
  | { readonly ok: true; readonly models: readonly ReportedModel[] }
  /** `answered`: the server gave an HTTP answer (an error status or an unreadable body), not silence. */
  | { readonly ok: false; readonly answered: boolean; readonly message: string };

interface ListCall {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly modelsOf: (answer: JsonRecord) => ReportedModel[];
}

function bearer(apiKey: string | null): Record<string, string> {
  return apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
}

export function listCallFor(wire: WireId, apiKey: string | null): ListCall {
  switch (wire) {
    case 'anthropic-messages':
      // The list pages by 20 unless asked for more; 1,000 is its maximum, far above any account's model count.
      return {
        path: '/v1/models?limit=1000',
        headers: { 'anthropic-version': '2023-06-01', ...(apiKey === null ? {} : { 'x-api-key': apiKey }) },
        modelsOf: (answer) => anthropicModelsIn(arrayField(answer, 'data')),
      };
    case 'chat-completions':
    case 'openai-responses':
      return { path: '/models', headers: bearer(apiKey), modelsOf: (answer) => openAiStyleModelsIn(arrayField(answer, 'data')) };
    case 'gemini-generate-content':
      // models.list pages by 50 unless asked for more; 1,000 is its maximum.
      return {
        path: '/v1beta/models?pageSize=1000',
        headers: apiKey === null ? {} : { 'x-goog-api-key': apiKey },
        modelsOf: (answer) => geminiModelsIn(arrayField(answer, 'models')),
      };
    case 'ollama-chat':
      // A hosted Ollama or a proxy in front of one takes a bearer token, as `/api/chat` does.
      return { path: '/api/tags', headers: bearer(apiKey), modelsOf: (answer) => ollamaTagsIn(arrayField(answer, 'models')) };
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
  const timeout = AbortSignal.timeout(request.timeoutMs ?? LIST_MODELS_TIMEOUT_MS);
  try {
    const response = await fetch(`${request.baseUrl.replace(/\/+$/, '')}${call.path}`, {
      method: 'GET',
      headers: call.headers,
      signal: request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]),
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, answered: true, message: errorMessageIn(response.status, text) };
    const body = JSON.parse(text) as unknown;
    if (!isRecord(body)) return { ok: false, answered: true, message: NOT_A_LIST };
    return { ok: true, models: call.modelsOf(body) };
  } catch (thrown) {
    if (thrown instanceof SyntaxError) return { ok: false, answered: true, message: NOT_A_LIST };
    if (thrown instanceof Error && thrown.name === 'TimeoutError') return { ok: false, answered: false, message: `No answer within ${Math.round((request.timeoutMs ?? LIST_MODELS_TIMEOUT_MS) / 1000)} s.` };
    const cause = thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause.message : thrown instanceof Error ? thrown.message : String(thrown);
    return { ok: false, answered: false, message: `Could not connect: ${cause}` };
  }
}
