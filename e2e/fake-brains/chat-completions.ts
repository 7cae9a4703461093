/**
 * Chat Completions as kimi speaks it: `POST /v1/chat/completions`, SSE `data: {chat.completion.chunk}\n\n` lines ending
 * in `data: [DONE]\n\n`, a last usage chunk with empty `choices` when `stream_options.include_usage` is set, and errors
 * as `{"error":{"message","type","param","code"}}`.
 */
import { formatServerSentEvent } from '../../src-main/core/providers/sse';
import { checkChatCompletionsRequest, kimiThinkingEnabled } from './chat-completions-rules';
import { derivedId } from './derived-tokens';
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
import { refusalWords, splitIntoChunks, type ConversationEntry } from './script';

const SYSTEM_FINGERPRINT = 'fp_fake0001';

interface OpenAiErrorDetails {
  readonly message: string;
  readonly type: string;
  readonly param?: string | null;
  readonly code?: string | null;
}

const ERRORS_BY_STATUS: Readonly<Record<number, OpenAiErrorDetails>> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error' },
  401: { message: 'Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'You are not allowed to sample from this model', type: 'invalid_request_error' },
  404: { message: 'The model does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' },
  429: { message: 'Rate limit reached for requests. Please try again in 20s.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error' },
  503: { message: 'The engine is currently overloaded, please try again later', type: 'server_error' },
};

/** Figures for `[too-large]`: Kimi K2's 262,144-token window. */
const TYPICAL_SIZES: RefusalSizes = { limitTokens: 262_144, requestTokens: 300_000 };

/** Moonshot's refusal of a request over the window: it names the limit, not the request's count. */
export function moonshotTooLarge(sizes: RefusalSizes): OpenAiErrorDetails {
  return { message: `Invalid request: Your request exceeded model token limit: ${sizes.limitTokens}`, type: 'invalid_request_error' };
}

export const CHAT_COMPLETIONS_MIDSTREAM_ERROR: OpenAiErrorDetails = {
  message: 'The server had an error while processing your request. Sorry about that!',
  type: 'server_error',
};

/** The first system (or developer) message's text: where Chat Completions and Ollama carry the system prompt. */
export function systemMessageText(body: Record<string, unknown>): string {
  const system = listField(body, 'messages').find((message) => isRecord(message) && (message.role === 'system' || message.role === 'developer'));
  return isRecord(system) ? contentText(system.content) : '';
}

export function openAiErrorBody(details: OpenAiErrorDetails): unknown {
  return { error: { message: details.message, type: details.type, param: details.param ?? null, code: details.code ?? null } };
}

function errorReply(status: number, details?: OpenAiErrorDetails): ErrorReply {
  const fallback = { message: `Error ${status}`, type: status >= 500 ? 'server_error' : 'invalid_request_error' };
  return { status, body: openAiErrorBody(details ?? ERRORS_BY_STATUS[status] ?? fallback) };
}

function includeUsage(context: ReplyContext): boolean {
  const streamOptions = context.body.stream_options;
  return isRecord(streamOptions) && streamOptions.include_usage === true;
}

function completionId(context: ReplyContext): string {
  return `chatcmpl-fake${String(context.sequence).padStart(4, '0')}`;
}

/** One chunk in OpenAI's field order; `usage: null` rides on every chunk only when usage was asked for. */
function chunk(context: ReplyContext, choices: readonly unknown[], usage: unknown = null): string {
  const payload = {
    id: completionId(context),
    object: 'chat.completion.chunk',
    created: context.createdAt,
    model: context.plan.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices,
    ...(includeUsage(context) ? { usage } : {}),
  };
  return formatServerSentEvent(JSON.stringify(payload));
}

function deltaChunk(context: ReplyContext, change: unknown): string {
  return chunk(context, [{ index: 0, delta: change, logprobs: null, finish_reason: null }]);
}

function usageOf(context: ReplyContext): unknown {
  const completionTokens = context.plan.outputTokens;
  return {
    prompt_tokens: context.inputTokens,
    completion_tokens: completionTokens,
    total_tokens: context.inputTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: context.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: context.plan.reasoningChunks.length, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function finishReason(context: ReplyContext): 'tool_calls' | 'stop' {
  return context.plan.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

/**
 * Kimi names its calls `functions.NAME:IDX`, counting calls across the whole conversation; OpenAI uses random
 * `call_…` ids (derived here, so they stay byte-stable).
 */
function toolCallIds(context: ReplyContext): string[] {
  const earlierCalls = listField(context.body, 'messages').reduce<number>(
    (sum, message) => sum + (isRecord(message) && message.role === 'assistant' ? listField(message, 'tool_calls').length : 0),
    0,
  );
  return context.plan.toolCalls.map((call, callIndex) =>
    context.brain === 'kimi' ? `functions.${call.name}:${earlierCalls + callIndex}` : derivedId('call_', 24, context.sequence, callIndex),
  );
}

export const chatCompletionsWire: FakeWire = {
  wire: 'chat-completions',

  modelLookup: modelListLookup('/v1/models'),

  route(method, path, body) {
    if (method !== 'POST' || path !== '/v1/chat/completions') return null;
    return { streaming: body.stream === true, pathModel: null };
  },

  hasCredentials: (headers) => hasBearerOrHeader(headers, 'api-key'),
  missingCredentials: errorReply(401, {
    message:
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    type: 'invalid_request_error',
  }),
  notFound: (path) => errorReply(404, { message: `Invalid URL (POST ${path})`, type: 'invalid_request_error' }),
  invalidJson: () =>
    errorReply(400, {
      message:
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      type: 'invalid_request_error',
    }),

  checkRequest(body, checks) {
    // The hand-written rules carry the providers' exact texts; the spec catches every other shape error after them.
    const problem = checkChatCompletionsRequest(body) ?? checks.openAiSpec?.check('CreateChatCompletionRequest', body) ?? null;
    return problem === null ? null : errorReply(400, { ...problem, type: 'invalid_request_error' });
  },

  systemText: (body) => systemMessageText(body),

  conversation(body) {
    const entries: ConversationEntry[] = [];
    for (const message of listField(body, 'messages')) {
      if (!isRecord(message)) continue;
      const text = contentText(message.content);
      if (message.role === 'tool') entries.push({ kind: 'tool-answer', text });
      else if (message.role === 'user' && text !== '') entries.push({ kind: 'user-text', text });
    }
    return entries;
  },

  declaredToolNames: (body) =>
    listField(body, 'tools').flatMap((tool) => (isRecord(tool) && tool.type === 'function' && isRecord(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : [])),

  reasoningSupport(body) {
    const disabled = isRecord(body.thinking) && body.thinking.type === 'disabled';
    return { shown: !disabled, beforeToolCalls: kimiThinkingEnabled(body) };
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError: (status, message) => errorReply(status, message === undefined ? undefined : { ...(ERRORS_BY_STATUS[status] ?? { type: 'invalid_request_error' }), message }),
  tooLarge: (_brain, sizes) => errorReply(400, moonshotTooLarge(sizes ?? TYPICAL_SIZES)),
  responseHeaders: (sequence) => ({ 'x-request-id': `req_fake${String(sequence).padStart(4, '0')}` }),
  streamContentType: 'text/event-stream; charset=utf-8',

  streamEvents(context) {
    const { plan } = context;
    const events: StreamEvent[] = [structure(deltaChunk(context, { role: 'assistant', content: '', refusal: null }))];
    for (const piece of plan.reasoningChunks) events.push(delta(deltaChunk(context, { reasoning_content: piece })));
    for (const piece of plan.chunks) events.push(delta(deltaChunk(context, { content: piece })));
    // OpenAI streams a refusal as `delta.refusal` pieces and finishes with "stop" (openai-node's recorded refusal);
    // whether Moonshot ever sends one is not documented.
    for (const piece of splitIntoChunks(refusalWords(context.plan) ?? '')) events.push(delta(deltaChunk(context, { refusal: piece })));
    const ids = toolCallIds(context);
    for (const [callIndex, call] of plan.toolCalls.entries()) {
      // A call's first piece names it; the pieces after it carry only argument text, keyed by `index`.
      events.push(delta(deltaChunk(context, { tool_calls: [{ index: callIndex, id: ids[callIndex], type: 'function', function: { name: call.name, arguments: '' } }] })));
      for (const piece of call.argumentPieces) events.push(delta(deltaChunk(context, { tool_calls: [{ index: callIndex, function: { arguments: piece } }] })));
    }
    events.push(end(chunk(context, [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason(context) }])));
    if (includeUsage(context)) events.push(end(chunk(context, [], usageOf(context))));
    events.push(end(formatServerSentEvent('[DONE]')));
    return events;
  },

  streamError: () => formatServerSentEvent(JSON.stringify(openAiErrorBody(CHAT_COMPLETIONS_MIDSTREAM_ERROR))),

  wholeReply(context) {
    const { plan } = context;
    const ids = toolCallIds(context);
    const toolCalls = plan.toolCalls.map((call, callIndex) => ({ id: ids[callIndex], type: 'function', function: { name: call.name, arguments: call.argumentsJson } }));
    return {
      id: completionId(context),
      object: 'chat.completion',
      created: context.createdAt,
      model: plan.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: toolCalls.length > 0 ? null : plan.text,
            ...(plan.reasoning === '' ? {} : { reasoning_content: plan.reasoning }),
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            refusal: refusalWords(context.plan),
            annotations: [],
          },
          logprobs: null,
          finish_reason: finishReason(context),
        },
      ],
      usage: usageOf(context),
      system_fingerprint: SYSTEM_FINGERPRINT,
    };
  },

  storedItemIds: () => [],
};
