/**
 * Ollama's native chat as ollama speaks it: `POST /api/chat`, streaming by default as NDJSON (one object a line, the
 * last with `done: true`), errors as `{"error":"…"}`. Ollama needs no key.
 */
import { systemMessageText } from './chat-completions';
import { delta, end, isRecord, listField, type ErrorReply, type FakeWire, type RefusalSizes, type ReplyContext } from './fake-wire';
import { checkOllamaRequest } from './ollama-chat-rules';
import type { ConversationEntry } from './script';

/** Figures for `[too-large]`: a request over a 4,096-token `num_ctx`. */
const TYPICAL_SIZES: RefusalSizes = { limitTokens: 4096, requestTokens: 8889 };

/**
 * What Ollama answers with `truncate: false` when the prompt exceeds `num_ctx`: HTTP 400 whose `error` string is the
 * llama.cpp runner's own JSON error (https://github.com/ollama/ollama/pull/12061 added the switch; the body as
 * measured and quoted in public notes on Ollama's chat API).
 */
export function llamaServerTooLarge(limitTokens: number, requestTokens: number): string {
  return JSON.stringify({
    error: {
      code: 400,
      message: `request (${requestTokens} tokens) exceeds the available context size (${limitTokens} tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: requestTokens,
      n_ctx: limitTokens,
    },
  });
}

function errorReply(status: number, message: string): ErrorReply {
  return { status, body: { error: message } };
}

function line(payload: unknown): string {
  return `${JSON.stringify(payload)}\n`;
}

function createdAt(context: ReplyContext): string {
  return new Date(context.createdAt * 1000).toISOString();
}

function toolCalls(context: ReplyContext): unknown[] {
  return context.plan.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.input } }));
}

function messageLine(context: ReplyContext, message: Record<string, unknown>): string {
  return line({ model: context.plan.model, created_at: createdAt(context), message: { role: 'assistant', content: '', ...message }, done: false });
}

function finalLine(context: ReplyContext, message: Record<string, unknown>): unknown {
  return {
    model: context.plan.model,
    created_at: createdAt(context),
    message: { role: 'assistant', content: '', ...message },
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: context.inputTokens,
    prompt_eval_duration: 200_000,
    eval_count: context.plan.outputTokens,
    eval_duration: 700_000,
  };
}

export const ollamaChatWire: FakeWire = {
  wire: 'ollama-chat',

  route(method, path, body) {
    if (method !== 'POST' || path !== '/api/chat') return null;
    // /api/chat streams unless the body says `stream: false`.
    return { streaming: body.stream !== false, pathModel: null };
  },

  hasCredentials: () => true,
  missingCredentials: errorReply(401, 'unauthorized'),
  notFound: () => errorReply(404, '404 page not found'),
  invalidJson: () => errorReply(400, 'invalid character looking for beginning of value'),

  checkRequest(body) {
    const problem = checkOllamaRequest(body);
    return problem === null ? null : errorReply(400, problem);
  },

  systemText: (body) => systemMessageText(body),

  conversation(body) {
    const entries: ConversationEntry[] = [];
    for (const message of listField(body, 'messages')) {
      if (!isRecord(message) || typeof message.content !== 'string') continue;
      if (message.role === 'tool') entries.push({ kind: 'tool-answer', text: message.content });
      else if (message.role === 'user' && message.content !== '') entries.push({ kind: 'user-text', text: message.content });
    }
    return entries;
  },

  declaredToolNames: (body) =>
    listField(body, 'tools').flatMap((tool) => (isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : [])),

  // `think` is `true` or a level (`"low"`, `"medium"`, `"high"`); thinking shows only then.
  reasoningSupport: (body) => ({ shown: body.think === true || typeof body.think === 'string', beforeToolCalls: false }),

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError: (status) => errorReply(status, status === 404 ? 'model not found, try pulling it first' : `error ${status}`),
  tooLarge(_brain, sizes) {
    const { limitTokens, requestTokens } = sizes ?? TYPICAL_SIZES;
    return errorReply(400, llamaServerTooLarge(limitTokens, requestTokens));
  },
  responseHeaders: () => ({}),
  streamContentType: 'application/x-ndjson',

  streamEvents(context) {
    const { plan } = context;
    return [
      ...plan.reasoningChunks.map((piece) => delta(messageLine(context, { thinking: piece }))),
      ...plan.chunks.map((piece) => delta(messageLine(context, { content: piece }))),
      // Ollama sends a reply's calls whole, in one line, with arguments as objects.
      ...(plan.toolCalls.length > 0 ? [delta(messageLine(context, { tool_calls: toolCalls(context) }))] : []),
      end(line(finalLine(context, {}))),
    ];
  },

  streamError: () => line({ error: 'an error was encountered while running the model: unexpected EOF' }),

  wholeReply(context) {
    const { plan } = context;
    return finalLine(context, {
      content: plan.text,
      ...(plan.reasoning === '' ? {} : { thinking: plan.reasoning }),
      ...(plan.toolCalls.length > 0 ? { tool_calls: toolCalls(context) } : {}),
    });
  },

  storedItemIds: () => [],
};
