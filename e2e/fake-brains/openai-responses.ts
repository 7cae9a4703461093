/**
 * The Responses API as codex and grok speak it: `POST /v1/responses`, SSE framed `event: response.X\ndata: {...}\n\n`
 * with a `sequence_number` on every event, errors as `{"error":{"message","type","param","code"}}`.
 */
import { formatServerSentEvent } from '../../src-main/core/providers/sse';
import { openAiErrorBody } from './chat-completions';
import { derivedId, responsesEncryptedReasoning } from './derived-tokens';
import { contentText, hasBearerOrHeader, isRecord, listField, type ErrorReply, type FakeWire, type RefusalSizes, type ReplyContext, type StreamEvent } from './fake-wire';
import { checkResponsesRequest } from './openai-responses-rules';
import { modelListLookup } from './model-lists';
import { refusalWords, splitIntoChunks, type ConversationEntry } from './script';

/** Text parts of input messages: `input_text`, and `text` as some clients send it. */
const INPUT_TEXT_PARTS = ['input_text', 'text'];

function errorReply(status: number, message: string, type: string, param: string | null = null, code: string | null = null): ErrorReply {
  return { status, body: openAiErrorBody({ message, type, param, code }) };
}

/** Figures for `[too-large]`: GPT-5's 272,000-token input limit, and Grok 3's 131,072-token prompt limit. */
const OPENAI_TYPICAL_SIZES: RefusalSizes = { limitTokens: 272_000, requestTokens: 300_000 };
const XAI_TYPICAL_SIZES: RefusalSizes = { limitTokens: 131_072, requestTokens: 140_000 };

/** xAI's error body: `error` is the message itself, beside a gRPC-style `code` text. */
export function xaiErrorBody(message: string): unknown {
  return { code: 'Client specified an invalid argument', error: message };
}

const STATUS_ERRORS: Readonly<Record<number, readonly [message: string, type: string, code: string | null]>> = {
  401: ['Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'],
  429: ['Rate limit reached for requests. Please try again in 20s.', 'requests', 'rate_limit_exceeded'],
  500: ['The server had an error while processing your request. Sorry about that!', 'server_error', null],
};

/** The output items of one reply, with the ids the fake gives them. */
interface OutputItems {
  readonly reasoningId: string | null;
  readonly messageId: string | null;
  readonly calls: readonly { readonly id: string; readonly callId: string }[];
}

function outputItems(context: ReplyContext): OutputItems {
  const { plan, sequence } = context;
  return {
    reasoningId: plan.reasoning === '' ? null : derivedId('rs_', 48, sequence, 'reasoning'),
    messageId: plan.chunks.length === 0 && plan.declined === null ? null : `msg_fake${String(sequence).padStart(4, '0')}`,
    calls: plan.toolCalls.map((_call, callIndex) => ({ id: derivedId('fc_', 48, sequence, callIndex), callId: derivedId('call_', 24, sequence, callIndex) })),
  };
}

/** OpenAI returns the encrypted reasoning only when `include` asks for it. */
function includesEncryptedReasoning(context: ReplyContext): boolean {
  return listField(context.body, 'include').includes('reasoning.encrypted_content');
}

function reasoningItem(context: ReplyContext, id: string, status: 'in_progress' | 'completed'): unknown {
  if (status === 'in_progress') return { id, type: 'reasoning', summary: [] };
  const encrypted = includesEncryptedReasoning(context) ? { encrypted_content: responsesEncryptedReasoning(context.plan.model, id) } : {};
  return { id, type: 'reasoning', summary: [{ type: 'summary_text', text: context.plan.reasoning }], ...encrypted };
}

/** A refusal is a content part of the message, after any text: `{type: "refusal", refusal}`. */
function messageItem(context: ReplyContext, id: string, status: 'in_progress' | 'completed'): unknown {
  const refusal = refusalWords(context.plan);
  const content =
    status === 'completed'
      ? [
          ...(context.plan.chunks.length === 0 ? [] : [{ type: 'output_text', annotations: [], logprobs: [], text: context.plan.text }]),
          ...(refusal === null ? [] : [{ type: 'refusal', refusal }]),
        ]
      : [];
  return { id, type: 'message', status, content, role: 'assistant' };
}

function functionCallItem(context: ReplyContext, callIndex: number, status: 'in_progress' | 'completed'): unknown {
  const call = context.plan.toolCalls[callIndex];
  const ids = outputItems(context).calls[callIndex];
  return { id: ids?.id, type: 'function_call', status, arguments: status === 'completed' ? call?.argumentsJson : '', call_id: ids?.callId, name: call?.name };
}

function completedOutput(context: ReplyContext): unknown[] {
  const items = outputItems(context);
  return [
    ...(items.reasoningId === null ? [] : [reasoningItem(context, items.reasoningId, 'completed')]),
    ...(items.messageId === null ? [] : [messageItem(context, items.messageId, 'completed')]),
    ...context.plan.toolCalls.map((_call, callIndex) => functionCallItem(context, callIndex, 'completed')),
  ];
}

function responseObject(context: ReplyContext, status: 'in_progress' | 'completed' | 'failed'): unknown {
  const { plan } = context;
  const completed = status === 'completed';
  return {
    id: `resp_fake${String(context.sequence).padStart(4, '0')}`,
    object: 'response',
    created_at: context.createdAt,
    status,
    error: status === 'failed' ? { code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' } : null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: plan.model,
    output: completed ? completedOutput(context) : [],
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
          input_tokens_details: { cached_tokens: context.cachedTokens },
          output_tokens: plan.outputTokens,
          output_tokens_details: { reasoning_tokens: plan.reasoningChunks.length },
          total_tokens: context.inputTokens + plan.outputTokens,
        }
      : null,
    metadata: {},
  };
}

/** An event before its `sequence_number` is known: numbers are given once the whole reply is laid out. */
interface PendingEvent {
  readonly kind: StreamEvent['kind'];
  readonly type: string;
  readonly fields: Record<string, unknown>;
}

function event(type: string, sequenceNumber: number, fields: Record<string, unknown>): string {
  return formatServerSentEvent(JSON.stringify({ type, ...fields, sequence_number: sequenceNumber }), type);
}

function pendingEvents(context: ReplyContext): PendingEvent[] {
  const { plan } = context;
  const items = outputItems(context);
  const events: PendingEvent[] = [
    { kind: 'structure', type: 'response.created', fields: { response: responseObject(context, 'in_progress') } },
    { kind: 'structure', type: 'response.in_progress', fields: { response: responseObject(context, 'in_progress') } },
  ];
  let outputIndex = 0;
  if (items.reasoningId !== null) {
    const at = { item_id: items.reasoningId, output_index: outputIndex, summary_index: 0 };
    events.push(
      { kind: 'structure', type: 'response.output_item.added', fields: { output_index: outputIndex, item: reasoningItem(context, items.reasoningId, 'in_progress') } },
      { kind: 'structure', type: 'response.reasoning_summary_part.added', fields: { ...at, part: { type: 'summary_text', text: '' } } },
      ...plan.reasoningChunks.map((piece): PendingEvent => ({ kind: 'delta', type: 'response.reasoning_summary_text.delta', fields: { ...at, delta: piece } })),
      { kind: 'structure', type: 'response.reasoning_summary_text.done', fields: { ...at, text: plan.reasoning } },
      { kind: 'structure', type: 'response.reasoning_summary_part.done', fields: { ...at, part: { type: 'summary_text', text: plan.reasoning } } },
      // Only the finished item carries `encrypted_content`: a replay must take it from here, not from `.added`.
      { kind: 'structure', type: 'response.output_item.done', fields: { output_index: outputIndex, item: reasoningItem(context, items.reasoningId, 'completed') } },
    );
    outputIndex += 1;
  }
  if (items.messageId !== null) {
    const at = { item_id: items.messageId, output_index: outputIndex, content_index: 0 };
    const part = (text: string): unknown => ({ type: 'output_text', annotations: [], logprobs: [], text });
    events.push({ kind: 'structure', type: 'response.output_item.added', fields: { output_index: outputIndex, item: messageItem(context, items.messageId, 'in_progress') } });
    if (plan.chunks.length > 0) {
      events.push(
        { kind: 'structure', type: 'response.content_part.added', fields: { ...at, part: part('') } },
        ...plan.chunks.map((piece): PendingEvent => ({ kind: 'delta', type: 'response.output_text.delta', fields: { ...at, delta: piece, logprobs: [] } })),
        { kind: 'structure', type: 'response.output_text.done', fields: { ...at, text: plan.text, logprobs: [] } },
        { kind: 'structure', type: 'response.content_part.done', fields: { ...at, part: part(plan.text) } },
      );
    }
    const refusal = refusalWords(context.plan);
    if (refusal !== null) {
      const refusalAt = { ...at, content_index: plan.chunks.length > 0 ? 1 : 0 };
      events.push(
        { kind: 'structure', type: 'response.content_part.added', fields: { ...refusalAt, part: { type: 'refusal', refusal: '' } } },
        ...splitIntoChunks(refusal).map((piece): PendingEvent => ({ kind: 'delta', type: 'response.refusal.delta', fields: { ...refusalAt, delta: piece } })),
        { kind: 'structure', type: 'response.refusal.done', fields: { ...refusalAt, refusal } },
        { kind: 'structure', type: 'response.content_part.done', fields: { ...refusalAt, part: { type: 'refusal', refusal } } },
      );
    }
    events.push({ kind: 'structure', type: 'response.output_item.done', fields: { output_index: outputIndex, item: messageItem(context, items.messageId, 'completed') } });
    outputIndex += 1;
  }
  for (const [callIndex, call] of plan.toolCalls.entries()) {
    const itemId = items.calls[callIndex]?.id;
    const at = { item_id: itemId, output_index: outputIndex };
    events.push(
      { kind: 'structure', type: 'response.output_item.added', fields: { output_index: outputIndex, item: functionCallItem(context, callIndex, 'in_progress') } },
      ...call.argumentPieces.map((piece): PendingEvent => ({ kind: 'delta', type: 'response.function_call_arguments.delta', fields: { ...at, delta: piece } })),
      { kind: 'structure', type: 'response.function_call_arguments.done', fields: { ...at, arguments: call.argumentsJson } },
      { kind: 'structure', type: 'response.output_item.done', fields: { output_index: outputIndex, item: functionCallItem(context, callIndex, 'completed') } },
    );
    outputIndex += 1;
  }
  events.push({ kind: 'end', type: 'response.completed', fields: { response: responseObject(context, 'completed') } });
  return events;
}

export const openAiResponsesWire: FakeWire = {
  wire: 'openai-responses',

  modelLookup: modelListLookup('/v1/models'),

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

  checkRequest(body, checks) {
    const problem = checkResponsesRequest(body, checks.memory);
    if (problem !== null) return errorReply(problem.status, problem.message, 'invalid_request_error', problem.param, problem.code);
    // The hand-written rules carry OpenAI's exact texts; the spec catches every other shape error after them.
    const specProblem = checks.openAiSpec?.check('CreateResponse', body) ?? null;
    return specProblem === null ? null : errorReply(400, specProblem.message, 'invalid_request_error', specProblem.param, specProblem.code);
  },

  systemText(body) {
    if (typeof body.instructions === 'string') return body.instructions;
    const system = listField(body, 'input').find((item) => isRecord(item) && (item.role === 'system' || item.role === 'developer'));
    return isRecord(system) ? contentText(system.content, INPUT_TEXT_PARTS) : '';
  },

  conversation(body) {
    if (typeof body.input === 'string') return [{ kind: 'user-text', text: body.input }];
    const entries: ConversationEntry[] = [];
    for (const item of listField(body, 'input')) {
      if (!isRecord(item)) continue;
      if (item.type === 'function_call_output') entries.push({ kind: 'tool-answer', text: contentText(item.output, INPUT_TEXT_PARTS) });
      else if (item.role === 'user') {
        const text = contentText(item.content, INPUT_TEXT_PARTS);
        if (text !== '') entries.push({ kind: 'user-text', text });
      }
    }
    return entries;
  },

  declaredToolNames: (body) => listField(body, 'tools').flatMap((tool) => (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string' ? [tool.name] : [])),

  reasoningSupport(body) {
    // Reasoning items appear only when the request asks for reasoning (and not for none of it).
    const shown = isRecord(body.reasoning) && body.reasoning.effort !== 'none';
    return { shown, beforeToolCalls: false };
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError(status, message) {
    const [usualMessage, type, code] = STATUS_ERRORS[status] ?? [`Error ${status}`, status >= 500 ? 'server_error' : 'invalid_request_error', null];
    return errorReply(status, message ?? usualMessage, type, null, code);
  },
  tooLarge(brain, sizes) {
    if (brain === 'grok') return { status: 400, body: xaiErrorBody(`This model's maximum prompt length is ${(sizes ?? XAI_TYPICAL_SIZES).limitTokens} but the request contains ${(sizes ?? XAI_TYPICAL_SIZES).requestTokens} tokens.`) };
    const { limitTokens, requestTokens } = sizes ?? OPENAI_TYPICAL_SIZES;
    return errorReply(
      400,
      `This model's maximum context length is ${limitTokens} tokens. However, your messages resulted in ${requestTokens} tokens. Please reduce the length of the messages.`,
      'invalid_request_error',
      'input',
      'context_length_exceeded',
    );
  },
  responseHeaders: (sequence) => ({ 'x-request-id': `req_fake${String(sequence).padStart(4, '0')}` }),
  streamContentType: 'text/event-stream; charset=utf-8',

  streamEvents: (context) => pendingEvents(context).map((pending, index) => ({ kind: pending.kind, bytes: event(pending.type, index, pending.fields) })),

  // Every event before the failure took one sequence number.
  streamError: (context, eventsSent) => event('response.failed', eventsSent, { response: responseObject(context, 'failed') }),

  wholeReply: (context) => responseObject(context, 'completed'),

  storedItemIds(context) {
    if (context.body.store === false) return [];
    const items = outputItems(context);
    return [items.reasoningId, items.messageId, ...items.calls.map((call) => call.id)].filter((id): id is string => id !== null);
  },
};
