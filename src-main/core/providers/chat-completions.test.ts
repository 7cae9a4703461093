import { describe, expect, it } from 'vitest';
import { mapChatCompletionChunks, mapFinishReason } from './chat-completions';
import { errorFromOpenAiErrorObject } from './openai-sdk';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import { parseServerSentEvents } from './sse';
import { collect, eventsFrom } from './testing/recorded-streams';
import { snapshotStreams } from './testing/stream-fuzzing';

/** A chunk as OpenAI and Moonshot stream it; only `choices` and `usage` vary between chunks of one reply. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null, model = 'kimi-k2.6'): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model,
    system_fingerprint: 'fp_1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  };
}

function usageChunk(usage: Record<string, unknown>): unknown {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_760_000_000, model: 'kimi-k2.6', choices: [], usage };
}

const OPENAI_USAGE = {
  prompt_tokens: 20,
  completion_tokens: 7,
  total_tokens: 27,
  prompt_tokens_details: { cached_tokens: 4 },
  completion_tokens_details: { reasoning_tokens: 3 },
};

describe('mapChatCompletionChunks', () => {
  it('maps a text reply with its usage chunk', async () => {
    const chunks = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ' world' }),
      chunk({}, 'stop'),
      usageChunk(OPENAI_USAGE),
    ];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' world' },
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 4, reasoningTokens: 3 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('maps reasoning_content deltas ahead of the text', async () => {
    const chunks = [
      chunk({ role: 'assistant', reasoning_content: 'The user' }),
      chunk({ reasoning_content: ' greets me.' }),
      chunk({ content: 'Hi!' }),
      chunk({}, 'stop'),
    ];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'reasoning-delta', text: 'The user' },
      { type: 'reasoning-delta', text: ' greets me.' },
      { type: 'text-delta', text: 'Hi!' },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('assembles indexed tool_call pieces split across chunks, in index order', async () => {
    const chunks = [
      chunk({ role: 'assistant', content: 'Checking both.' }),
      chunk({ tool_calls: [{ index: 0, id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": "Pa' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'functions.get_time:1', type: 'function', function: { name: 'get_time', arguments: '{"zone"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: ': "CET"}' } }] }),
      // Moonshot reports usage on the choice that finishes, with cache hits as a top-level `cached_tokens`.
      {
        ...(chunk({}, 'tool_calls') as Record<string, unknown>),
        choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls', usage: { prompt_tokens: 50, completion_tokens: 30, total_tokens: 80, cached_tokens: 12 } }],
      },
    ];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Checking both.' },
      { type: 'tool-call', providerCallId: 'functions.get_weather:0', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool-call', providerCallId: 'functions.get_time:1', name: 'get_time', input: { zone: 'CET' } },
      { type: 'usage', usage: { inputTokens: 50, outputTokens: 30, cacheReadTokens: 12 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' },
    ]);
  });

  it('ends the reply with malformed-stream when arguments are not a JSON object: no throw, no finish after it', async () => {
    const chunks = [
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q": ' } }] }),
      chunk({}, 'tool_calls'),
    ];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      {
        type: 'error',
        error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: the arguments of tool call "search" are not a JSON object: {"q": ', retryable: true },
      },
    ]);
  });

  it("names a refusal streamed as delta.refusal by its words, not as the reply's (openai-node's recorded refusal)", async () => {
    const sseText = snapshotStreams('recorded-streams', 'chat-completions', 'ChatCompletionStream.test.ts.snap').get('.stream() emits refusal logprobs events 1') ?? '';
    const chunks = parseServerSentEvents(sseText)
      .filter((event) => event.data !== '[DONE]')
      .map((event) => JSON.parse(event.data) as unknown);
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'gpt-4o-2024-08-06' },
      { type: 'refusal', explanation: "I'm very sorry, but I can't assist with that request.", category: null },
      { type: 'usage', usage: { inputTokens: 17, outputTokens: 13 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('keeps the text streamed before a refusal', async () => {
    const chunks = [chunk({ role: 'assistant', content: 'Well, ', refusal: null }), chunk({ refusal: 'I cannot help with that.' }), chunk({}, 'stop')];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Well, ' },
      { type: 'refusal', explanation: 'I cannot help with that.', category: null },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
  });

  it('announces the served model once, from the first chunk', async () => {
    const chunks = [chunk({ content: 'a' }, null, 'kimi-k2.6-0905'), chunk({ content: 'b' }, null, 'other'), chunk({}, 'length')];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6-0905' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'finish', reason: 'length', rawReason: 'length' },
    ]);
  });

  it('classifies an error object sent after HTTP 200', async () => {
    const chunks = [chunk({ content: 'Part' }), { error: { message: 'The engine is currently overloaded, please try again later', type: 'engine_overloaded_error', param: null, code: null } }];
    expect(await collect(mapChatCompletionChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Part' },
      { type: 'error', error: { code: 'overloaded', message: 'The provider is overloaded during the reply: The engine is currently overloaded, please try again later', retryable: true } },
    ]);
  });

  it('reports a stream without finish_reason as a closed connection', async () => {
    expect(await collect(mapChatCompletionChunks(eventsFrom([chunk({ content: 'Half' })])))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Half' },
      { type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } },
    ]);
  });

  it('reports a dropped socket and unparseable data, and ends quietly on abort', async () => {
    const dropped = await collect(mapChatCompletionChunks(eventsFrom([chunk({ content: 'Half' })], new TypeError('terminated'))));
    expect(dropped.at(-1)).toEqual({ type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } });

    const unparseable = await collect(mapChatCompletionChunks(eventsFrom([], new SyntaxError('Unexpected end of JSON input'))));
    expect(unparseable).toEqual([
      { type: 'error', error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: Unexpected end of JSON input', retryable: true } },
    ]);

    const controller = new AbortController();
    controller.abort();
    expect(await collect(mapChatCompletionChunks(eventsFrom([chunk({ content: 'Half' })], new Error('aborted')), { signal: controller.signal }))).toEqual([
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Half' },
    ]);
  });
});

describe('errorFromOpenAiErrorObject', () => {
  it('maps statuses and codes, keeping the provider text', () => {
    expect(errorFromOpenAiErrorObject({ message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' }, 401, '')).toEqual({
      code: 'auth',
      message: 'The provider refused the API key (HTTP 401): Incorrect API key provided',
      status: 401,
      retryable: false,
    });
    expect(errorFromOpenAiErrorObject({ message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' }, 429, '').code).toBe('rate-limited');
    expect(errorFromOpenAiErrorObject({ message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' }, 429, '')).toEqual({
      code: 'provider-error',
      message: 'The provider refused the request for billing reasons (HTTP 429): You exceeded your current quota',
      status: 429,
      retryable: false,
    });
    expect(
      errorFromOpenAiErrorObject({ message: "This model's maximum context length is 262144 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' }, 400, '').code,
    ).toBe('context-too-large');
    expect(errorFromOpenAiErrorObject({ message: 'Invalid request: Your request exceeded model token limit: 262144', type: 'invalid_request_error' }, 400, '').code).toBe(
      'context-too-large',
    );
    // xAI's body is {"code":"…","error":"message"}: the SDK hands over the message string itself.
    expect(errorFromOpenAiErrorObject("This model's maximum prompt length is 131072 but the request contains 140000 tokens.", 400, '400 "This model\'s…"')).toEqual({
      code: 'context-too-large',
      message:
        "The conversation is too large for the model's window (HTTP 400): This model's maximum prompt length is 131072 but the request contains 140000 tokens. Compact and retry: Anybrain summarises the oldest messages first.",
      status: 400,
      retryable: false,
      limitTokens: 131072,
      requestTokens: 140000,
    });
    expect(errorFromOpenAiErrorObject(undefined, 503, '503 status code (no body)')).toEqual({
      code: 'provider-error',
      message: 'The provider answered with an error (HTTP 503): 503 status code (no body)',
      status: 503,
      retryable: true,
    });
  });
});

describe('mapFinishReason', () => {
  it('normalises the documented finish reasons', () => {
    expect(['stop', 'length', 'tool_calls', 'function_call', 'content_filter', 'something_new'].map(mapFinishReason)).toEqual([
      'stop',
      'length',
      'tool-calls',
      'tool-calls',
      'content-filter',
      'other',
    ]);
  });
});
