/**
 * The chat-completions wire (brain kimi): sends the body with the `openai` SDK and maps `chat.completion.chunk` objects
 * to neutral stream parts. Moonshot follows OpenAI's chunk shape and adds `reasoning_content` to the delta.
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Usage } from '../../../src-shared/api';
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { encodedBodyOptions } from './encoded-body';
import { errorFromOpenAiErrorObject, sendWithOpenAiSdk } from './openai-sdk';
import { malformedStreamError } from './provider-errors';
import { closingParts, createModelAnnouncer, mappingOptionsFor, refusalPart, streamedToolCall, untilError, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { FinishReason, ProviderCall, StreamPart } from './stream-parts';

export function streamChatCompletions(call: ProviderCall): AsyncIterable<StreamPart> {
  return mapChatCompletionChunks(sendChatCompletionsRequest(call), mappingOptionsFor(call));
}

function sendChatCompletionsRequest(call: ProviderCall): AsyncIterable<unknown> {
  // The replay layer built the complete body, `stream: true` included: it goes out as is.
  const body = call.body as unknown as ChatCompletionCreateParamsStreaming;
  return sendWithOpenAiSdk(call, (client) => client.chat.completions.create(body, { signal: call.signal, ...encodedBodyOptions(call.encodedBody) }));
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Maps parsed `chat.completion.chunk` objects to neutral parts. A chunk `{error:{…}}` (sent after HTTP 200) ends the
 * mapping with an error part; a stream that ends before any `finish_reason` is reported as cut off.
 */
export function mapChatCompletionChunks(chunks: AsyncIterable<unknown>, options: StreamMappingOptions = {}): AsyncIterable<StreamPart> {
  return withStreamEnding(chatCompletionParts(chunks), options);
}

async function* chatCompletionParts(chunks: AsyncIterable<unknown>): AsyncGenerator<StreamPart, MappingEnd> {
  const toolCalls = new Map<number, PendingToolCall>();
  const announceModel = createModelAnnouncer();
  let usage: Usage | null = null;
  let rawFinishReason: string | null = null;
  // OpenAI streams a refusal as `delta.refusal` pieces instead of `content`: they explain it, and are not the reply.
  let refusal = '';

  for await (const chunk of chunks) {
    if (!isRecord(chunk)) {
      yield { type: 'error', error: malformedStreamError('a chunk that is not a JSON object') };
      return 'ended';
    }
    const streamedError = chunk.error;
    if (streamedError !== undefined && streamedError !== null) {
      yield { type: 'error', error: errorFromOpenAiErrorObject(streamedError, undefined, 'The provider reported an error.') };
      return 'ended';
    }
    const modelPart = announceModel(stringField(chunk, 'model'));
    if (modelPart !== null) yield modelPart;
    // With stream_options.include_usage, OpenAI sends usage in a last chunk with empty `choices`.
    const chunkUsage = recordField(chunk, 'usage');
    if (chunkUsage !== null) usage = usageFrom(chunkUsage);

    for (const choice of arrayField(chunk, 'choices') ?? []) {
      // Only `n: 1` is requested: other choices would interleave their pieces with the first one's.
      if (!isRecord(choice) || (numberField(choice, 'index') ?? 0) !== 0) continue;
      // Moonshot puts usage on the choice of the chunk that carries finish_reason.
      const choiceUsage = recordField(choice, 'usage');
      if (choiceUsage !== null) usage = usageFrom(choiceUsage);
      const delta = recordField(choice, 'delta');
      if (delta !== null) {
        // Moonshot (Kimi) streams reasoning as `reasoning_content`; Ollama's and OpenRouter's compatible endpoints say `reasoning`.
        const reasoning = stringField(delta, 'reasoning_content') ?? stringField(delta, 'reasoning');
        if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
        const content = stringField(delta, 'content');
        if (content) yield { type: 'text-delta', text: content };
        collectToolCallPieces(delta, toolCalls);
        refusal += stringField(delta, 'refusal') ?? '';
      }

      const finishReason = stringField(choice, 'finish_reason');
      if (finishReason !== null && rawFinishReason === null) {
        rawFinishReason = finishReason;
        // A call whose arguments do not read ends the reply: the call cannot run.
        if (yield* untilError(completeToolCalls(toolCalls))) return 'ended';
      }
    }
  }
  if (rawFinishReason === null) return 'cut-off';
  return closingParts(refusal === '' ? [] : [refusalPart(refusal, null)], usage, mapFinishReason(rawFinishReason), rawFinishReason);
}

/** Each call arrives in pieces keyed by `index`: the first piece carries id and name, later ones argument fragments. */
function collectToolCallPieces(delta: JsonRecord, toolCalls: Map<number, PendingToolCall>): void {
  for (const piece of arrayField(delta, 'tool_calls') ?? []) {
    if (!isRecord(piece)) continue;
    const index = numberField(piece, 'index') ?? toolCalls.size;
    const pending = toolCalls.get(index) ?? { id: '', name: '', arguments: '' };
    toolCalls.set(index, pending);
    const id = stringField(piece, 'id');
    if (id) pending.id = id;
    const functionPiece = recordField(piece, 'function');
    if (functionPiece !== null) {
      const name = stringField(functionPiece, 'name');
      if (name && pending.name === '') pending.name = name;
      pending.arguments += stringField(functionPiece, 'arguments') ?? '';
    }
  }
}

function* completeToolCalls(toolCalls: Map<number, PendingToolCall>): Iterable<StreamPart> {
  const ordered = [...toolCalls.entries()].sort(([left], [right]) => left - right);
  toolCalls.clear();
  for (const [, call] of ordered) {
    const part = streamedToolCall(call, parseArguments(call.arguments), { name: 'arguments', text: call.arguments });
    yield part;
    if (part.type === 'error') return;
  }
}

function parseArguments(text: string): Record<string, unknown> | null {
  // A call to a tool without parameters may stream no argument text at all.
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function usageFrom(wireUsage: JsonRecord): Usage {
  const inputTokens = numberField(wireUsage, 'prompt_tokens');
  const outputTokens = numberField(wireUsage, 'completion_tokens');
  const promptDetails = recordField(wireUsage, 'prompt_tokens_details');
  // OpenAI reports cache hits in prompt_tokens_details.cached_tokens; Moonshot as a top-level `cached_tokens`.
  const cacheReadTokens = (promptDetails === null ? null : numberField(promptDetails, 'cached_tokens')) ?? numberField(wireUsage, 'cached_tokens');
  const completionDetails = recordField(wireUsage, 'completion_tokens_details');
  const reasoningTokens = completionDetails === null ? null : numberField(completionDetails, 'reasoning_tokens');
  return {
    ...(inputTokens === null ? {} : { inputTokens }),
    ...(outputTokens === null ? {} : { outputTokens }),
    ...(cacheReadTokens === null ? {} : { cacheReadTokens }),
    ...(reasoningTokens === null ? {} : { reasoningTokens }),
  };
}

export function mapFinishReason(rawReason: string): FinishReason {
  switch (rawReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
