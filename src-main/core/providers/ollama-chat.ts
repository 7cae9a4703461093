/**
 * The ollama-chat wire: `POST /api/chat` over `fetch`, streamed as NDJSON (https://docs.ollama.com/api/chat); the last
 * line has `done: true`. Tool calls arrive whole, with `arguments` as an object.
 */
import type { Usage } from '../../../src-shared/api';
import { postForStream, parseJsonOrNull, readJsonLines } from './http-stream';
import { isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { classifyProviderFailure, malformedStreamError } from './provider-errors';
import { createModelAnnouncer, mappingOptionsFor, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { FinishReason, ProviderCall, ProviderError, StreamPart } from './stream-parts';
import { streamWatchFor } from './watched-fetch';

export function streamOllamaChat(call: ProviderCall): AsyncIterable<StreamPart> {
  return mapOllamaChatLines(sendOllamaRequest(call), mappingOptionsFor(call));
}

async function* sendOllamaRequest(call: ProviderCall): AsyncIterable<unknown> {
  const body = await postForStream({
    url: `${call.baseUrl.replace(/\/+$/, '')}/api/chat`,
    baseUrl: call.baseUrl,
    // A local Ollama needs no key; a hosted one or a proxy in front of it takes a bearer token.
    headers: call.apiKey === null ? {} : { authorization: `Bearer ${call.apiKey}` },
    body: call.body,
    ...(call.encodedBody === undefined ? {} : { encodedBody: call.encodedBody }),
    signal: call.signal,
    watch: streamWatchFor(call),
    describeHttpError: errorFromOllamaBody,
  });
  yield* readJsonLines(body);
}

/**
 * Ollama answers errors as `{"error":"…"}`, as the HTTP body or as a line of the stream. A runner's own error can sit
 * inside that string as JSON (llama.cpp's `{"error":{"code":400,"message":"request (8889 tokens) exceeds the available
 * context size (4096 tokens), …","type":"exceed_context_size_error"}}` with `truncate: false`): its message and type
 * are what the person needs.
 */
export function errorFromOllamaBody(status: number | undefined, bodyText: string, retryAfterSeconds: number | null = null): ProviderError {
  const parsed = parseJsonOrNull(bodyText);
  const outer = isRecord(parsed) && typeof parsed.error === 'string' ? parsed.error : bodyText;
  const nested = parseJsonOrNull(outer);
  const inner = isRecord(nested) ? recordField(nested, 'error') : null;
  const innerMessage = inner === null ? null : stringField(inner, 'message');
  return classifyProviderFailure({
    ...(status === undefined ? {} : { status }),
    message: innerMessage ?? outer,
    type: innerMessage === null || inner === null ? null : stringField(inner, 'type'),
    retryAfterSeconds,
  });
}

export function mapOllamaChatLines(lines: AsyncIterable<unknown>, options: StreamMappingOptions = {}): AsyncIterable<StreamPart> {
  return withStreamEnding(ollamaParts(lines), options);
}

async function* ollamaParts(lines: AsyncIterable<unknown>): AsyncGenerator<StreamPart, MappingEnd> {
  const announceModel = createModelAnnouncer();
  let sawToolCall = false;
  for await (const line of lines) {
    if (!isRecord(line)) {
      yield { type: 'error', error: malformedStreamError('a line that is not a JSON object') };
      return 'ended';
    }
    if (typeof line.error === 'string') {
      yield { type: 'error', error: errorFromOllamaBody(undefined, JSON.stringify(line)) };
      return 'ended';
    }
    const modelPart = announceModel(stringField(line, 'model'));
    if (modelPart !== null) yield modelPart;
    const message = recordField(line, 'message');
    if (message !== null) {
      const thinking = stringField(message, 'thinking');
      if (thinking) yield { type: 'reasoning-delta', text: thinking };
      const content = stringField(message, 'content');
      if (content) yield { type: 'text-delta', text: content };
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        const part = toolCallPart(call);
        yield part;
        // A call whose arguments do not read ends the reply: the call cannot run.
        if (part.type === 'error') return 'ended';
        sawToolCall = true;
      }
    }
    if (line.done === true) {
      yield { type: 'usage', usage: usageFrom(line) };
      const rawReason = stringField(line, 'done_reason');
      yield { type: 'finish', reason: mapDoneReason(rawReason, sawToolCall), rawReason };
      return 'ended';
    }
  }
  return 'cut-off';
}

function toolCallPart(call: unknown): StreamPart {
  const fields = isRecord(call) ? recordField(call, 'function') : null;
  const name = fields === null ? '' : (stringField(fields, 'name') ?? '');
  const input = fields === null ? null : fields.arguments;
  if (!isRecord(input)) return { type: 'error', error: malformedStreamError(`the arguments of tool call "${name}" are not a JSON object`) };
  // Ollama pairs calls and results by tool name and order; ids appear only in newer versions.
  const id = isRecord(call) ? stringField(call, 'id') : null;
  return { type: 'tool-call', providerCallId: id, name, input };
}

function usageFrom(line: JsonRecord): Usage {
  const inputTokens = numberField(line, 'prompt_eval_count');
  const outputTokens = numberField(line, 'eval_count');
  return { ...(inputTokens === null ? {} : { inputTokens }), ...(outputTokens === null ? {} : { outputTokens }) };
}

export function mapDoneReason(rawReason: string | null, sawToolCall: boolean): FinishReason {
  switch (rawReason) {
    case 'stop':
      return sawToolCall ? 'tool-calls' : 'stop';
    case 'length':
      return 'length';
    default:
      // `load` / `unload` answer model management requests, not replies.
      return 'other';
  }
}
