/**
 * The Messages API as claude and glm speak it: `POST /v1/messages`, SSE framed `event: X\ndata: {...}\n\n` with a `ping`
 * after the first block starts, and errors as `{"type":"error","error":{"type","message"}}`.
 */
import { formatServerSentEvent } from '../../src-main/core/providers/sse';
import { checkAnthropicRequest, thinkingEnabled } from './anthropic-messages-rules';
import { anthropicThinkingSignature, derivedId } from './derived-tokens';
import {
  contentText,
  delta,
  end,
  hasBearerOrHeader,
  isRecord,
  listField,
  structure,
  type ErrorReply,
  type FakeWire,
  type RefusalSizes,
  type ReplyContext,
  type StreamEvent,
} from './fake-wire';
import { modelListLookup } from './model-lists';
import type { ConversationEntry } from './script';

const ERROR_TYPES: Readonly<Record<number, readonly [type: string, message: string]>> = {
  400: ['invalid_request_error', 'There was an issue with the format or content of your request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit. Please try again later.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/** Figures for `[too-large]`: a request just over Claude's 200K window. */
const TYPICAL_SIZES: RefusalSizes = { limitTokens: 200_000, requestTokens: 212_345 };

/** Anthropic's refusal of a prompt over the window (claude and glm alike), with the figures it names. */
export function anthropicTooLargeMessage(sizes: RefusalSizes): string {
  return `prompt is too long: ${sizes.requestTokens} tokens > ${sizes.limitTokens} maximum`;
}

export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function errorReply(status: number, message?: string): ErrorReply {
  const [type, defaultMessage] = ERROR_TYPES[status] ?? [status >= 500 ? 'api_error' : 'invalid_request_error', `Error ${status}`];
  return { status, body: anthropicErrorBody(type, message ?? defaultMessage) };
}

function event(name: string, data: unknown): string {
  return formatServerSentEvent(JSON.stringify(data), name);
}

function messageId(context: ReplyContext): string {
  return `msg_fake${String(context.sequence).padStart(4, '0')}`;
}

function toolUseId(context: ReplyContext, callIndex: number): string {
  return derivedId('toolu_', 24, context.sequence, callIndex);
}

/** The thinking signature is bound to the model the request named, as Anthropic binds it to the model that thought. */
function thinkingSignature(context: ReplyContext): string {
  return anthropicThinkingSignature(typeof context.body.model === 'string' ? context.body.model : '', context.plan.reasoning);
}

function stopReason(context: ReplyContext): 'tool_use' | 'end_turn' | 'refusal' {
  if (context.plan.declined !== null) return 'refusal';
  return context.plan.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/** A refusal says why beside its stop reason; the fake names no policy category. */
function stopDetails(context: ReplyContext): Record<string, unknown> {
  const { declined } = context.plan;
  return declined === null ? {} : { stop_details: { type: 'refusal', category: null, explanation: declined.explanation } };
}

function usage(context: ReplyContext, outputTokens: number): unknown {
  return {
    // Anthropic counts what it read from its cache apart from `input_tokens`.
    input_tokens: context.inputTokens - context.cachedTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: context.cachedTokens,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** Anthropic writes its ping payload with a space after the colon, unlike every other event. */
const PING = 'event: ping\ndata: {"type": "ping"}\n\n';

const blockStart = (index: number, block: unknown): string => event('content_block_start', { type: 'content_block_start', index, content_block: block });
const blockDelta = (index: number, change: unknown): string => event('content_block_delta', { type: 'content_block_delta', index, delta: change });
const blockStop = (index: number): string => event('content_block_stop', { type: 'content_block_stop', index });

export const anthropicMessagesWire: FakeWire = {
  wire: 'anthropic-messages',

  modelLookup: modelListLookup('/v1/models'),

  route(method, path, body) {
    if (method !== 'POST' || path !== '/v1/messages') return null;
    return { streaming: body.stream === true, pathModel: null };
  },

  // The SDK sends `Authorization: Bearer`; curl examples and other clients send `x-api-key`.
  hasCredentials: (headers) => hasBearerOrHeader(headers, 'x-api-key'),
  missingCredentials: { status: 401, body: anthropicErrorBody('authentication_error', 'x-api-key header is required') },
  notFound: () => errorReply(404, 'Not Found'),
  invalidJson: () => errorReply(400, 'There was an error parsing the body of your request: invalid JSON'),

  checkRequest(body) {
    const problem = checkAnthropicRequest(body);
    return problem === null ? null : errorReply(400, problem);
  },

  // `system` is a string or a list of text blocks.
  systemText: (body) => contentText(body.system),

  conversation(body) {
    const entries: ConversationEntry[] = [];
    for (const message of listField(body, 'messages')) {
      if (!isRecord(message) || message.role !== 'user') continue;
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (isRecord(block) && block.type === 'tool_result') entries.push({ kind: 'tool-answer', text: contentText(block.content) });
      }
      // A message holding only tool results carries no directives: the prompt that started the turn does.
      const text = contentText(message.content);
      if (text !== '') entries.push({ kind: 'user-text', text });
    }
    return entries;
  },

  declaredToolNames: (body) => listField(body, 'tools').flatMap((tool) => (isRecord(tool) && typeof tool.name === 'string' ? [tool.name] : [])),

  reasoningSupport(body) {
    // Thinking shows only when the request turns it on, and then Claude always thinks before it calls tools.
    const enabled = thinkingEnabled(body);
    return { shown: enabled, beforeToolCalls: enabled };
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError: (status, message) => errorReply(status, message),
  tooLarge: (_brain, sizes) => errorReply(400, anthropicTooLargeMessage(sizes ?? TYPICAL_SIZES)),
  responseHeaders: (sequence) => ({ 'request-id': `req_fake${String(sequence).padStart(4, '0')}` }),
  streamContentType: 'text/event-stream; charset=utf-8',

  streamEvents(context) {
    const { plan } = context;
    const events: StreamEvent[] = [
      structure(
        event('message_start', {
          type: 'message_start',
          message: {
            id: messageId(context),
            type: 'message',
            role: 'assistant',
            model: plan.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(context, 1),
          },
        }),
      ),
    ];
    let pinged = false;
    // Anthropic pings once, right after the first block starts (or after message_start when there is none).
    const ping = (): void => {
      if (!pinged) events.push(structure(PING));
      pinged = true;
    };
    let index = 0;
    if (plan.reasoning !== '') {
      events.push(structure(blockStart(index, { type: 'thinking', thinking: '', signature: '' })));
      ping();
      for (const piece of plan.reasoningChunks) events.push(delta(blockDelta(index, { type: 'thinking_delta', thinking: piece })));
      events.push(delta(blockDelta(index, { type: 'signature_delta', signature: thinkingSignature(context) })));
      events.push(structure(blockStop(index)));
      index += 1;
    }
    if (plan.chunks.length > 0) {
      events.push(structure(blockStart(index, { type: 'text', text: '' })));
      ping();
      for (const chunk of plan.chunks) events.push(delta(blockDelta(index, { type: 'text_delta', text: chunk })));
      events.push(structure(blockStop(index)));
      index += 1;
    }
    for (const [callIndex, call] of plan.toolCalls.entries()) {
      events.push(structure(blockStart(index, { type: 'tool_use', id: toolUseId(context, callIndex), name: call.name, input: {} })));
      ping();
      // The recorded streams open every tool input with an empty partial_json before the pieces.
      for (const piece of ['', ...call.argumentPieces]) events.push(delta(blockDelta(index, { type: 'input_json_delta', partial_json: piece })));
      events.push(structure(blockStop(index)));
      index += 1;
    }
    ping();
    events.push(
      end(
        event('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: stopReason(context), stop_sequence: null, ...stopDetails(context) },
          usage: { output_tokens: plan.outputTokens },
        }),
      ),
      end(event('message_stop', { type: 'message_stop' })),
    );
    return events;
  },

  streamError: () => event('error', anthropicErrorBody('overloaded_error', 'Overloaded')),

  wholeReply(context) {
    const { plan } = context;
    const content: unknown[] = [];
    if (plan.reasoning !== '') content.push({ type: 'thinking', thinking: plan.reasoning, signature: thinkingSignature(context) });
    if (plan.text !== '') content.push({ type: 'text', text: plan.text });
    for (const [callIndex, call] of plan.toolCalls.entries()) content.push({ type: 'tool_use', id: toolUseId(context, callIndex), name: call.name, input: call.input });
    return {
      id: messageId(context),
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content,
      stop_reason: stopReason(context),
      stop_sequence: null,
      ...stopDetails(context),
      usage: usage(context, plan.outputTokens),
    };
  },

  storedItemIds: () => [],
};
