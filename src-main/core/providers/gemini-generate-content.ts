/**
 * The gemini-generate-content wire: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` over `fetch`
 * (https://ai.google.dev/api/generate-content). Every `data:` line is a whole `GenerateContentResponse`; there is no
 * `[DONE]`, so a chunk with a `finishReason` (or a prompt block) marks the end.
 */
import type { Usage } from '../../../src-shared/api';
import { parseJsonOrNull, postForStream } from './http-stream';
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { ProviderFailure, classifyProviderFailure, malformedStreamError } from './provider-errors';
import { readServerSentEvents } from './sse';
import { closingParts, createModelAnnouncer, refusalPart, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { FinishReason, ProviderCall, ProviderError, StreamPart } from './stream-parts';
import { streamWatchFor } from './watched-fetch';

export function streamGeminiGenerateContent(call: ProviderCall): AsyncIterable<StreamPart> {
  return mapGeminiChunks(sendGeminiRequest(call), { signal: call.signal });
}

async function* sendGeminiRequest(call: ProviderCall): AsyncIterable<unknown> {
  const { model } = call;
  if (model === '') {
    throw new ProviderFailure({ code: 'provider-error', message: 'The request names no model.', retryable: false });
  }
  if (call.apiKey === null) {
    throw new ProviderFailure({ code: 'auth', message: 'No API key is set for this brain.', retryable: false });
  }
  const modelPath = model.startsWith('models/') ? model : `models/${model}`;
  const events = await postForStream({
    url: `${call.baseUrl.replace(/\/+$/, '')}/v1beta/${modelPath}:streamGenerateContent?alt=sse`,
    baseUrl: call.baseUrl,
    headers: { 'x-goog-api-key': call.apiKey },
    body: call.body,
    signal: call.signal,
    watch: streamWatchFor(call),
    describeHttpError: (status, bodyText, retryAfterSeconds) => errorFromGeminiBody(parseJsonOrNull(bodyText), status, bodyText, retryAfterSeconds),
  });
  for await (const event of readServerSentEvents(events)) {
    yield JSON.parse(event.data) as unknown;
  }
}

/** Google's error shape, `{"error":{"code","message","status"}}`, as the HTTP body or as a streamed chunk. */
export function errorFromGeminiBody(body: unknown, status: number | undefined, fallbackMessage: string, retryAfterSeconds: number | null = null): ProviderError {
  const details = isRecord(body) ? recordField(body, 'error') : null;
  return classifyProviderFailure({
    ...(status === undefined ? {} : { status }),
    retryAfterSeconds,
    type: details === null ? null : stringField(details, 'status'),
    message: (details === null ? null : stringField(details, 'message')) ?? fallbackMessage,
  });
}

interface PendingCall {
  readonly name: string;
  readonly id: string | null;
  readonly args: Record<string, unknown>;
  readonly signature: string | null;
}

export function mapGeminiChunks(chunks: AsyncIterable<unknown>, options: StreamMappingOptions = {}): AsyncIterable<StreamPart> {
  return withStreamEnding(geminiParts(chunks), options);
}

async function* geminiParts(chunks: AsyncIterable<unknown>): AsyncGenerator<StreamPart, MappingEnd> {
  const announceModel = createModelAnnouncer();
  let sawToolCall = false;
  let usage: Usage | null = null;
  let rawFinishReason: string | null = null;
  let refusal: StreamPart | null = null;
  // Vertex can stream one call's arguments over several parts (`willContinue`); the Gemini API sends each call whole.
  let pendingCall: PendingCall | null = null;

  for await (const chunk of chunks) {
    if (!isRecord(chunk)) {
      yield { type: 'error', error: malformedStreamError('a chunk that is not a JSON object') };
      return 'ended';
    }
    if (isRecord(chunk.error)) {
      yield { type: 'error', error: errorFromGeminiBody(chunk, undefined, 'The provider reported an error.') };
      return 'ended';
    }
    yield* announceModel(stringField(chunk, 'modelVersion'));
    const usageMetadata = recordField(chunk, 'usageMetadata');
    if (usageMetadata !== null) usage = usageFrom(usageMetadata);

    const candidate = (arrayField(chunk, 'candidates') ?? []).find(isRecord);
    const content = candidate === undefined ? null : recordField(candidate, 'content');
    for (const part of (content === null ? null : arrayField(content, 'parts')) ?? []) {
      if (!isRecord(part)) continue;
      const functionCall = recordField(part, 'functionCall');
      if (functionCall === null) {
        yield* contentParts(part);
        continue;
      }
      const merged = mergeCall(pendingCall, functionCall, stringField(part, 'thoughtSignature'));
      if (merged === null) {
        // A call whose arguments do not read ends the reply: the call cannot run.
        yield { type: 'error', error: malformedStreamError(`the arguments of tool call "${stringField(functionCall, 'name') ?? ''}" could not be read`) };
        return 'ended';
      }
      if (functionCall.willContinue === true) {
        pendingCall = merged;
        continue;
      }
      pendingCall = null;
      sawToolCall = true;
      yield toolCallPart(merged);
    }
    const finishReason = candidate === undefined ? null : stringField(candidate, 'finishReason');
    // A blocked prompt comes back without candidates, only `promptFeedback.blockReason`.
    const feedback = recordField(chunk, 'promptFeedback');
    const blockReason = feedback === null ? null : stringField(feedback, 'blockReason');
    if (finishReason !== null || (candidate === undefined && blockReason !== null)) {
      rawFinishReason = finishReason ?? blockReason;
    }
    // A blocked prompt or a candidate stopped by a filter is a refusal; the reason is its category, and the message
    // (`blockReasonMessage`, Vertex only; `finishMessage`) its explanation where one is sent.
    if (candidate === undefined && blockReason !== null && feedback !== null) {
      refusal = refusalPart(stringField(feedback, 'blockReasonMessage'), blockReason);
    } else if (candidate !== undefined && finishReason !== null && mapGeminiFinishReason(finishReason, false) === 'content-filter') {
      refusal = refusalPart(stringField(candidate, 'finishMessage'), finishReason);
    }
  }
  if (rawFinishReason === null) return 'cut-off';
  // A call still waiting for `willContinue` parts is complete once the reply finishes.
  const lastCall = pendingCall === null ? [] : [toolCallPart(pendingCall)];
  return closingParts([...lastCall, ...(refusal === null ? [] : [refusal])], usage, mapGeminiFinishReason(rawFinishReason, sawToolCall || pendingCall !== null), rawFinishReason);
}

function* contentParts(part: JsonRecord): Iterable<StreamPart> {
  const text = stringField(part, 'text');
  if (text) yield part.thought === true ? { type: 'reasoning-delta', text } : { type: 'text-delta', text };
  // Signatures also ride on text parts (often the last one of a turn): Gemini asks for them back as received.
  const signature = stringField(part, 'thoughtSignature');
  if (signature !== null) yield { type: 'reasoning-opaque', opaque: { thoughtSignature: signature } };
}

function toolCallPart(call: PendingCall): StreamPart {
  return {
    type: 'tool-call',
    providerCallId: call.id,
    name: call.name,
    input: call.args,
    // Gemini 3 requires each call's thoughtSignature back exactly as received, on the same part.
    ...(call.signature === null ? {} : { opaque: { thoughtSignature: call.signature } }),
  };
}

/** Folds one functionCall part into the call being assembled; null when its arguments cannot be read. */
function mergeCall(pending: PendingCall | null, functionCall: JsonRecord, signature: string | null): PendingCall | null {
  let args: Record<string, unknown> = { ...(pending?.args ?? {}) };
  const wholeArgs = functionCall.args;
  if (wholeArgs !== undefined) {
    if (!isRecord(wholeArgs)) return null;
    // Spread defines own properties: a `__proto__` key in the provider's JSON stays a plain key.
    args = { ...args, ...wholeArgs };
  }
  for (const partialArg of arrayField(functionCall, 'partialArgs') ?? []) {
    if (!isRecord(partialArg) || !applyPartialArg(args, partialArg)) return null;
  }
  return {
    name: stringField(functionCall, 'name') || (pending?.name ?? ''),
    id: stringField(functionCall, 'id') ?? pending?.id ?? null,
    args,
    signature: signature ?? pending?.signature ?? null,
  };
}

/** Applies one streamed argument (`{jsonPath: "$.a.b", stringValue|numberValue|boolValue|nullValue}`); plain member paths only. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function applyPartialArg(args: Record<string, unknown>, partialArg: JsonRecord): boolean {
  const path = stringField(partialArg, 'jsonPath') ?? '';
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(path)) return false;
  const keys = path.slice(2).split('.');
  // The path comes from the network: `$.__proto__.x` must never reach Object.prototype.
  if (keys.some((key) => UNSAFE_KEYS.has(key))) return false;
  const lastKey = keys.pop() ?? '';
  let target = args;
  for (const key of keys) {
    const next = Object.hasOwn(target, key) ? target[key] : undefined;
    if (!isRecord(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  if (typeof partialArg.stringValue === 'string') {
    // A string may arrive in pieces under the same path (`willContinue` on the piece before).
    const previous = target[lastKey];
    target[lastKey] = typeof previous === 'string' ? previous + partialArg.stringValue : partialArg.stringValue;
  } else if (typeof partialArg.numberValue === 'number') target[lastKey] = partialArg.numberValue;
  else if (typeof partialArg.boolValue === 'boolean') target[lastKey] = partialArg.boolValue;
  else if (partialArg.nullValue !== undefined) target[lastKey] = null;
  else return false;
  return true;
}

function usageFrom(metadata: JsonRecord): Usage {
  const inputTokens = numberField(metadata, 'promptTokenCount');
  const outputTokens = numberField(metadata, 'candidatesTokenCount');
  const cacheReadTokens = numberField(metadata, 'cachedContentTokenCount');
  const reasoningTokens = numberField(metadata, 'thoughtsTokenCount');
  return {
    ...(inputTokens === null ? {} : { inputTokens }),
    ...(outputTokens === null ? {} : { outputTokens }),
    ...(cacheReadTokens === null ? {} : { cacheReadTokens }),
    ...(reasoningTokens === null ? {} : { reasoningTokens }),
  };
}

export function mapGeminiFinishReason(rawReason: string, sawToolCall: boolean): FinishReason {
  switch (rawReason) {
    case 'STOP':
      return sawToolCall ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
      return 'error';
    default:
      return 'other';
  }
}
