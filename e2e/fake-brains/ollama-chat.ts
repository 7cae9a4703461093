/**
 * Ollama's native chat as ollama speaks it: `POST /api/chat`, streaming by default as NDJSON (one object a line, the
 * last with `done: true`), errors as `{"error":"…"}`. Ollama needs no key.
 */
import { isRecord, type ErrorReply, type FakeWire, type ReplyContext } from './fake-wire';

const ROLES = ['system', 'user', 'assistant', 'tool'];

function errorReply(status: number, message: string): ErrorReply {
  return { status, body: { error: message } };
}

function line(payload: unknown): string {
  return `${JSON.stringify(payload)}\n`;
}

function createdAt(context: ReplyContext): string {
  return new Date(context.createdAt * 1000).toISOString();
}

function finalLine(context: ReplyContext, content: string): unknown {
  return {
    model: context.plan.model,
    created_at: createdAt(context),
    message: { role: 'assistant', content },
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: context.inputTokens,
    prompt_eval_duration: 200_000,
    eval_count: context.plan.chunks.length,
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
    if (typeof body.model !== 'string' || body.model === '') return errorReply(400, 'model is required');
    const messages: readonly unknown[] = Array.isArray(body.messages) ? body.messages : [];
    for (const message of messages) {
      if (!isRecord(message)) return errorReply(400, 'json: cannot unmarshal into Go struct field ChatRequest.messages of type api.Message');
      if (typeof message.role !== 'string' || !ROLES.includes(message.role)) return errorReply(400, `invalid role: ${String(message.role)}`);
      const toolCalls: readonly unknown[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      for (const call of toolCalls) {
        // Ollama takes arguments as an object, unlike OpenAI's JSON string.
        if (isRecord(call) && isRecord(call.function) && typeof call.function.arguments === 'string') {
          return errorReply(
            400,
            'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments',
          );
        }
      }
    }
    return null;
  },

  lastUserText(body) {
    const messages: readonly unknown[] = Array.isArray(body.messages) ? body.messages : [];
    for (const message of [...messages].reverse()) {
      if (isRecord(message) && message.role === 'user' && typeof message.content === 'string' && message.content !== '') return message.content;
    }
    return '';
  },

  requestedModel: (body) => (typeof body.model === 'string' ? body.model : ''),
  statusError: (status) => errorReply(status, status === 404 ? 'model not found, try pulling it first' : `error ${status}`),
  tooLarge: () => errorReply(400, 'the input length exceeds the context length'),
  responseHeaders: () => ({}),
  streamContentType: 'application/x-ndjson',
  streamOpening: () => '',
  streamTextDelta: (context, text) => line({ model: context.plan.model, created_at: createdAt(context), message: { role: 'assistant', content: text }, done: false }),
  streamClosing: (context) => line(finalLine(context, '')),
  streamError: () => line({ error: 'an error was encountered while running the model: unexpected EOF' }),
  wholeReply: (context) => finalLine(context, context.plan.text),
};
