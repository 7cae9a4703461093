/**
 * How each wire ends when the provider misbehaves at the HTTP level, through the real clients over 127.0.0.1: a stream
 * that stalls after its first event, a JSON answer where a stream was expected, and 429/529 answers with and without
 * `retry-after`. Every case counts the HTTP attempts: the SDKs' own retries are off, the app owns retries.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WireId } from '../../../src-shared/brains';
import { streamProvider } from './index';
import type { StreamPart } from './stream-parts';
import { collect } from './testing/recorded-streams';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let origin = '';
let handler: Handler = (_request, response) => response.end();
let attempts = 0;
let closedConnections = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    attempts += 1;
    response.on('close', () => {
      closedConnections += 1;
    });
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  attempts = 0;
  closedConnections = 0;
});

const IDLE_TIMEOUT_MS = 200;

interface WireCase {
  readonly wire: WireId;
  readonly label: string;
  /** Where the wire's client appends its own path. */
  readonly basePath: string;
  readonly model: string;
  readonly body: Record<string, unknown>;
  readonly streamContentType: string;
  /** The opening of a reply: the served model "m" and the text "Hel". */
  readonly firstEvents: string;
  /** The wire's 429 body, saying "Slow down". */
  readonly rateLimitBody: unknown;
  /** The wire's overload body (HTTP 529 on Anthropic, 503 elsewhere), saying "Busy". */
  readonly overloadBody: unknown;
}

const sse = (data: unknown, event?: string): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

const WIRES: readonly WireCase[] = [
  {
    wire: 'anthropic-messages',
    label: 'Claude',
    basePath: '',
    model: 'claude-sonnet-4-6',
    body: { model: 'claude-sonnet-4-6', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    streamContentType: 'text/event-stream',
    firstEvents:
      sse({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }, 'message_start') +
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }, 'content_block_delta'),
    rateLimitBody: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
    overloadBody: { type: 'error', error: { type: 'overloaded_error', message: 'Busy' } },
  },
  {
    wire: 'openai-responses',
    label: 'Codex',
    basePath: '/v1',
    model: 'gpt-5.5-codex',
    body: { model: 'gpt-5.5-codex', stream: true, store: false, input: [{ role: 'user', content: 'hi' }] },
    streamContentType: 'text/event-stream',
    firstEvents:
      sse({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', model: 'm', status: 'in_progress', output: [] } }, 'response.created') +
      sse({ type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel' }, 'response.output_text.delta'),
    rateLimitBody: { error: { message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded', param: null } },
    overloadBody: { error: { message: 'Busy', type: 'server_error', code: null, param: null } },
  },
  {
    wire: 'chat-completions',
    label: 'Kimi',
    basePath: '/v1',
    model: 'kimi-k2.6',
    body: { model: 'kimi-k2.6', stream: true, messages: [{ role: 'user', content: 'hi' }] },
    streamContentType: 'text/event-stream',
    firstEvents: sse({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] }),
    rateLimitBody: { error: { message: 'Slow down', type: 'rate_limit_reached_error' } },
    overloadBody: { error: { message: 'Busy', type: 'engine_overloaded_error' } },
  },
  {
    wire: 'gemini-generate-content',
    label: 'Gemini',
    basePath: '',
    model: 'gemini-3.1-pro-preview',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    streamContentType: 'text/event-stream',
    firstEvents: sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'm' }),
    rateLimitBody: { error: { code: 429, message: 'Slow down', status: 'RESOURCE_EXHAUSTED' } },
    overloadBody: { error: { code: 503, message: 'Busy', status: 'UNAVAILABLE' } },
  },
  {
    wire: 'ollama-chat',
    label: 'Ollama',
    basePath: '',
    model: 'qwen3',
    body: { model: 'qwen3', messages: [{ role: 'user', content: 'hi' }] },
    streamContentType: 'application/x-ndjson',
    firstEvents: `${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hel' }, done: false })}\n`,
    rateLimitBody: { error: 'Slow down' },
    overloadBody: { error: 'Busy' },
  },
];

function run(testCase: WireCase): Promise<StreamPart[]> {
  return collect(
    streamProvider({
      wire: testCase.wire,
      baseUrl: `${origin}${testCase.basePath}`,
      apiKey: 'test-key',
      model: testCase.model,
      body: testCase.body,
      signal: new AbortController().signal,
      label: testCase.label,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
    }),
  );
}

function answerJson(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    response.end(text);
  };
}

const OPENING: StreamPart[] = [
  { type: 'response-model', model: 'm' },
  { type: 'text-delta', text: 'Hel' },
];

describe.each(WIRES)('$wire over HTTP when the provider misbehaves', (testCase) => {
  it('gives up a stream that stalls after its first event, keeping what came, and closes the connection', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': testCase.streamContentType, 'cache-control': 'no-cache' });
      response.write(testCase.firstEvents);
      // …and nothing more: the socket stays open.
    };
    const started = Date.now();
    const parts = await run(testCase);
    const elapsed = Date.now() - started;
    expect(parts).toEqual([
      ...OPENING,
      {
        type: 'error',
        error: { code: 'provider-stalled', message: `${testCase.label} stopped sending for 0.2 s; the reply so far is kept. Retry, or switch brain.`, retryable: true },
      },
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS);
    expect(elapsed).toBeLessThan(IDLE_TIMEOUT_MS + 1_500);
    await expect.poll(() => closedConnections, { timeout: 2_000 }).toBe(1);
    expect(attempts).toBe(1);
  });

  it('names a JSON error answered with HTTP 200 where a stream was expected', async () => {
    handler = answerJson(200, { error: { message: '  Upstream proxy   refused\n the request ', type: 'proxy_error' } });
    expect(await run(testCase)).toEqual([
      {
        type: 'error',
        error: { code: 'not-a-stream', message: `${testCase.label} answered with a JSON error instead of a stream (HTTP 200): Upstream proxy refused the request`, retryable: true },
      },
    ]);
    expect(attempts).toBe(1);
  });

  it('says what came back when a JSON object without an error arrives instead of a stream', async () => {
    handler = answerJson(200, { id: 'x', object: 'chat.completion', choices: [] });
    expect(await run(testCase)).toEqual([
      {
        type: 'error',
        error: {
          code: 'not-a-stream',
          message: `${testCase.label} answered with a JSON object (fields: id, object, choices) instead of a stream (HTTP 200, application/json). A proxy in between, or a server that does not stream, may have answered.`,
          retryable: false,
        },
      },
    ]);
  });

  it('names the wait a 429 asks for in seconds, once, without a retry by the client', async () => {
    handler = answerJson(429, testCase.rateLimitBody, { 'retry-after': '20' });
    expect(await run(testCase)).toEqual([
      {
        type: 'error',
        error: {
          code: 'rate-limited',
          message: 'The provider is rate-limiting requests (HTTP 429); the provider asks to wait 20 s: Slow down',
          status: 429,
          retryable: true,
          retryAfterSeconds: 20,
        },
      },
    ]);
    expect(attempts).toBe(1);
  });

  it('reads a retry-after given as an HTTP date', async () => {
    handler = (request, response) => answerJson(429, testCase.rateLimitBody, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() })(request, response);
    const [part, ...rest] = await run(testCase);
    expect(rest).toEqual([]);
    const error = part?.type === 'error' ? part.error : null;
    // An HTTP date has whole seconds: 30 s ahead of the server's clock reads as 29 or 30 s.
    expect([29, 30]).toContain(error?.retryAfterSeconds);
    expect(error?.message).toBe(`The provider is rate-limiting requests (HTTP 429); the provider asks to wait ${error?.retryAfterSeconds ?? ''} s: Slow down`);
    expect(attempts).toBe(1);
  });

  it('reports a 429 without retry-after as before, with no wait', async () => {
    handler = answerJson(429, testCase.rateLimitBody);
    expect(await run(testCase)).toEqual([
      { type: 'error', error: { code: 'rate-limited', message: 'The provider is rate-limiting requests (HTTP 429): Slow down', status: 429, retryable: true } },
    ]);
    expect(attempts).toBe(1);
  });

  it('makes one attempt when the connection resets before any header', async () => {
    handler = (request) => request.socket.destroy();
    const parts = await run(testCase);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type === 'error' && parts[0].error).toMatchObject({ code: 'connection', retryable: true });
    expect(attempts).toBe(1);
  });

  it('makes one attempt at an overload answer, with or without retry-after', async () => {
    const overloadStatus = testCase.wire === 'anthropic-messages' ? 529 : 503;
    handler = answerJson(overloadStatus, testCase.overloadBody, { 'retry-after': '3' });
    const [withWait] = await run(testCase);
    expect(withWait?.type === 'error' && withWait.error).toMatchObject({ status: overloadStatus, retryable: true, retryAfterSeconds: 3 });
    expect(attempts).toBe(1);
    handler = answerJson(overloadStatus, testCase.overloadBody);
    const [withoutWait] = await run(testCase);
    expect(withoutWait?.type === 'error' && withoutWait.error).toMatchObject({ status: overloadStatus, retryable: true });
    expect(withoutWait?.type === 'error' && withoutWait.error.retryAfterSeconds).toBeUndefined();
    expect(attempts).toBe(2);
  });
});

describe('retry-after-ms (OpenAI sends it beside retry-after)', () => {
  it.each(WIRES.filter((testCase) => testCase.wire === 'openai-responses' || testCase.wire === 'chat-completions'))('$wire prefers the milliseconds', async (testCase) => {
    handler = answerJson(429, testCase.rateLimitBody, { 'retry-after-ms': '1500', 'retry-after': '2' });
    const [part] = await run(testCase);
    expect(part?.type === 'error' && part.error).toEqual({
      code: 'rate-limited',
      message: 'The provider is rate-limiting requests (HTTP 429); the provider asks to wait 1.5 s: Slow down',
      status: 429,
      retryable: true,
      retryAfterSeconds: 1.5,
    });
  });
});
