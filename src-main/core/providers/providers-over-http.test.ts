/**
 * The adapters end to end: real SDK clients over real HTTP on 127.0.0.1, against the fake brains.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import type { BrainId, WireId } from '../../../src-shared/brains';
import { streamProvider } from './index';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import type { StreamPart } from './stream-parts';
import { collect } from './testing/recorded-streams';

const fake = useFakeBrains();

interface WireCase {
  readonly brain: BrainId;
  readonly wire: WireId;
  readonly label: string;
  readonly model: string;
  readonly body: (text: string) => Record<string, unknown>;
  /** What `[status:429]` answers with, as the adapter reports it. */
  readonly rateLimitText: string;
  readonly midstreamError: StreamPart;
}

const anthropicBody = (text: string): Record<string, unknown> => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  stream: true,
  messages: [{ role: 'user', content: text }],
});

const chatCompletionsBody = (text: string): Record<string, unknown> => ({
  model: 'kimi-k2.6',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: text }],
});

const MAIN_WIRES: readonly WireCase[] = [
  {
    brain: 'claude',
    wire: 'anthropic-messages',
    label: 'Claude',
    model: 'claude-sonnet-4-6',
    body: anthropicBody,
    rateLimitText: 'The provider is rate-limiting requests (HTTP 429): Number of request tokens has exceeded your per-minute rate limit. Please try again later.',
    midstreamError: { type: 'error', error: { code: 'overloaded', message: 'The provider is overloaded during the reply: Overloaded', retryable: true } },
  },
  {
    brain: 'kimi',
    wire: 'chat-completions',
    label: 'Kimi',
    model: 'kimi-k2.6',
    body: chatCompletionsBody,
    rateLimitText: 'The provider is rate-limiting requests (HTTP 429): Rate limit reached for requests. Please try again in 20s.',
    midstreamError: {
      type: 'error',
      error: {
        code: 'provider-error',
        message: 'The provider answered with an error during the reply: The server had an error while processing your request. Sorry about that!',
        retryable: true,
      },
    },
  },
];

function run(testCase: Pick<WireCase, 'brain' | 'wire' | 'model' | 'body'>, text: string, signal = new AbortController().signal): AsyncIterable<StreamPart> {
  return streamProvider({ wire: testCase.wire, baseUrl: fake.baseUrlFor(testCase.brain), apiKey: 'test-key-123', model: testCase.model, body: testCase.body(text), signal });
}

const textOf = (parts: readonly StreamPart[]): string => parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');

describe.each(MAIN_WIRES)('$wire over HTTP ($brain)', (testCase) => {
  it('streams a text reply and sends the body as built', async () => {
    const parts = await collect(run(testCase, 'hello'));
    const usage = testCase.wire === 'anthropic-messages' ? { inputTokens: 9, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 } : { inputTokens: 9, outputTokens: 5, cacheReadTokens: 0, reasoningTokens: 0 };
    const rawReason = testCase.wire === 'anthropic-messages' ? 'end_turn' : 'stop';
    expect(parts).toEqual([
      { type: 'response-model', model: testCase.body('').model },
      ...['Fake', ` ${testCase.label}`, ' reply', ' to:', ' hello'].map((text) => ({ type: 'text-delta', text })),
      { type: 'usage', usage },
      { type: 'finish', reason: 'stop', rawReason },
    ]);
    const [recorded] = fake.requests();
    expect(recorded?.body).toEqual(testCase.body('hello'));
    expect(recorded?.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(fake.requests())).not.toContain('test-key-123');
  });

  it('reports the served model when it differs from the requested one', async () => {
    const parts = await collect(run(testCase, 'hi [model:served-model-2]'));
    expect(parts[0]).toEqual({ type: 'response-model', model: 'served-model-2' });
    expect(parts.filter((part) => part.type === 'response-model')).toHaveLength(1);
  });

  it('reports HTTP 429 as rate-limited with the provider text', async () => {
    expect(await collect(run(testCase, 'hi [status:429]'))).toEqual([
      { type: 'error', error: { code: 'rate-limited', message: testCase.rateLimitText, status: 429, retryable: true } },
    ]);
  });

  it('reports HTTP 401 as auth', async () => {
    const [part] = await collect(run(testCase, 'hi [status:401]'));
    expect(part?.type === 'error' && part.error.code).toBe('auth');
  });

  it('reports the context-length refusal as context-too-large', async () => {
    const [part] = await collect(run(testCase, 'hi [too-large]'));
    expect(part?.type === 'error' && part.error).toMatchObject({ code: 'context-too-large', status: 400, retryable: false });
  });

  it('reports an error sent mid-stream after the text so far', async () => {
    const parts = await collect(run(testCase, 'one two three four [error-midstream]'));
    expect(textOf(parts)).toBe(`Fake ${testCase.label} reply to: one`);
    expect(parts.at(-1)).toEqual(testCase.midstreamError);
  });

  it('reports a dropped connection as retryable', async () => {
    const parts = await collect(run(testCase, 'one two three four [drop]'));
    expect(textOf(parts)).toBe(`Fake ${testCase.label} reply to: one`);
    expect(parts.at(-1)).toEqual({ type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } });
  });

  it('ends quietly when aborted midway', async () => {
    const controller = new AbortController();
    const parts: StreamPart[] = [];
    const started = Date.now();
    for await (const part of run(testCase, 'count [slow]', controller.signal)) {
      parts.push(part);
      if (parts.filter((item) => item.type === 'text-delta').length === 3) controller.abort();
    }
    expect(parts.map((part) => part.type)).toEqual(['response-model', 'text-delta', 'text-delta', 'text-delta']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends quietly when aborted before the request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await collect(run(testCase, 'hello', controller.signal))).toEqual([]);
  });

  it('reports a refused connection', async () => {
    const parts = await collect(
      streamProvider({ wire: testCase.wire, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', model: testCase.model, body: testCase.body('hi'), signal: new AbortController().signal }),
    );
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type === 'error' && parts[0].error).toMatchObject({ code: 'connection', retryable: true });
    expect(parts[0]?.type === 'error' && parts[0].error.message).toMatch(/^Could not connect to 127\.0\.0\.1:1/);
  });

  it('refuses to send without a key', async () => {
    const parts = await collect(streamProvider({ wire: testCase.wire, baseUrl: fake.baseUrlFor(testCase.brain), apiKey: null, model: testCase.model, body: testCase.body('hi'), signal: new AbortController().signal }));
    expect(parts).toEqual([{ type: 'error', error: { code: 'auth', message: 'No API key is set for this brain.', retryable: false } }]);
    expect(fake.requests()).toEqual([]);
  });
});

describe('wire rules reach the adapter as the provider error', () => {
  it('anthropic-messages: tool blocks without tools', async () => {
    const body = {
      ...anthropicBody(''),
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
      ],
    };
    const parts = await collect(streamProvider({ wire: 'anthropic-messages', baseUrl: fake.baseUrlFor('glm'), apiKey: 'k', model: 'claude-sonnet-4-6', body, signal: new AbortController().signal }));
    expect(parts).toEqual([
      {
        type: 'error',
        error: {
          code: 'provider-error',
          message: 'The provider answered with an error (HTTP 400): Requests which include `tool_use` or `tool_result` blocks must define tools.',
          status: 400,
          retryable: false,
        },
      },
    ]);
    expect(fake.requests()[0]?.brain).toBe('glm');
  });

  it('chat-completions: tool calls without tool answers', async () => {
    const body = {
      ...chatCompletionsBody(''),
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'user', content: 'Well?' },
      ],
    };
    const [part] = await collect(streamProvider({ wire: 'chat-completions', baseUrl: fake.baseUrlFor('kimi'), apiKey: 'k', model: 'kimi-k2.6', body, signal: new AbortController().signal }));
    expect(part?.type === 'error' && part.error.message).toBe(
      "The provider answered with an error (HTTP 400): An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: functions.get_weather:0",
    );
  });
});

describe('the other wires over HTTP', () => {
  const otherWires = [
    { brain: 'codex', wire: 'openai-responses', label: 'Codex', model: 'gpt-5.5-codex', body: (text: string) => ({ model: 'gpt-5.5-codex', stream: true, store: false, input: [{ role: 'user', content: text }] }) },
    { brain: 'grok', wire: 'openai-responses', label: 'Grok', model: 'grok-4.3', body: (text: string) => ({ model: 'grok-4.3', stream: true, store: false, input: [{ role: 'user', content: text }] }) },
    { brain: 'gemini', wire: 'gemini-generate-content', label: 'Gemini', model: 'gemini-3.1-pro-preview', body: (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }) },
    { brain: 'ollama', wire: 'ollama-chat', label: 'Ollama', model: 'qwen3', body: (text: string) => ({ model: 'qwen3', messages: [{ role: 'user', content: text }] }) },
  ] as const;

  it.each(otherWires)('$wire ($brain): text, served model, 429, drop', async (testCase) => {
    const reply = await collect(run(testCase, 'hello [model:served-x]'));
    expect(reply[0]).toEqual({ type: 'response-model', model: 'served-x' });
    expect(textOf(reply)).toBe(`Fake ${testCase.label} reply to: hello [model:served-x]`);
    expect(reply.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });

    const [limited] = await collect(run(testCase, 'hi [status:429]'));
    expect(limited?.type === 'error' && limited.error).toMatchObject({ code: 'rate-limited', status: 429, retryable: true });

    const dropped = await collect(run(testCase, 'one two three [drop]'));
    expect(dropped.at(-1)).toEqual({ type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } });
  });

  it('gemini sends the model in the path and the key in a header, not in the body', async () => {
    await collect(run(otherWires[2], 'hello'));
    const [recorded] = fake.requests();
    expect(recorded?.path).toBe('/gemini/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse');
    expect(recorded?.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] });
    expect(recorded?.headers['x-goog-api-key']).toBe('[redacted]');
  });
});

describe('stalls, JSON answers and requested waits, through the fake brains', () => {
  const everyBrain = [
    ...MAIN_WIRES,
    { brain: 'codex', wire: 'openai-responses', label: 'Codex', model: 'gpt-5.5-codex', body: (text: string) => ({ model: 'gpt-5.5-codex', stream: true, store: false, input: [{ role: 'user', content: text }] }) },
    { brain: 'gemini', wire: 'gemini-generate-content', label: 'Gemini', model: 'gemini-3.1-pro-preview', body: (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }) },
    { brain: 'ollama', wire: 'ollama-chat', label: 'Ollama', model: 'qwen3', body: (text: string) => ({ model: 'qwen3', messages: [{ role: 'user', content: text }] }) },
  ] as const;

  const runWithLimit = (testCase: (typeof everyBrain)[number], text: string): Promise<StreamPart[]> =>
    collect(
      streamProvider({
        wire: testCase.wire,
        baseUrl: fake.baseUrlFor(testCase.brain),
        apiKey: 'test-key-123',
        model: testCase.model,
        body: testCase.body(text),
        signal: new AbortController().signal,
        label: testCase.label,
        idleTimeoutMs: 200,
      }),
    );

  it.each(everyBrain)('$brain: [stall] ends with provider-stalled after the text so far', async (testCase) => {
    const parts = await runWithLimit(testCase, 'one two three four [stall]');
    expect(textOf(parts)).toBe(`Fake ${testCase.label} reply to: one`);
    expect(parts.at(-1)).toEqual({
      type: 'error',
      error: { code: 'provider-stalled', message: `${testCase.label} stopped sending for 0.2 s; the reply so far is kept. Retry, or switch brain.`, retryable: true },
    });
  });

  it.each(everyBrain)('$brain: [json-instead] is named as not a stream', async (testCase) => {
    const parts = await runWithLimit(testCase, 'hi [json-instead]');
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type === 'error' && parts[0].error).toMatchObject({ code: 'not-a-stream', retryable: false });
    expect(parts[0]?.type === 'error' && parts[0].error.message).toMatch(new RegExp(`^${testCase.label} answered with a JSON object \\(fields: .+\\) instead of a stream \\(HTTP 200, application/json\\)\\.`));
  });

  it.each(everyBrain)('$brain: [status:429] [retry-after:20] carries the wait', async (testCase) => {
    const [part, ...rest] = await runWithLimit(testCase, 'hi [status:429] [retry-after:20]');
    expect(rest).toEqual([]);
    expect(part?.type === 'error' && part.error).toMatchObject({ code: 'rate-limited', status: 429, retryable: true, retryAfterSeconds: 20 });
    expect(part?.type === 'error' && part.error.message).toMatch(/^The provider is rate-limiting requests \(HTTP 429\); the provider asks to wait 20 s: /);
    expect(fake.requests()).toHaveLength(1);
  });
});
