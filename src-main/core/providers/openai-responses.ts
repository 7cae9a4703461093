/**
 * The openai-responses wire (brains codex and grok): sends the body with the `openai` SDK's `responses.create` and maps
 * the typed stream events (https://platform.openai.com/docs/api-reference/responses-streaming) to neutral parts.
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { Usage } from '../../../src-shared/api';
import { encodedBodyOptions } from './encoded-body';
import { sendWithOpenAiSdk } from './openai-sdk';
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { classifyProviderFailure, malformedStreamError } from './provider-errors';
import { createModelAnnouncer, mappingOptionsFor, refusalPart, truncate, untilError, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { ReasoningPlace } from '../replay/types';
import type { FinishReason, ProviderCall, StreamPart } from './stream-parts';

export function streamOpenAiResponses(call: ProviderCall): AsyncIterable<StreamPart> {
  // The replay layer built the complete body, `stream: true` included: it goes out as is.
  const body = call.body as unknown as ResponseCreateParamsStreaming;
  const events = sendWithOpenAiSdk(call, (client) => client.responses.create(body, { signal: call.signal, ...encodedBodyOptions(call.encodedBody) }));
  return mapOpenAiResponsesEvents(events, mappingOptionsFor(call));
}

/**
 * Maps parsed Responses stream events to neutral parts. `response.completed` and `response.incomplete` finish the
 * reply; `response.failed` and `error` end it with an error part; anything else ending the stream is reported as cut off.
 */
export function mapOpenAiResponsesEvents(events: AsyncIterable<unknown>, options: StreamMappingOptions = {}): AsyncIterable<StreamPart> {
  return withStreamEnding(responsesParts(events), options);
}

async function* responsesParts(events: AsyncIterable<unknown>): AsyncGenerator<StreamPart, MappingEnd> {
  const announceModel = createModelAnnouncer();
  let sawToolCall = false;
  // Items arrive twice (`output_item.done`, then the final response's list): each is taken once.
  const seenItems = new Set<string>();
  // Finished reasoning items wait for the item after them: each replays right before it.
  const unplacedReasoning: JsonRecord[] = [];
  function* placeReasoning(place: ReasoningPlace): Iterable<StreamPart> {
    for (const item of unplacedReasoning.splice(0)) yield { type: 'reasoning-opaque', opaque: item, place };
  }
  // A refusal is a content part of its own (`{type: "refusal", refusal}`), streamed as `response.refusal.delta`s:
  // its words explain the refusal and are not the reply's. The whole text (`.done`, the item) wins over the pieces.
  let refusalPieces = '';
  let refusalText: string | null = null;
  function* outputItem(item: JsonRecord, outputIndex: number | null): Iterable<StreamPart> {
    if (item.type !== 'reasoning') yield* placeReasoning(placeOf(item));
    const key = itemKey(item, outputIndex);
    if (key !== null) {
      if (seenItems.has(key)) return;
      seenItems.add(key);
    }
    if (item.type === 'reasoning') {
      // Take reasoning items whole, once done: only then do they carry `encrypted_content` for a store:false replay.
      unplacedReasoning.push(item);
    } else if (item.type === 'function_call') {
      sawToolCall = true;
      yield functionCallPart(item);
    }
  }

  for await (const event of events) {
    if (!isRecord(event) || typeof event.type !== 'string') {
      yield { type: 'error', error: malformedStreamError('an event without a type') };
      return 'ended';
    }
    const response = recordField(event, 'response');
    const model = response === null ? null : stringField(response, 'model');
    const modelPart = announceModel(model);
    if (modelPart !== null) yield modelPart;
    switch (event.type) {
      case 'response.output_text.delta': {
        const text = stringField(event, 'delta');
        if (text) yield { type: 'text-delta', text };
        break;
      }
      case 'response.refusal.delta':
        refusalPieces += stringField(event, 'delta') ?? '';
        break;
      case 'response.refusal.done':
        refusalText ??= stringField(event, 'refusal') ?? refusalPieces;
        break;
      // OpenAI streams reasoning summaries; open-weight models served on this wire stream the reasoning text itself.
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const text = stringField(event, 'delta');
        if (text) yield { type: 'reasoning-delta', text };
        break;
      }
      case 'response.output_item.added': {
        // The item after a reasoning item is known from its start, before its words stream; a call without its
        // call_id yet is placed when it is done.
        const item = recordField(event, 'item');
        if (item !== null && item.type !== 'reasoning' && !(item.type === 'function_call' && idField(item, 'call_id') === null)) {
          yield* placeReasoning(placeOf(item));
        }
        break;
      }
      case 'response.output_item.done': {
        const item = recordField(event, 'item');
        refusalText ??= item === null ? null : refusalIn(item);
        // A call whose arguments do not read ends the reply: the call cannot run.
        if (item !== null && (yield* untilError(outputItem(item, numberField(event, 'output_index'))))) return 'ended';
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        // Some servers skip `output_item.done`; the final response lists every item, so nothing is lost.
        for (const [outputIndex, item] of ((response === null ? null : arrayField(response, 'output')) ?? []).entries()) {
          if (isRecord(item) && (yield* untilError(outputItem(item, outputIndex)))) return 'ended';
        }
        yield* placeReasoning({ before: 'other' });
        for (const item of (response === null ? null : arrayField(response, 'output')) ?? []) {
          if (isRecord(item)) refusalText ??= refusalIn(item);
        }
        if (refusalText !== null || refusalPieces !== '') yield refusalPart(refusalText ?? refusalPieces, null);
        if (response !== null) {
          const usage = usageFrom(recordField(response, 'usage'));
          if (usage !== null) yield { type: 'usage', usage };
        }
        const details = response === null ? null : recordField(response, 'incomplete_details');
        const rawReason = (details === null ? null : stringField(details, 'reason')) ?? (response === null ? null : stringField(response, 'status'));
        yield { type: 'finish', reason: mapResponseFinish(rawReason, sawToolCall), rawReason };
        return 'ended';
      }
      case 'response.failed': {
        const failure = response === null ? null : recordField(response, 'error');
        yield {
          type: 'error',
          error: classifyProviderFailure({
            type: failure === null ? null : stringField(failure, 'code'),
            message: (failure === null ? null : stringField(failure, 'message')) ?? 'The response failed.',
          }),
        };
        return 'ended';
      }
      case 'error': {
        yield {
          type: 'error',
          error: classifyProviderFailure({ type: stringField(event, 'code'), code: stringField(event, 'code'), message: stringField(event, 'message') ?? 'The provider reported an error.' }),
        };
        return 'ended';
      }
      default:
        // created/in_progress, item and part bookkeeping, argument deltas (the complete call arrives in output_item.done).
        break;
    }
  }
  return 'cut-off';
}

/** A non-empty string field: some servers send `id: ""` for items that have none. */
function idField(item: JsonRecord, key: string): string | null {
  const value = stringField(item, key);
  return value === null || value === '' ? null : value;
}

/**
 * What identifies an output item across its `output_item.done` and the final response's list: its type with its
 * call_id (a call) or id, else its position in the output. Null when the item names neither.
 */
function itemKey(item: JsonRecord, outputIndex: number | null): string | null {
  const type = stringField(item, 'type') ?? '';
  const id = (type === 'function_call' ? idField(item, 'call_id') : null) ?? idField(item, 'id');
  if (id !== null) return `${type} ${id}`;
  return outputIndex === null ? null : `${type} #${outputIndex}`;
}

/** Where a reasoning item right before `item` replays: before that call, before the words, or nowhere. */
function placeOf(item: JsonRecord): ReasoningPlace {
  switch (item.type) {
    case 'function_call': {
      const providerCallId = idField(item, 'call_id');
      return providerCallId === null ? { before: 'other' } : { before: 'call', providerCallId };
    }
    case 'message':
      return { before: 'words' };
    default:
      return { before: 'other' };
  }
}

/** The refusal text of an output message's `refusal` content parts, or null when it has none. */
function refusalIn(item: JsonRecord): string | null {
  if (item.type !== 'message') return null;
  const refusals = (arrayField(item, 'content') ?? []).flatMap((part) => (isRecord(part) && part.type === 'refusal' ? [stringField(part, 'refusal') ?? ''] : []));
  return refusals.length === 0 ? null : refusals.join('\n');
}

function functionCallPart(item: JsonRecord): StreamPart {
  const name = stringField(item, 'name') ?? '';
  const argumentsText = stringField(item, 'arguments') ?? '';
  let input: unknown = {};
  try {
    input = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch {
    input = null;
  }
  if (!isRecord(input)) {
    return { type: 'error', error: malformedStreamError(`the arguments of tool call "${name}" are not a JSON object: ${truncate(argumentsText, 200)}`) };
  }
  return { type: 'tool-call', providerCallId: idField(item, 'call_id'), name, input };
}

function usageFrom(wireUsage: JsonRecord | null): Usage | null {
  if (wireUsage === null) return null;
  const inputTokens = numberField(wireUsage, 'input_tokens');
  const outputTokens = numberField(wireUsage, 'output_tokens');
  const inputDetails = recordField(wireUsage, 'input_tokens_details');
  const cacheReadTokens = inputDetails === null ? null : numberField(inputDetails, 'cached_tokens');
  const outputDetails = recordField(wireUsage, 'output_tokens_details');
  const reasoningTokens = outputDetails === null ? null : numberField(outputDetails, 'reasoning_tokens');
  return {
    ...(inputTokens === null ? {} : { inputTokens }),
    ...(outputTokens === null ? {} : { outputTokens }),
    ...(cacheReadTokens === null ? {} : { cacheReadTokens }),
    ...(reasoningTokens === null ? {} : { reasoningTokens }),
  };
}

/** `rawReason` is `incomplete_details.reason` when the response stopped early, else the response status. */
export function mapResponseFinish(rawReason: string | null, sawToolCall: boolean): FinishReason {
  switch (rawReason) {
    case 'completed':
      return sawToolCall ? 'tool-calls' : 'stop';
    case 'max_output_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
