/**
 * The gemini-generate-content wire: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` over `fetch`
 * (https://ai.google.dev/api/generate-content). Every `data:` line is a whole `GenerateContentResponse`; there is no
 * `[DONE]`, so a chunk with a `finishReason` (or a prompt block) marks the end.
 */
import type { Usage } from '../../../src-shared/api';
import { parseJsonOrNull, postForStream } from './http-stream';
import { StreamedArguments } from './gemini-partial-args';
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { ProviderFailure, classifyProviderFailure, malformedStreamError } from './provider-errors';
import { readServerSentEvents } from './sse';
import { closingParts, createModelAnnouncer, mappingOptionsFor, refusalPart, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { FinishReason, ProviderCall, ProviderError, StreamPart } from './stream-parts';
import { streamWatchFor } from './watched-fetch';

export function streamGeminiGenerateContent(call: ProviderCall): AsyncIterable<StreamPart> {
  return mapGeminiChunks(sendGeminiRequest(call), mappingOptionsFor(call));
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
    ...(call.encodedBody === undefined ? {} : { encodedBody: call.encodedBody }),
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
  readonly args: StreamedArguments;
  readonly signature: string | null;
}

/** Why a call's parts do not make a call, and the name it had by then (for the message). */
interface UnreadableCall {
  readonly name: string;
  readonly problem: string;
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
    const modelPart = announceModel(stringField(chunk, 'modelVersion'));
    if (modelPart !== null) yield modelPart;
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
      if (functionCall.willContinue === true && !('problem' in merged)) {
        pendingCall = merged;
        continue;
      }
      pendingCall = null;
      const called = completedCall(merged);
      // A call whose arguments do not read ends the reply: the call cannot run.
      yield called;
      if (called.type === 'error') return 'ended';
      sawToolCall = true;
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
  const lastCall = pendingCall === null ? [] : [completedCall(pendingCall)];
  if (lastCall[0]?.type === 'error') {
    yield lastCall[0];
    return 'ended';
  }
  return closingParts([...lastCall, ...(refusal === null ? [] : [refusal])], usage, mapGeminiFinishReason(rawFinishReason, sawToolCall || pendingCall !== null), rawFinishReason);
}

function* contentParts(part: JsonRecord): Iterable<StreamPart> {
  const text = stringField(part, 'text');
  if (text) yield part.thought === true ? { type: 'reasoning-delta', text } : { type: 'text-delta', text };
  // Signatures also ride on text parts (often the last one of a turn): Gemini asks for them back as received.
  const signature = stringField(part, 'thoughtSignature');
  if (signature !== null) yield { type: 'reasoning-opaque', opaque: { thoughtSignature: signature } };
}

/** The call's tool-call part once its last part is in; the error that ends the reply when its parts do not read. */
function completedCall(call: PendingCall | UnreadableCall): StreamPart {
  if ('problem' in call) return unreadableCallError(call);
  const problem = call.args.unfinished();
  return problem === null ? toolCallPart(call) : unreadableCallError({ name: call.name, problem });
}

function unreadableCallError(call: UnreadableCall): StreamPart {
  const which = call.name === '' ? 'a tool call' : `tool call "${call.name}"`;
  return { type: 'error', error: malformedStreamError(`the arguments of ${which} could not be read: ${call.problem}`) };
}

function toolCallPart(call: PendingCall): StreamPart {
  return {
    type: 'tool-call',
    providerCallId: call.id,
    name: call.name,
    input: call.args.value,
    // Gemini 3 requires each call's thoughtSignature back exactly as received, on the same part.
    ...(call.signature === null ? {} : { opaque: { thoughtSignature: call.signature } }),
  };
}

/**
 * Folds one functionCall part into the call being assembled (see gemini-partial-args.ts). A call streamed in parts
 * names its function in the first part only; a later part naming another function is not part of the same call.
 */
function mergeCall(pending: PendingCall | null, functionCall: JsonRecord, signature: string | null): PendingCall | UnreadableCall {
  const partName = stringField(functionCall, 'name') ?? '';
  const name = pending?.name ?? partName;
  if (name === '') return { name, problem: 'the call names no function' };
  if (partName !== '' && partName !== name) return { name, problem: `a later part of the call names "${partName}"` };
  const args = pending?.args ?? new StreamedArguments();
  const wholeArgs = functionCall.args;
  if (wholeArgs !== undefined) {
    if (!isRecord(wholeArgs)) return { name, problem: 'its args are not a JSON object' };
    const problem = args.addWhole(wholeArgs);
    if (problem !== null) return { name, problem };
  }
  const partialArgs = functionCall.partialArgs;
  if (partialArgs !== undefined && !Array.isArray(partialArgs)) return { name, problem: 'its partialArgs are not a list' };
  for (const partialArg of arrayField(functionCall, 'partialArgs') ?? []) {
    const problem = args.add(partialArg);
    if (problem !== null) return { name, problem };
  }
  return {
    name,
    id: stringField(functionCall, 'id') ?? pending?.id ?? null,
    args,
    signature: signature ?? pending?.signature ?? null,
  };
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
