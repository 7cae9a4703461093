import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseServerSentEvents } from '../../src-main/core/providers/sse';
import { TOOLS_REQUIRED_MESSAGE, checkAnthropicRequest } from './anthropic-messages-rules';
import { MARKDOWN_REPLY, SLOW_CHUNK_COUNT } from './script';
import { sha256Hex } from './server';
import { useFakeBrains } from './use-fake-brains';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reference = (...segments: string[]): string => readFileSync(path.resolve(repoRoot, 'e2e/fixtures/reference', ...segments), 'utf8');

/** 2026-01-01T00:00:00Z: `created` fields and `receivedAt` come from the clock. */
const FIXED_NOW = new Date('2026-01-01T00:00:00.000Z');
const FIXED_SECONDS = FIXED_NOW.getTime() / 1000;

const fake = useFakeBrains();
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(FIXED_NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

interface RawReply {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

async function post(pathname: string, body: unknown, headers: Record<string, string> = { 'x-api-key': 'sk-test-secret' }): Promise<RawReply> {
  const response = await fetch(`${fake.url}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

const anthropicBody = (content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'claude-test',
  max_tokens: 10,
  stream: true,
  messages: [{ role: 'user', content }],
  ...extra,
});

const chatBody = (content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'kimi-test',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content }],
  ...extra,
});

const postAnthropic = (body: unknown, headers?: Record<string, string>): Promise<RawReply> => post('/claude/v1/messages', body, headers);
const postChat = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer sk-test-secret' }): Promise<RawReply> =>
  post('/kimi/v1/chat/completions', body, headers);

/** The streamed text of an Anthropic or Chat Completions reply, read back from its events. */
function streamedText(sseText: string): string {
  return parseServerSentEvents(sseText)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as { delta?: { text?: string }; choices?: { delta?: { content?: string } }[] })
    .map((data) => data.delta?.text ?? data.choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe('anthropic-messages stream bytes', () => {
  it('frames a short scripted reply exactly as Anthropic does', async () => {
    const reply = await postAnthropic(anthropicBody('[reply:Hi there]'));
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe('text/event-stream; charset=utf-8');
    expect(reply.text).toBe(
      'event: message_start\n' +
        'data: {"type":"message_start","message":{"id":"msg_fake0001","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}\n\n' +
        'event: content_block_start\n' +
        'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: ping\n' +
        'data: {"type": "ping"}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}\n\n' +
        'event: content_block_stop\n' +
        'data: {"type":"content_block_stop","index":0}\n\n' +
        'event: message_delta\n' +
        'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}\n\n' +
        'event: message_stop\n' +
        'data: {"type":"message_stop"}\n\n',
    );
  });

  it('frames every event the way the recorded real stream does', async () => {
    const reply = await postAnthropic(anthropicBody('hello'));
    for (const streamText of [reference('recorded-streams', 'anthropic', 'tool_use_response.txt'), reply.text]) {
      expect(streamText).toMatch(/^(?:event: [a-z_]+\ndata: \{.*\}\n\n)+$/);
      for (const event of parseServerSentEvents(streamText)) {
        expect((JSON.parse(event.data) as { type: string }).type).toBe(event.event);
      }
    }
  });

  it('answers a non-streaming request with one message object', async () => {
    const reply = await postAnthropic(anthropicBody('[reply:Whole]', { stream: false }));
    expect(JSON.parse(reply.text)).toEqual({
      id: 'msg_fake0001',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Whole' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
    });
  });
});

describe('chat-completions stream bytes', () => {
  const prefix = `data: {"id":"chatcmpl-fake0001","object":"chat.completion.chunk","created":${FIXED_SECONDS},"model":"kimi-test","system_fingerprint":"fp_fake0001",`;

  it('frames a short scripted reply exactly as OpenAI does, usage chunk and [DONE] included', async () => {
    const reply = await postChat(chatBody('[reply:Hi there]'));
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe('text/event-stream; charset=utf-8');
    expect(reply.text).toBe(
      `${prefix}"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `${prefix}"choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `${prefix}"choices":[{"index":0,"delta":{"content":" there"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `${prefix}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n` +
        `${prefix}"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('leaves usage out entirely when include_usage is not asked for', async () => {
    const reply = await postChat({ model: 'kimi-test', stream: true, messages: [{ role: 'user', content: '[reply:Hi]' }] });
    expect(reply.text).not.toContain('usage');
    expect(reply.text.endsWith(`${prefix}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`)).toBe(true);
  });
});

describe('directives', () => {
  it('echoes the last user text by default, in several chunks', async () => {
    const body = { ...anthropicBody(''), messages: [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'second question' }] },
    ] };
    const reply = await postAnthropic(body);
    expect(streamedText(reply.text)).toBe('Fake Claude reply to: second question');
    expect(parseServerSentEvents(reply.text).filter((event) => event.event === 'content_block_delta')).toHaveLength(6);
  });

  it('cuts the echoed text to 200 characters', async () => {
    const longText = 'x'.repeat(300);
    expect(streamedText((await postChat(chatBody(longText))).text)).toBe(`Fake Kimi reply to: ${'x'.repeat(200)}`);
  });

  it('[slow] streams 60 words about 100 ms apart', async () => {
    vi.useRealTimers();
    const response = await fetch(`${fake.url}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify(anthropicBody('go [slow]')),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = '';
    const arrivals: number[] = [];
    while (arrivals.length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
      const deltas = received.split('event: content_block_delta').length - 1;
      while (arrivals.length < deltas) arrivals.push(Date.now());
    }
    await reader.cancel();
    expect(streamedText(received)).toBe('word1 word2 word3');
    expect((arrivals[2] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(150);
    expect(SLOW_CHUNK_COUNT).toBe(60);
  });

  it('[empty] sends a well-formed stream without text', async () => {
    const anthropic = await postAnthropic(anthropicBody('[empty]'));
    expect(parseServerSentEvents(anthropic.text).map((event) => event.event)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    const chat = await postChat(chatBody('[empty]'));
    expect(streamedText(chat.text)).toBe('');
    expect(chat.text).toContain('"finish_reason":"stop"');
    expect(chat.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('[model:NAME] announces the named model', async () => {
    expect((await postAnthropic(anthropicBody('hi [model:claude-served-9]'))).text).toContain('"model":"claude-served-9"');
    const chat = await postChat(chatBody('hi [model:kimi-served-9]'));
    expect(parseServerSentEvents(chat.text).filter((event) => event.data !== '[DONE]').every((event) => event.data.includes('"model":"kimi-served-9"'))).toBe(true);
  });

  it('[status:CODE] answers with the provider error body', async () => {
    expect(await postAnthropic(anthropicBody('hi [status:529]'))).toEqual({
      status: 529,
      contentType: 'application/json',
      text: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    expect(await postChat(chatBody('hi [status:429]'))).toEqual({
      status: 429,
      contentType: 'application/json',
      text: '{"error":{"message":"Rate limit reached for requests. Please try again in 20s.","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
    });
  });

  it('[too-large] answers 400 with the context-length text', async () => {
    expect(await postAnthropic(anthropicBody('hi [too-large]'))).toEqual({
      status: 400,
      contentType: 'application/json',
      text: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212345 tokens > 200000 maximum"}}',
    });
    expect(JSON.parse((await postChat(chatBody('hi [too-large]'))).text)).toEqual({
      error: { message: 'Invalid request: Your request exceeded model token limit: 262144', type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('[error-midstream] sends part of the text, then the in-stream error, then ends', async () => {
    const anthropic = await postAnthropic(anthropicBody('[reply:one two three four][error-midstream]'));
    expect(streamedText(anthropic.text)).toBe('one two');
    expect(anthropic.text.endsWith('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n')).toBe(true);
    expect(anthropic.text).not.toContain('message_stop');

    const chat = await postChat(chatBody('[reply:one two three four][error-midstream]'));
    expect(streamedText(chat.text.replace(/data: \{"error".*\n\n/, ''))).toBe('one two');
    expect(
      chat.text.endsWith('data: {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}\n\n'),
    ).toBe(true);
    expect(chat.text).not.toContain('[DONE]');
  });

  it('[drop] sends part of the text, then closes the socket without the terminal event', async () => {
    vi.useRealTimers();
    for (const [pathname, body, headers] of [
      ['/claude/v1/messages', anthropicBody('[reply:one two three four][drop]'), { 'x-api-key': 'k' }],
      ['/kimi/v1/chat/completions', chatBody('[reply:one two three four][drop]'), { authorization: 'Bearer k' }],
    ] as const) {
      const response = await fetch(`${fake.url}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let received = '';
      const failure = await (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return null;
          received += decoder.decode(value, { stream: true });
        }
      })().catch((thrown: unknown) => thrown);
      expect(failure).toBeInstanceOf(Error);
      expect(streamedText(received.slice(0, received.lastIndexOf('\n\n') + 2))).toBe('one two');
      expect(received).not.toMatch(/message_stop|\[DONE\]/);
    }
  });

  it('[reply:TEXT] replies exactly, with \\n escapes as newlines', async () => {
    expect(streamedText((await postAnthropic(anthropicBody('[reply:# Title\\n\\nBody text]'))).text)).toBe('# Title\n\nBody text');
  });

  it('[markdown] replies with a heading, a list, a table and a ts code block', async () => {
    const text = streamedText((await postChat(chatBody('show me [markdown]'))).text);
    expect(text).toBe(MARKDOWN_REPLY);
    expect(text).toMatch(/^# /m);
    expect(text).toMatch(/^- /m);
    expect(text).toMatch(/^\| --- \| --- \|$/m);
    expect(text).toContain('```ts\n');
  });

  it('combines directives', async () => {
    const reply = await postAnthropic(anthropicBody('[model:m-2] [reply:Combined]'));
    expect(reply.text).toContain('"model":"m-2"');
    expect(streamedText(reply.text)).toBe('Combined');
  });
});

describe('recording', () => {
  it('records each request with credentials redacted', async () => {
    await postAnthropic(anthropicBody('hello'), { 'x-api-key': 'sk-ant-secret', 'anthropic-version': '2023-06-01' });
    await postChat(chatBody('hello'), { authorization: 'Bearer sk-kimi-secret' });
    await post('/gemini/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse&key=AIza-secret', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, {});

    const requests = fake.requests();
    expect(requests.map(({ brain, wire, method, path: requestPath, receivedAt }) => ({ brain, wire, method, path: requestPath, receivedAt }))).toEqual([
      { brain: 'claude', wire: 'anthropic-messages', method: 'POST', path: '/claude/v1/messages', receivedAt: FIXED_NOW.toISOString() },
      { brain: 'kimi', wire: 'chat-completions', method: 'POST', path: '/kimi/v1/chat/completions', receivedAt: FIXED_NOW.toISOString() },
      {
        brain: 'gemini',
        wire: 'gemini-generate-content',
        method: 'POST',
        path: '/gemini/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse&key=[redacted]',
        receivedAt: FIXED_NOW.toISOString(),
      },
    ]);
    expect(requests[0]?.headers['x-api-key']).toBe('[redacted]');
    expect(requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(requests[1]?.headers.authorization).toBe('[redacted]');
    expect(requests[0]?.body).toEqual(anthropicBody('hello'));
    expect(requests.map((request) => request.keySha256)).toEqual([sha256Hex('sk-ant-secret'), sha256Hex('sk-kimi-secret'), sha256Hex('AIza-secret')]);
    expect(sha256Hex('sk-kimi-secret')).toBe(createHash('sha256').update('sk-kimi-secret').digest('hex'));
    expect(JSON.stringify(requests)).not.toMatch(/secret/);
  });

  it('serves the recording over HTTP and resets it', async () => {
    await postAnthropic(anthropicBody('hello'));
    const listed = (await (await fetch(`${fake.url}/_fake/requests`)).json()) as unknown;
    expect(listed).toEqual(fake.requests());
    expect(fake.requests()).toHaveLength(1);
    expect((await fetch(`${fake.url}/_fake/reset`, { method: 'POST' })).status).toBe(200);
    expect(fake.requests()).toEqual([]);
  });

  it('gives each brain its base URL in the shape its client expects', () => {
    expect(fake.baseUrlFor('claude')).toBe(`${fake.url}/claude`);
    expect(fake.baseUrlFor('glm')).toBe(`${fake.url}/glm`);
    expect(fake.baseUrlFor('kimi')).toBe(`${fake.url}/kimi/v1`);
    expect(fake.baseUrlFor('codex')).toBe(`${fake.url}/codex/v1`);
    expect(fake.baseUrlFor('grok')).toBe(`${fake.url}/grok/v1`);
    expect(fake.baseUrlFor('gemini')).toBe(`${fake.url}/gemini`);
    expect(fake.baseUrlFor('ollama')).toBe(`${fake.url}/ollama`);
  });

  it('answers unknown paths with 404', async () => {
    expect((await post('/nobody/v1/messages', {})).status).toBe(404);
    expect((await post('/kimi/v1/completions', {}, { authorization: 'Bearer k' })).status).toBe(404);
  });
});

describe('anthropic-messages request rules', () => {
  const user = (content: unknown): unknown => ({ role: 'user', content });
  const assistant = (content: unknown): unknown => ({ role: 'assistant', content });
  const toolUse = (id: string): unknown => ({ type: 'tool_use', id, name: 'get_weather', input: { city: 'Paris' } });
  const toolResult = (id: string): unknown => ({ type: 'tool_result', tool_use_id: id, content: 'Sunny' });
  const tools = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } }];
  const withMessages = (messages: unknown[], extra: Record<string, unknown> = { tools }): Record<string, unknown> => ({ ...anthropicBody(''), messages, ...extra });

  it.each([
    ['a missing model', { max_tokens: 10, messages: [user('hi')] }, 'model: Field required'],
    ['a missing max_tokens', { model: 'claude-test', messages: [user('hi')] }, 'max_tokens: Field required'],
    ['a first assistant message', withMessages([assistant('hi'), user('hi')]), 'messages: first message must use the "user" role'],
    ['two user messages in a row', withMessages([user('a'), user('b')]), 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row'],
    ['a system message', withMessages([{ role: 'system', content: 'Be brief.' }, user('hi')]), 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.'],
    ['empty content', withMessages([user('')]), 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
    ['an empty text block', withMessages([user([{ type: 'text', text: '' }])]), 'messages: text content blocks must be non-empty'],
    ['tool blocks without tools', withMessages([user('w?'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1')])], {}), TOOLS_REQUIRED_MESSAGE],
    ['a tool id with a dot', withMessages([user('w?'), assistant([toolUse('functions.get_weather:0')]), user([toolResult('functions.get_weather:0')])]), "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"],
    [
      'a tool_use without its result',
      withMessages([user('w?'), assistant([toolUse('toolu_1')]), user('well?')]),
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    [
      'a tool_result without its call',
      withMessages([user('w?'), assistant('Let me look.'), user([toolResult('toolu_9')])]),
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
  ])('rejects %s with Anthropic’s 400', async (_name, body, message) => {
    expect(await postAnthropic(body)).toEqual({
      status: 400,
      contentType: 'application/json',
      text: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }),
    });
    expect(fake.requests()).toHaveLength(1);
  });

  it('rejects a request without credentials with Anthropic’s 401', async () => {
    expect(await postAnthropic(anthropicBody('hi'), {})).toEqual({
      status: 401,
      contentType: 'application/json',
      text: '{"type":"error","error":{"type":"authentication_error","message":"x-api-key header is required"}}',
    });
  });

  it('accepts the recorded real tool round trips, except where it is deliberately stricter than Anthropic', () => {
    const recorded = JSON.parse(reference('recorded-streams', 'anthropic', 'ToolRunner.json')) as { body: Record<string, unknown> }[];
    const verdicts = recorded.map((entry) => checkAnthropicRequest(entry.body));
    // Anthropic merged two consecutive user turns and accepted tool blocks without `tools` in these recordings; the
    // fake refuses both so a replay never depends on that leniency (WIRES.md: roles must alternate, tools declared).
    expect(verdicts).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
      null,
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    ]);
  });
});

describe('chat-completions request rules', () => {
  const call = (id: string, argumentsValue: unknown = '{}'): unknown => ({ id, type: 'function', function: { name: 'get_weather', arguments: argumentsValue } });
  const withMessages = (messages: unknown[]): Record<string, unknown> => ({ ...chatBody(''), messages });

  it.each([
    ['a missing model', { messages: [{ role: 'user', content: 'hi' }] }, { message: 'you must provide a model parameter', param: null, code: null }],
    ['missing messages', { model: 'kimi-test' }, { message: "Missing required parameter: 'messages'.", param: 'messages', code: 'missing_required_parameter' }],
    [
      'an unknown role',
      withMessages([{ role: 'robot', content: 'hi' }]),
      { message: "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", param: 'messages[0].role', code: 'invalid_value' },
    ],
    [
      'a tool message without a preceding call',
      withMessages([{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }]),
      { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: 'messages.[1].role', code: null },
    ],
    [
      'an answer to an unknown call id',
      withMessages([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('call_1')] }, { role: 'tool', tool_call_id: 'call_2', content: 'x' }]),
      { message: "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.", param: 'messages.[2].tool_call_id', code: null },
    ],
    [
      'calls left unanswered',
      withMessages([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }, { role: 'user', content: 'and?' }]),
      {
        message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
        param: 'messages.[1].role',
        code: null,
      },
    ],
    [
      'object arguments',
      withMessages([{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [call('call_1', { city: 'Paris' })] }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }]),
      { message: "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got an object instead.", param: 'messages[1].tool_calls[0].function.arguments', code: 'invalid_type' },
    ],
    [
      'stream_options without stream',
      { ...chatBody('hi'), stream: false },
      { message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.", param: 'stream_options', code: null },
    ],
  ])('rejects %s with OpenAI’s 400', async (_name, body, details) => {
    expect(await postChat(body)).toEqual({
      status: 400,
      contentType: 'application/json',
      text: JSON.stringify({ error: { message: details.message, type: 'invalid_request_error', param: details.param, code: details.code } }),
    });
  });

  it('accepts a complete tool round trip with Kimi’s own ids', async () => {
    const body = withMessages([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, reasoning_content: 'Look it up.', tool_calls: [call('functions.get_weather:0')] },
      { role: 'tool', tool_call_id: 'functions.get_weather:0', content: 'Sunny' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: [{ type: 'text', text: '[reply:Good]' }] },
    ]);
    const reply = await postChat(body);
    expect(reply.status).toBe(200);
    expect(streamedText(reply.text)).toBe('Good');
  });

  it('rejects a request without credentials with OpenAI’s 401', async () => {
    const reply = await postChat(chatBody('hi'), {});
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.text)).toEqual({
      error: {
        message:
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
});

describe('the other wires', () => {
  it('openai-responses: numbered events ending in response.completed', async () => {
    const reply = await post('/codex/v1/responses', { model: 'gpt-test', stream: true, store: false, input: [{ role: 'user', content: '[reply:Hi there]' }] }, { authorization: 'Bearer k' });
    const events = parseServerSentEvents(reply.text).map((event) => ({ name: event.event, data: JSON.parse(event.data) as { type: string; sequence_number: number } }));
    expect(events.map((event) => event.name)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.data.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(events.every((event) => event.data.type === event.name)).toBe(true);
  });

  it('openai-responses: replayed calls must carry their outputs and no foreign item ids', async () => {
    const reply = await post(
      '/grok/v1/responses',
      { model: 'grok-test', stream: true, input: [{ role: 'user', content: 'hi' }, { type: 'function_call', id: 'toolu_1', call_id: 'c1', name: 'f', arguments: '{}' }] },
      { authorization: 'Bearer k' },
    );
    expect(JSON.parse(reply.text)).toEqual({
      error: { message: "Invalid 'input[1].id': 'toolu_1'. Expected an ID that begins with 'fc'.", type: 'invalid_request_error', param: 'input[1].id', code: 'invalid_value' },
    });
  });

  it('gemini-generate-content: CRLF-framed whole responses, no [DONE]', async () => {
    const reply = await post('/gemini/v1beta/models/gemini-test:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: '[reply:Hi]' }] }] }, { 'x-goog-api-key': 'k' });
    expect(reply.text).toBe(
      'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":13,"totalTokenCount":13},"modelVersion":"gemini-test","responseId":"fake0001"}\r\n\r\n' +
        'data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":13,"candidatesTokenCount":1,"totalTokenCount":14},"modelVersion":"gemini-test","responseId":"fake0001"}\r\n\r\n',
    );
  });

  it('gemini-generate-content: Gemini 3 wants its thought signature on the first call of each step', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Divide' }] },
      { role: 'model', parts: [{ functionCall: { name: 'customDivide', args: { numerator: 1, denominator: 2 } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'customDivide', response: { result: 0.5 } } }] },
    ];
    const reply = await post('/gemini/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse', { contents }, { 'x-goog-api-key': 'k' });
    expect(reply.status).toBe(400);
    expect((JSON.parse(reply.text) as { error: { message: string } }).error.message).toMatch(/^Function call is missing a thought_signature in functionCall parts\./);
    const signed = contents.map((content, index) => (index === 1 ? { role: 'model', parts: [{ functionCall: { name: 'customDivide', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }] } : content));
    expect((await post('/gemini/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse', { contents: signed }, { 'x-goog-api-key': 'k' })).status).toBe(200);
  });

  it('ollama-chat: NDJSON lines ending in done, with no key needed', async () => {
    const reply = await post('/ollama/api/chat', { model: 'qwen3', messages: [{ role: 'user', content: '[reply:Hi]' }] }, {});
    expect(reply.contentType).toBe('application/x-ndjson');
    expect(reply.text.split('\n')).toEqual([
      `{"model":"qwen3","created_at":"${FIXED_NOW.toISOString()}","message":{"role":"assistant","content":"Hi"},"done":false}`,
      `{"model":"qwen3","created_at":"${FIXED_NOW.toISOString()}","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":1000000,"load_duration":100000,"prompt_eval_count":10,"prompt_eval_duration":200000,"eval_count":1,"eval_duration":700000}`,
      '',
    ]);
  });

  it('ollama-chat: tool call arguments must be objects', async () => {
    const messages = [
      { role: 'user', content: 'w?' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', content: 'Sunny', tool_name: 'get_weather' },
    ];
    const reply = await post('/ollama/api/chat', { model: 'qwen3', messages }, {});
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      error: 'json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments',
    });
  });
});

describe('ollama /api/show', () => {
  it('describes a model named ctx-N as a qwen3 whose Modelfile sets num_ctx N', async () => {
    const reply = await post('/ollama/api/show', { model: 'qwen3:ctx-8192' }, {});
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe('application/json');
    const answer = JSON.parse(reply.text) as { parameters: string; model_info: Record<string, unknown>; details: unknown; capabilities: unknown };
    expect(answer.parameters.split('\n')).toEqual([
      'num_ctx                        8192',
      'repeat_penalty                 1',
      'stop                           "<|im_start|>"',
      'stop                           "<|im_end|>"',
      'temperature                    0.6',
      'top_k                          20',
      'top_p                          0.95',
    ]);
    expect(answer.model_info['general.architecture']).toBe('qwen3');
    expect(answer.model_info['qwen3.context_length']).toBe(40960);
    expect(answer.details).toEqual({ parent_model: '', format: 'gguf', family: 'qwen3', families: ['qwen3'], parameter_size: '8.2B', quantization_level: 'Q4_K_M' });
    expect(answer.capabilities).toEqual(['completion', 'tools', 'thinking']);
  });

  it('describes any other model name without num_ctx', async () => {
    for (const model of ['qwen3', 'llama3.2:latest', 'ctx-8192-not-a-suffix']) {
      const answer = JSON.parse((await post('/ollama/api/show', { model }, {})).text) as { parameters: string; model_info: Record<string, unknown> };
      expect(answer.parameters).not.toContain('num_ctx');
      expect(answer.model_info['qwen3.context_length']).toBe(40960);
    }
    expect(fake.violations()).toEqual([]);
  });

  it('records the request like any other, and refuses a body without a model as Ollama does', async () => {
    await post('/ollama/api/show', { model: 'qwen3' }, {});
    const missing = await post('/ollama/api/show', {}, {});
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toEqual({ error: 'model is required' });
    const notJson = await post('/ollama/api/show', '{"model":', {});
    expect(notJson.status).toBe(400);
    expect((await fetch(`${fake.url}/ollama/api/show`)).status).toBe(404);
    expect(fake.requests().map(({ method, path: requestPath, body }) => [method, requestPath, body])).toEqual([
      ['POST', '/ollama/api/show', { model: 'qwen3' }],
      ['POST', '/ollama/api/show', {}],
      ['POST', '/ollama/api/show', '{"model":'],
      ['GET', '/ollama/api/show', ''],
    ]);
    expect(fake.violations()).toEqual([
      { brain: 'ollama', path: '/ollama/api/show', status: 400, message: 'model is required' },
      { brain: 'ollama', path: '/ollama/api/show', status: 400, message: 'invalid character looking for beginning of value' },
      { brain: 'ollama', path: '/ollama/api/show', status: 404, message: '404 page not found' },
    ]);
  });

  it('takes no reply sequence number: replies after it carry the same ids as without it', async () => {
    const withoutShow = await postAnthropic(anthropicBody('[reply:Hi]'));
    fake.reset();
    await post('/ollama/api/show', { model: 'qwen3' }, {});
    const afterShow = await postAnthropic(anthropicBody('[reply:Hi]'));
    expect(afterShow.text).toBe(withoutShow.text);
    expect(afterShow.text).toContain('"id":"msg_');
  });
});
