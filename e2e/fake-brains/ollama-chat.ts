/**
 * Ollama's native chat as ollama speaks it: `POST /api/chat`, streaming by default as NDJSON (one object a line, the
 * last with `done: true`), errors as `{"error":"…"}`. Ollama needs no key. `POST /api/show` describes any model as a
 * qwen3 trained for 40,960 tokens, whose Modelfile sets `num_ctx N` only when the name ends in `ctx-N`
 * (`qwen3:ctx-8192`).
 */
import { systemMessageText } from './chat-completions';
import { delta, end, isRecord, listField, type ErrorReply, type FakeWire, type ModelLookup, type RefusalSizes, type ReplyContext } from './fake-wire';
import { checkOllamaRequest, fakeOllamaModelThinks } from './ollama-chat-rules';
import { modelListLookup } from './model-lists';
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

/** What a real qwen3 reports as its architecture's trained context length. */
export const FAKE_OLLAMA_TRAINED_CONTEXT_LENGTH = 40_960;

/** The `num_ctx` the fake's Modelfile for `model` sets: N for a name ending in `ctx-N`, else none. */
export function fakeOllamaNumCtx(model: string): number | null {
  const match = /ctx-(\d+)$/.exec(model);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** One line of `parameters`, in the columns `ollama show` pads names into. */
function parameterLine(name: string, value: string): string {
  return `${name.padEnd(30)} ${value}`;
}

/** The `/api/show` answer for a model, in the shape of the API docs' example (`verbose` off), with qwen3:8b's fields. */
export function fakeOllamaShow(model: string): Record<string, unknown> {
  const numCtx = fakeOllamaNumCtx(model);
  const parameters = [
    ...(numCtx === null ? [] : [parameterLine('num_ctx', String(numCtx))]),
    parameterLine('repeat_penalty', '1'),
    parameterLine('stop', '"<|im_start|>"'),
    parameterLine('stop', '"<|im_end|>"'),
    parameterLine('temperature', '0.6'),
    parameterLine('top_k', '20'),
    parameterLine('top_p', '0.95'),
  ].join('\n');
  return {
    parameters,
    details: { parent_model: '', format: 'gguf', family: 'qwen3', families: ['qwen3'], parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
    model_info: {
      'general.architecture': 'qwen3',
      'general.basename': 'Qwen3',
      'general.file_type': 15,
      'general.parameter_count': 8_190_735_360,
      'general.quantization_version': 2,
      'qwen3.attention.head_count': 32,
      'qwen3.attention.head_count_kv': 8,
      'qwen3.block_count': 36,
      'qwen3.context_length': FAKE_OLLAMA_TRAINED_CONTEXT_LENGTH,
      'qwen3.embedding_length': 4096,
      'qwen3.feed_forward_length': 12_288,
      'tokenizer.ggml.model': 'gpt2',
      // Filled only when the request asks for `verbose`.
      'tokenizer.ggml.tokens': [],
    },
    capabilities: fakeOllamaModelThinks(model) ? ['completion', 'tools', 'thinking'] : ['completion', 'tools'],
    modified_at: '2026-01-01T00:00:00Z',
  };
}

const listLookup = modelListLookup('/api/tags');

const showLookup: ModelLookup = {
  // Ollama's ShowHandler: a body without a model name is refused before any model is looked up.
  check: (body) => (typeof body.model === 'string' && body.model !== '' ? null : errorReply(400, 'model is required')),
  // The fake serves any model name, so every name has a description.
  answer: (body) => fakeOllamaShow(String(body.model)),
};

export const ollamaChatWire: FakeWire = {
  wire: 'ollama-chat',

  route(method, path, body) {
    if (method !== 'POST' || path !== '/api/chat') return null;
    // /api/chat streams unless the body says `stream: false`.
    return { streaming: body.stream !== false, pathModel: null };
  },

  modelLookup: (method, path, brain) => (method === 'POST' && path === '/api/show' ? showLookup : listLookup(method, path, brain)),

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
  statusError: (status, message) => errorReply(status, message ?? (status === 404 ? 'model not found, try pulling it first' : `error ${status}`)),
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
