import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorFromAnthropicBody, mapAnthropicEvents, mapStopReason, streamAnthropicMessages } from './anthropic-messages';
import { CLOSED_EARLY_MESSAGE, ProviderFailure } from './provider-errors';
import type { StreamPart } from './stream-parts';
import { collect, eventsFrom, readReference, recordedSseEvents } from './testing/recorded-streams';

const TOOL_USE_STREAM = ['recorded-streams', 'anthropic', 'tool_use_response.txt'];
const REFUSAL_STREAM = ['recorded-streams', 'anthropic', 'stream-a-refusal.sse'];

const TOOL_USE_PARTS: StreamPart[] = [
  { type: 'response-model', model: 'claude-opus-4-8' },
  { type: 'text-delta', text: 'I' },
  { type: 'text-delta', text: "'ll check the current weather in Paris for you." },
  { type: 'tool-call', providerCallId: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', input: { location: 'Paris' } },
  { type: 'usage', usage: { inputTokens: 377, outputTokens: 65, cacheReadTokens: 0, cacheWriteTokens: 0 } },
  { type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' },
];

const THINKING_PIECES = [
  'Simple educ',
  'ational question about what a solar eclipse is. This is benign general knowledge — definitions are fine. Also the user called',
  ' me "claudius" — I\'m Claude. Minor correction or just roll with it politely.',
];
const SIGNATURE = 'c3ludGhldGljLXNpZ25hdHVyZS1maXh0dXJlLWEtbm90LWEtcmVhbC1zaWduYXR1cmU=';

const REFUSAL_PARTS: StreamPart[] = [
  { type: 'response-model', model: 'claude-fable-5' },
  ...THINKING_PIECES.map((text): StreamPart => ({ type: 'reasoning-delta', text })),
  { type: 'reasoning-opaque', opaque: { type: 'thinking', thinking: THINKING_PIECES.join(''), signature: SIGNATURE } },
  { type: 'text-delta', text: 'Hi' },
  // stop_details names neither a category nor an explanation here.
  { type: 'refusal', explanation: null, category: null },
  { type: 'usage', usage: { inputTokens: 28, outputTokens: 106, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 67 } },
  { type: 'finish', reason: 'content-filter', rawReason: 'refusal' },
];

function messageStart(model = 'claude-sonnet-4-6'): unknown {
  return {
    type: 'message_start',
    message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
  };
}

function textBlock(index: number, text: string): unknown[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index },
  ];
}

const messageEnd = (stopReason: string): unknown[] => [
  { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
];

describe('mapAnthropicEvents on recorded streams', () => {
  it('maps text then a tool call assembled from input_json_delta pieces (tool_use_response.txt)', async () => {
    expect(await collect(mapAnthropicEvents(eventsFrom(recordedSseEvents(...TOOL_USE_STREAM))))).toEqual(TOOL_USE_PARTS);
  });

  it('maps thinking deltas, the signed thinking block and a refusal (stream-a-refusal.sse)', async () => {
    expect(await collect(mapAnthropicEvents(eventsFrom(recordedSseEvents(...REFUSAL_STREAM))))).toEqual(REFUSAL_PARTS);
  });

  it('maps the same bytes sent through the SDK over HTTP', async () => {
    for (const [file, expected] of [
      [TOOL_USE_STREAM, TOOL_USE_PARTS],
      [REFUSAL_STREAM, REFUSAL_PARTS],
    ] as const) {
      const baseUrl = await serveOnce(readReference(...file));
      const parts = await collect(streamAnthropicMessages({ wire: 'anthropic-messages', baseUrl, apiKey: 'test-key', model: 'claude-sonnet-4-6', body: minimalBody(), signal: new AbortController().signal }));
      expect(parts).toEqual(expected);
    }
  });
});

describe('mapAnthropicEvents on synthetic streams', () => {
  it('names a refusal with its stop_details category and explanation, after the text so far', async () => {
    const explanation = 'This request asks for <b>exploit</b> code.';
    const events = [
      messageStart(),
      ...textBlock(0, 'Here is'),
      { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: { type: 'refusal', category: 'cyber', explanation } }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ];
    expect(await collect(mapAnthropicEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      { type: 'text-delta', text: 'Here is' },
      { type: 'refusal', explanation, category: 'cyber' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
      { type: 'finish', reason: 'content-filter', rawReason: 'refusal' },
    ]);
  });

  it('passes redacted_thinking through verbatim', async () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' };
    const events = [
      messageStart(),
      { type: 'content_block_start', index: 0, content_block: redacted },
      { type: 'content_block_stop', index: 0 },
      ...textBlock(1, 'Done.'),
      ...messageEnd('end_turn'),
    ];
    expect(await collect(mapAnthropicEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      { type: 'reasoning-opaque', opaque: redacted },
      { type: 'text-delta', text: 'Done.' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
      { type: 'finish', reason: 'stop', rawReason: 'end_turn' },
    ]);
  });

  it('takes the start block input for a tool call without input deltas', async () => {
    const events = [
      messageStart(),
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} } },
      { type: 'content_block_stop', index: 0 },
      ...messageEnd('tool_use'),
    ];
    const parts = await collect(mapAnthropicEvents(eventsFrom(events)));
    expect(parts[1]).toEqual({ type: 'tool-call', providerCallId: 'toolu_1', name: 'now', input: {} });
  });

  it('keeps the part of the cache writes made to last an hour, as message_start splits them', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null,
        usage: {
          input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 4_000, cache_creation_input_tokens: 2_500,
          cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 2_000 },
        },
      },
    };
    const parts = await collect(mapAnthropicEvents(eventsFrom([start, ...textBlock(0, 'Hi'), ...messageEnd('end_turn')])));
    expect(parts.find((part) => part.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 12, outputTokens: 5, cacheReadTokens: 4_000, cacheWriteTokens: 2_500, cacheWriteHourTokens: 2_000 },
    });
  });

  it('ends the reply with malformed-stream when tool input is not JSON: one terminal part, no finish after it', async () => {
    const events = [
      messageStart(),
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'search', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "cats' } },
      { type: 'content_block_stop', index: 0 },
      ...messageEnd('tool_use'),
    ];
    expect(await collect(mapAnthropicEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      {
        type: 'error',
        error: {
          code: 'malformed-stream',
          message: 'The provider sent a reply that could not be read: the input of tool call "search" is not a JSON object: {"query": "cats',
          retryable: true,
        },
      },
    ]);
  });

  it('classifies an error event after HTTP 200 by its payload', async () => {
    const events = [messageStart(), ...textBlock(0, 'Partial'), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }];
    expect(await collect(mapAnthropicEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      { type: 'text-delta', text: 'Partial' },
      { type: 'error', error: { code: 'overloaded', message: 'The provider is overloaded during the reply: Overloaded', retryable: true } },
    ]);
  });

  it('reports a stream that ends without message_stop as a closed connection', async () => {
    const events = [messageStart(), ...textBlock(0, 'Half'), messageEnd('end_turn')[0]];
    expect(await collect(mapAnthropicEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      { type: 'text-delta', text: 'Half' },
      { type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } },
    ]);
  });

  it('turns a dropped socket, unparseable data and SDK failures into error parts', async () => {
    const dropped = await collect(mapAnthropicEvents(eventsFrom([messageStart()], new TypeError('terminated'))));
    expect(dropped.at(-1)).toEqual({ type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } });

    const unparseable = await collect(mapAnthropicEvents(eventsFrom([messageStart()], new SyntaxError('Unexpected token } in JSON'))));
    expect(unparseable.at(-1)).toEqual({
      type: 'error',
      error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: Unexpected token } in JSON', retryable: true },
    });

    const failure = new ProviderFailure({ code: 'auth', message: 'No API key is set for this brain.', retryable: false });
    expect(await collect(mapAnthropicEvents(eventsFrom([], failure)))).toEqual([{ type: 'error', error: failure.providerError }]);

    expect(await collect(mapAnthropicEvents(eventsFrom(['not an event'])))).toEqual([
      { type: 'error', error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: an event without a type', retryable: true } },
    ]);
  });

  it('ends quietly when the caller aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = [messageStart(), ...textBlock(0, 'Half')];
    expect(await collect(mapAnthropicEvents(eventsFrom(events), { signal: controller.signal }))).toEqual([
      { type: 'response-model', model: 'claude-sonnet-4-6' },
      { type: 'text-delta', text: 'Half' },
    ]);
    expect(await collect(mapAnthropicEvents(eventsFrom(events, new Error('aborted')), { signal: controller.signal }))).toHaveLength(2);
  });
});

describe('errorFromAnthropicBody', () => {
  const body = (type: string, message: string): unknown => ({ type: 'error', error: { type, message } });

  it('maps HTTP statuses and error types to codes, keeping the provider text', () => {
    expect(errorFromAnthropicBody(body('authentication_error', 'invalid x-api-key'), 401, '')).toEqual({
      code: 'auth',
      message: 'The provider refused the API key (HTTP 401): invalid x-api-key',
      status: 401,
      retryable: false,
    });
    expect(errorFromAnthropicBody(body('rate_limit_error', 'Slow down'), 429, '').code).toBe('rate-limited');
    expect(errorFromAnthropicBody(body('overloaded_error', 'Overloaded'), 529, '').code).toBe('overloaded');
    expect(errorFromAnthropicBody(body('request_too_large', 'Request exceeds the maximum allowed number of bytes.'), 413, '').code).toBe('context-too-large');
    expect(errorFromAnthropicBody(body('invalid_request_error', 'prompt is too long: 212345 tokens > 200000 maximum'), 400, '')).toEqual({
      code: 'context-too-large',
      message:
        "The conversation is too large for the model's window (HTTP 400): prompt is too long: 212345 tokens > 200000 maximum. Compact and retry: Anybrain summarises the oldest messages first.",
      status: 400,
      retryable: false,
      limitTokens: 200000,
      requestTokens: 212345,
    });
    expect(errorFromAnthropicBody(body('invalid_request_error', 'max_tokens: Field required'), 400, '')).toEqual({
      code: 'provider-error',
      message: 'The provider answered with an error (HTTP 400): max_tokens: Field required',
      status: 400,
      retryable: false,
    });
    expect(errorFromAnthropicBody(body('api_error', 'Internal server error'), 500, '').retryable).toBe(true);
    expect(errorFromAnthropicBody(undefined, 502, '502 status code (no body)').message).toBe('The provider answered with an error (HTTP 502): 502 status code (no body)');
  });
});

describe('mapStopReason', () => {
  it('normalises every documented stop reason', () => {
    expect(['end_turn', 'stop_sequence', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'refusal', 'pause_turn', null].map(mapStopReason)).toEqual([
      'stop',
      'stop',
      'length',
      'length',
      'tool-calls',
      'content-filter',
      'other',
      'other',
    ]);
  });
});

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** Serves the recorded bytes verbatim as an SSE response to every request. */
async function serveOnce(streamText: string): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    response.end(streamText);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function minimalBody(): Record<string, unknown> {
  return { model: 'claude-opus-4-8', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }] };
}
