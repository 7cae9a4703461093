/**
 * The anthropic-messages wire (brains claude and glm): sends the body with `@anthropic-ai/sdk` and maps the raw stream
 * events (https://docs.claude.com/en/docs/build-with-claude/streaming) to neutral stream parts.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { Usage } from '../../../src-shared/api';
import { isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';
import { classifyProviderFailure, malformedStreamError } from './provider-errors';
import { failureFromSdkError, requiredApiKey, sdkClientOptions, streamThroughSdk, type SdkErrorClasses } from './sdk-stream';
import { encodedBodyOptions } from './encoded-body';
import { applyDelta, blockStateFor, finishBlock, type BlockState } from './anthropic-content-blocks';
import { createModelAnnouncer, mappingOptionsFor, refusalPart, untilError, withStreamEnding, type MappingEnd, type StreamMappingOptions } from './stream-mapping';
import type { FinishReason, ProviderCall, ProviderError, StreamPart } from './stream-parts';

export function streamAnthropicMessages(call: ProviderCall): AsyncIterable<StreamPart> {
  return mapAnthropicEvents(sendAnthropicRequest(call), mappingOptionsFor(call));
}

/** Sends the body as the replay layer built it and yields the raw stream events; SDK failures become `ProviderFailure`. */
function sendAnthropicRequest(call: ProviderCall): AsyncIterable<unknown> {
  return streamThroughSdk(
    () => {
      const client = new Anthropic({
        ...sdkClientOptions(call),
        apiKey: requiredApiKey(call),
        // Without an explicit null the SDK reads ANTHROPIC_AUTH_TOKEN, which would send one brain's token to another.
        authToken: null,
      });
      // The replay layer built the complete body, `stream: true` included: it goes out as is.
      return client.messages.create(call.body as unknown as MessageCreateParamsStreaming, { signal: call.signal, ...encodedBodyOptions(call.encodedBody) });
    },
    (thrown) => failureFromSdkError(thrown, call.baseUrl, ANTHROPIC_ERRORS, errorFromAnthropicBody),
  );
}

/** The SDK keeps the whole error body, `{type:"error", error:{type, message}}`, as the APIError's `error`. */
const ANTHROPIC_ERRORS: SdkErrorClasses = {
  APIUserAbortError: Anthropic.APIUserAbortError,
  APIConnectionTimeoutError: Anthropic.APIConnectionTimeoutError,
  APIConnectionError: Anthropic.APIConnectionError,
  APIError: Anthropic.APIError,
  base: Anthropic.AnthropicError,
};

/** Reads Anthropic's error body shape, `{type:"error", error:{type, message}}`, as an HTTP body or an `error` event. */
export function errorFromAnthropicBody(body: unknown, status: number | undefined, fallbackMessage: string, retryAfterSeconds: number | null = null): ProviderError {
  const details = isRecord(body) ? recordField(body, 'error') : null;
  return classifyProviderFailure({
    ...(status === undefined ? {} : { status }),
    retryAfterSeconds,
    type: details === null ? null : stringField(details, 'type'),
    message: (details === null ? null : stringField(details, 'message')) ?? fallbackMessage,
  });
}

/**
 * Maps Anthropic's raw stream events (parsed `data:` objects, `ping` included or not) to neutral parts. Failures thrown
 * by the event source end the mapping with one `error` part; a stream without `message_stop` is reported as cut off.
 */
export function mapAnthropicEvents(events: AsyncIterable<unknown>, options: StreamMappingOptions = {}): AsyncIterable<StreamPart> {
  return withStreamEnding(anthropicParts(events), options);
}

async function* anthropicParts(events: AsyncIterable<unknown>): AsyncGenerator<StreamPart, MappingEnd> {
  const blocks = new Map<number, BlockState>();
  const announceModel = createModelAnnouncer();
  let usage: Usage = {};
  let rawStopReason: string | null = null;
  let stopDetails: JsonRecord | null = null;

  for await (const event of events) {
    if (!isRecord(event) || typeof event.type !== 'string') {
      yield { type: 'error', error: malformedStreamError('an event without a type') };
      return 'ended';
    }
    switch (event.type) {
      case 'message_start': {
        const message = recordField(event, 'message');
        const model = message === null ? null : stringField(message, 'model');
        const modelPart = announceModel(model);
        if (modelPart !== null) yield modelPart;
        const startUsage = message === null ? null : recordField(message, 'usage');
        if (startUsage !== null) usage = mergeUsage(usage, startUsage);
        break;
      }
      case 'content_block_start': {
        const index = numberField(event, 'index');
        const block = recordField(event, 'content_block');
        if (index === null || block === null) {
          yield { type: 'error', error: malformedStreamError('a content block start without its block') };
          return 'ended';
        }
        const state = blockStateFor(block);
        blocks.set(index, state);
        // A block may start with content already in it; the API sends it empty today.
        const initialText = stringField(block, 'text');
        if (state.kind === 'text' && initialText) yield { type: 'text-delta', text: initialText };
        if (state.kind === 'thinking' && state.thinking !== '') yield { type: 'reasoning-delta', text: state.thinking };
        break;
      }
      case 'content_block_delta': {
        const state = blocks.get(numberField(event, 'index') ?? -1);
        const delta = recordField(event, 'delta');
        if (state === undefined || delta === null) {
          yield { type: 'error', error: malformedStreamError('a content delta for a block that never started') };
          return 'ended';
        }
        if (yield* untilError(applyDelta(state, delta))) return 'ended';
        break;
      }
      case 'content_block_stop': {
        const index = numberField(event, 'index') ?? -1;
        const state = blocks.get(index);
        blocks.delete(index);
        // A tool call whose input does not read ends the reply: the call cannot run.
        if (state !== undefined && (yield* untilError(finishBlock(state)))) return 'ended';
        break;
      }
      case 'message_delta': {
        const delta = recordField(event, 'delta');
        const stopReason = delta === null ? null : stringField(delta, 'stop_reason');
        if (stopReason !== null) rawStopReason = stopReason;
        // A refusal says why in `stop_details: {type: "refusal", category, explanation}`, either of them null.
        stopDetails = (delta === null ? null : recordField(delta, 'stop_details')) ?? stopDetails;
        // message_delta usage is cumulative for the whole message.
        const deltaUsage = recordField(event, 'usage');
        if (deltaUsage !== null) usage = mergeUsage(usage, deltaUsage);
        break;
      }
      case 'message_stop': {
        if (rawStopReason === 'refusal') yield refusalPart(stringField(stopDetails ?? {}, 'explanation'), stringField(stopDetails ?? {}, 'category'));
        if (Object.keys(usage).length > 0) yield { type: 'usage', usage };
        yield { type: 'finish', reason: mapStopReason(rawStopReason), rawReason: rawStopReason };
        return 'ended';
      }
      case 'error': {
        // Anthropic can send an error event after HTTP 200 (an overload mid-reply): classify by payload, not status.
        yield { type: 'error', error: errorFromAnthropicBody(event, undefined, 'The provider reported an error.') };
        return 'ended';
      }
      default:
        // `ping` keeps proxies from timing out; unknown event types carry nothing the neutral stream has a place for.
        break;
    }
  }
  return 'cut-off';
}

function mergeUsage(current: Usage, wireUsage: JsonRecord): Usage {
  const inputTokens = numberField(wireUsage, 'input_tokens');
  const outputTokens = numberField(wireUsage, 'output_tokens');
  const cacheReadTokens = numberField(wireUsage, 'cache_read_input_tokens');
  const cacheWriteTokens = numberField(wireUsage, 'cache_creation_input_tokens');
  const writesByLifetime = recordField(wireUsage, 'cache_creation');
  const cacheWriteHourTokens = writesByLifetime === null ? null : numberField(writesByLifetime, 'ephemeral_1h_input_tokens');
  const details = recordField(wireUsage, 'output_tokens_details');
  const reasoningTokens = details === null ? null : numberField(details, 'thinking_tokens');
  return {
    ...current,
    ...(inputTokens === null ? {} : { inputTokens }),
    ...(outputTokens === null ? {} : { outputTokens }),
    ...(cacheReadTokens === null ? {} : { cacheReadTokens }),
    ...(cacheWriteTokens === null ? {} : { cacheWriteTokens }),
    ...(cacheWriteHourTokens === null || cacheWriteHourTokens === 0 ? {} : { cacheWriteHourTokens }),
    ...(reasoningTokens === null ? {} : { reasoningTokens }),
  };
}

export function mapStopReason(rawReason: string | null): FinishReason {
  switch (rawReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      // pause_turn (a server tool loop paused) and unknown reasons.
      return 'other';
  }
}
