import { describe, expect, it } from 'vitest';
import { errorFromOllamaBody, mapOllamaChatLines } from './ollama-chat';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import { collect, eventsFrom } from './testing/recorded-streams';

const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown => ({
  model: 'qwen3',
  created_at: '2026-01-01T00:00:00.000Z',
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...extra,
});
const doneLine = (reason: string): unknown => line({}, { done: true, done_reason: reason, prompt_eval_count: 26, eval_count: 12 });

describe('mapOllamaChatLines', () => {
  it('maps thinking, text and the final counts (the api.md streaming example shape)', async () => {
    const lines = [line({ thinking: 'Hmm.' }), line({ content: 'The sky' }), line({ content: ' is blue.' }), doneLine('stop')];
    expect(await collect(mapOllamaChatLines(eventsFrom(lines)))).toEqual([
      { type: 'response-model', model: 'qwen3' },
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'text-delta', text: 'The sky' },
      { type: 'text-delta', text: ' is blue.' },
      { type: 'usage', usage: { inputTokens: 26, outputTokens: 12 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('maps whole tool calls with object arguments', async () => {
    const lines = [line({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }), doneLine('stop')];
    expect(await collect(mapOllamaChatLines(eventsFrom(lines)))).toEqual([
      { type: 'response-model', model: 'qwen3' },
      { type: 'tool-call', providerCallId: null, name: 'get_weather', input: { city: 'Paris' } },
      { type: 'usage', usage: { inputTokens: 26, outputTokens: 12 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'stop' },
    ]);
  });

  it('ends the reply at a call whose arguments are not an object: one error, no finish after it', async () => {
    const lines = [line({ tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }), doneLine('stop')];
    expect(await collect(mapOllamaChatLines(eventsFrom(lines)))).toEqual([
      { type: 'response-model', model: 'qwen3' },
      { type: 'error', error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: the arguments of tool call "get_weather" are not a JSON object', retryable: true } },
    ]);
  });

  it('reports an error line, a stream without done and a dropped socket', async () => {
    expect(await collect(mapOllamaChatLines(eventsFrom([{ error: 'model runner has unexpectedly stopped' }])))).toEqual([
      { type: 'error', error: { code: 'provider-error', message: 'The provider answered with an error during the reply: model runner has unexpectedly stopped', retryable: true } },
    ]);
    const closed = { type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } };
    expect((await collect(mapOllamaChatLines(eventsFrom([line({ content: 'Half' })])))).at(-1)).toEqual(closed);
    expect((await collect(mapOllamaChatLines(eventsFrom([line({ content: 'Half' })], new TypeError('terminated'))))).at(-1)).toEqual(closed);
  });
});

describe('errorFromOllamaBody', () => {
  it('reads the runner error Ollama wraps in its own, with the figures it names', () => {
    const runnerError = JSON.stringify({
      error: {
        code: 400,
        message: 'request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 8889,
        n_ctx: 4096,
      },
    });
    expect(errorFromOllamaBody(400, JSON.stringify({ error: runnerError }))).toEqual({
      code: 'context-too-large',
      message:
        "The conversation is too large for the model's window (HTTP 400): request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it. Compact and retry: Anybrain summarises the oldest messages first.",
      status: 400,
      retryable: false,
      limitTokens: 4096,
      requestTokens: 8889,
    });
  });

  it("reads Ollama's own wording", () => {
    expect(errorFromOllamaBody(400, '{"error":"the input length exceeds the context length"}')).toEqual({
      code: 'context-too-large',
      message: "The conversation is too large for the model's window (HTTP 400): the input length exceeds the context length. Compact and retry: Anybrain summarises the oldest messages first.",
      status: 400,
      retryable: false,
    });
  });

  it('keeps a plain error string as the message', () => {
    expect(errorFromOllamaBody(404, '{"error":"model \'qwen9\' not found"}')).toEqual({
      code: 'provider-error',
      message: "The provider answered with an error (HTTP 404): model 'qwen9' not found",
      status: 404,
      retryable: false,
    });
  });
});
