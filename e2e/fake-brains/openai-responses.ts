/**
 * The Responses API as codex and grok speak it: `POST /v1/responses`, SSE framed `event: response.X\ndata: {...}\n\n`
 * with a `sequence_number` on every event, errors as `{"error":{"message","type","param","code"}}`.
 */
import { formatServerSentEvent } from '../../src-main/core/providers/sse';
import { hasBearerOrHeader, isRecord, type ErrorReply, type FakeWire, type ReplyContext } from './fake-wire';
import { openAiErrorBody } from './chat-completions';

const MAX_CALL_ID_LENGTH = 64;
/** response.created, response.in_progress, output_item.added and content_part.added come before the first delta. */
const EVENTS_BEFORE_TEXT = 4;

function errorReply(status: number, message: string, type: string, param: string | null = null, code: string | null = null): ErrorReply {
  return { status, body: openAiErrorBody({ message, type, param, code }) };
}

const STATUS_ERRORS: Readonly<Record<number, readonly [message: string, type: string, code: string | null]>> = {
  401: ['Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'],
  429: ['Rate limit reached for requests. Please try again in 20s.', 'requests', 'rate_limit_exceeded'],
  500: ['The server had an error while processing your request. Sorry about that!', 'server_error', null],
};

function responseId(context: ReplyContext): string {
  return `resp_fake${String(context.sequence).padStart(4, '0')}`;
}

function messageItemId(context: ReplyContext): string {
  return `msg_fake${String(context.sequence).padStart(4, '0')}`;
}

function messageItem(context: ReplyContext, status: 'in_progress' | 'completed'): unknown {
  const content = status === 'completed' ? [{ type: 'output_text', annotations: [], logprobs: [], text: context.plan.text }] : [];
  return { id: messageItemId(context), type: 'message', status, content, role: 'assistant' };
}

function responseObject(context: ReplyContext, status: 'in_progress' | 'completed' | 'failed'): unknown {
  const outputTokens = context.plan.chunks.length;
  const completed = status === 'completed';
  return {
    id: responseId(context),
    object: 'response',
    created_at: context.createdAt,
    status,
    error: status === 'failed' ? { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' } : null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: context.plan.model,
    output: completed && context.plan.chunks.length > 0 ? [messageItem(context, 'completed')] : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    store: context.body.store !== false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: completed
      ? {
          input_tokens: context.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: context.inputTokens + outputTokens,
        }
      : null,
    metadata: {},
  };
}

function event(type: string, sequenceNumber: number, fields: Record<string, unknown>): string {
  return formatServerSentEvent(JSON.stringify({ type, ...fields, sequence_number: sequenceNumber }), type);
}

export const openAiResponsesWire: FakeWire = {
  wire: 'openai-responses',

  route(method, path, body) {
    if (method !== 'POST' || path !== '/v1/responses') return null;
    return { streaming: body.stream === true, pathModel: null };
  },

  hasCredentials: (headers) => hasBearerOrHeader(headers, 'api-key'),
  missingCredentials: errorReply(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    'invalid_request_error',
  ),
  notFound: (path) => errorReply(404, `Invalid URL (POST ${path})`, 'invalid_request_error'),
  invalidJson: () => errorReply(400, 'We could not parse the JSON body of your request.', 'invalid_request_error'),

  checkRequest(body) {
    if (typeof body.model !== 'string' || body.model === '') return errorReply(400, "Missing required parameter: 'model'.", 'invalid_request_error', 'model', 'missing_required_parameter');
    // Replays carry their own history; a stored response id would point at nothing the fake (or a store:false call) kept.
    if (typeof body.previous_response_id === 'string') {
      return errorReply(400, `Previous response with id '${body.previous_response_id}' not found.`, 'invalid_request_error', 'previous_response_id', 'previous_response_not_found');
    }
    const items: readonly unknown[] = Array.isArray(body.input) ? body.input : [];
    const callIds = new Set<string>();
    const answered = new Set<string>();
    for (const [index, item] of items.entries()) {
      if (!isRecord(item)) continue;
      if (item.type === 'function_call') {
        const callId = String(item.call_id);
        if (callId.length > MAX_CALL_ID_LENGTH) {
          return errorReply(
            400,
            `Invalid 'input[${index}].call_id': string too long. Expected a string with maximum length ${MAX_CALL_ID_LENGTH}, but got a string with length ${callId.length} instead.`,
            'invalid_request_error',
            `input[${index}].call_id`,
            'string_above_max_length',
          );
        }
        if (typeof item.id === 'string' && !item.id.startsWith('fc')) {
          return errorReply(400, `Invalid 'input[${index}].id': '${item.id}'. Expected an ID that begins with 'fc'.`, 'invalid_request_error', `input[${index}].id`, 'invalid_value');
        }
        callIds.add(callId);
      }
      if (item.type === 'function_call_output') {
        const callId = String(item.call_id);
        if (!callIds.has(callId)) return errorReply(400, `No tool call found for function call output with call_id ${callId}.`, 'invalid_request_error', 'input', null);
        answered.add(callId);
      }
    }
    const unanswered = [...callIds].find((callId) => !answered.has(callId));
    if (unanswered !== undefined) return errorReply(400, `No tool output found for function call ${unanswered}.`, 'invalid_request_error', 'input', null);
    return null;
  },

  lastUserText(body) {
    if (typeof body.input === 'string') return body.input;
    const items: readonly unknown[] = Array.isArray(body.input) ? body.input : [];
    for (const item of [...items].reverse()) {
      if (!isRecord(item) || item.role !== 'user') continue;
      const text = typeof item.content === 'string' ? item.content : textOfParts(item.content);
      if (text !== '') return text;
    }
    return '';
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError(status) {
    const [message, type, code] = STATUS_ERRORS[status] ?? [`Error ${status}`, status >= 500 ? 'server_error' : 'invalid_request_error', null];
    return errorReply(status, message, type, null, code);
  },
  tooLarge: () =>
    errorReply(400, 'Your input exceeds the context window of this model. Please adjust your input and try again.', 'invalid_request_error', 'input', 'context_length_exceeded'),
  responseHeaders: (sequence) => ({ 'x-request-id': `req_fake${String(sequence).padStart(4, '0')}` }),
  streamContentType: 'text/event-stream; charset=utf-8',

  streamOpening(context) {
    const opening =
      event('response.created', 0, { response: responseObject(context, 'in_progress') }) +
      event('response.in_progress', 1, { response: responseObject(context, 'in_progress') });
    if (context.plan.chunks.length === 0) return opening;
    return (
      opening +
      event('response.output_item.added', 2, { output_index: 0, item: messageItem(context, 'in_progress') }) +
      event('response.content_part.added', 3, {
        item_id: messageItemId(context),
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      })
    );
  },

  streamTextDelta: (context, text, chunkIndex) =>
    event('response.output_text.delta', EVENTS_BEFORE_TEXT + chunkIndex, { item_id: messageItemId(context), output_index: 0, content_index: 0, delta: text, logprobs: [] }),

  streamClosing(context) {
    const chunkCount = context.plan.chunks.length;
    if (chunkCount === 0) return event('response.completed', 2, { response: responseObject(context, 'completed') });
    let sequenceNumber = EVENTS_BEFORE_TEXT + chunkCount;
    const itemId = messageItemId(context);
    return (
      event('response.output_text.done', sequenceNumber++, { item_id: itemId, output_index: 0, content_index: 0, text: context.plan.text, logprobs: [] }) +
      event('response.content_part.done', sequenceNumber++, {
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: context.plan.text },
      }) +
      event('response.output_item.done', sequenceNumber++, { output_index: 0, item: messageItem(context, 'completed') }) +
      event('response.completed', sequenceNumber, { response: responseObject(context, 'completed') })
    );
  },

  streamError(context) {
    const sequenceNumber = EVENTS_BEFORE_TEXT + context.plan.chunksBeforeEnding;
    return event('response.failed', sequenceNumber, { response: responseObject(context, 'failed') });
  },

  wholeReply: (context) => responseObject(context, 'completed'),
};

function textOfParts(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { text: string } => isRecord(part) && (part.type === 'input_text' || part.type === 'text') && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
