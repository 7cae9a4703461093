/**
 * The Messages API as claude and glm speak it: `POST /v1/messages`, SSE framed `event: X\ndata: {...}\n\n` with a `ping`
 * after the first block starts, and errors as `{"type":"error","error":{"type","message"}}`.
 */
import { formatServerSentEvent } from '../../src-main/core/providers/sse';
import { checkAnthropicRequest } from './anthropic-messages-rules';
import { hasBearerOrHeader, isRecord, type ErrorReply, type FakeWire, type ReplyContext } from './fake-wire';

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

export const ANTHROPIC_TOO_LARGE_MESSAGE = 'prompt is too long: 212345 tokens > 200000 maximum';

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

/** Scripted replies are plain text that ends by itself. */
const STOP_REASON = 'end_turn';

export const anthropicMessagesWire: FakeWire = {
  wire: 'anthropic-messages',

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

  lastUserText(body) {
    const messages: readonly unknown[] = Array.isArray(body.messages) ? body.messages : [];
    for (const message of [...messages].reverse()) {
      if (!isRecord(message) || message.role !== 'user') continue;
      const text = typeof message.content === 'string' ? message.content : textOfBlocks(message.content);
      // A message holding only tool results carries no directives: the prompt that started the turn does.
      if (text !== '') return text;
    }
    return '';
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError: (status) => errorReply(status),
  tooLarge: () => errorReply(400, ANTHROPIC_TOO_LARGE_MESSAGE),
  responseHeaders: (sequence) => ({ 'request-id': `req_fake${String(sequence).padStart(4, '0')}` }),
  streamContentType: 'text/event-stream; charset=utf-8',

  streamOpening(context) {
    const start = event('message_start', {
      type: 'message_start',
      message: {
        id: messageId(context),
        type: 'message',
        role: 'assistant',
        model: context.plan.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: context.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
          service_tier: 'standard',
        },
      },
    });
    const blockStart =
      context.plan.chunks.length > 0
        ? event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
        : '';
    // Anthropic writes its ping payload with a space after the colon, unlike every other event.
    return `${start}${blockStart}event: ping\ndata: {"type": "ping"}\n\n`;
  },

  streamTextDelta: (_context, text) =>
    event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),

  streamClosing(context) {
    const blockStop = context.plan.chunks.length > 0 ? event('content_block_stop', { type: 'content_block_stop', index: 0 }) : '';
    return (
      blockStop +
      event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: STOP_REASON, stop_sequence: null },
        usage: { output_tokens: context.plan.chunks.length },
      }) +
      event('message_stop', { type: 'message_stop' })
    );
  },

  streamError: () => event('error', anthropicErrorBody('overloaded_error', 'Overloaded')),

  wholeReply(context) {
    return {
      id: messageId(context),
      type: 'message',
      role: 'assistant',
      model: context.plan.model,
      content: context.plan.text === '' ? [] : [{ type: 'text', text: context.plan.text }],
      stop_reason: STOP_REASON,
      stop_sequence: null,
      usage: {
        input_tokens: context.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: context.plan.chunks.length,
        service_tier: 'standard',
      },
    };
  },
};

function textOfBlocks(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}
