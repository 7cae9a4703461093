/**
 * Scripted tool calls and reasoning on every wire: the bytes of a call reply, the two-step loop (calls, then the text
 * that repeats their answers) and `[think]`.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrainId } from '../../src-shared/brains';
import { useFakeBrains } from './use-fake-brains';
import { FIXED_NOW, FIXED_SECONDS, ndjsonLines, postRaw, sseData, type RawReply } from './testing';

const fake = useFakeBrains();
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(FIXED_NOW);
});
afterEach(() => {
  vi.useRealTimers();
  expect(fake.violations()).toEqual([]);
});

const TWO_CALLS = 'Time? [tool:current_time][tool:current_time {"zone":"UTC"}]';
const ANSWERS = ['12:00', `11:00 UTC and ${'a very long answer '.repeat(5)}`];
/** Each answer repeats at most 60 characters. */
const ANSWERED = `(tools answered: 12:00 | ${ANSWERS[1]?.slice(0, 60)})`;

interface ScriptedCall {
  readonly id: string | null;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

interface WireScenario {
  readonly brain: BrainId;
  readonly label: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  /** A first request that declares `current_time` and ends with the user's words. */
  readonly firstBody: (text: string, extra?: Record<string, unknown>) => Record<string, unknown>;
  readonly calls: (reply: string) => ScriptedCall[];
  readonly reasoning: (reply: string) => string;
  readonly text: (reply: string) => string;
  /** The first request, the reply's calls (with their reasoning) and one answer per call, in the wire's shape. */
  readonly followUp: (first: Record<string, unknown>, reply: string, answers: readonly string[]) => Record<string, unknown>;
}

interface AnthropicEvent {
  readonly type: string;
  readonly index: number;
  readonly content_block?: Record<string, unknown>;
  readonly delta?: { readonly type: string; readonly text?: string; readonly thinking?: string; readonly signature?: string; readonly partial_json?: string };
}

/** Content blocks rebuilt from the events, tool inputs parsed: what a client keeps of the reply. */
function anthropicBlocks(reply: string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  const inputs: string[] = [];
  for (const event of sseData<AnthropicEvent>(reply)) {
    if (event.type === 'content_block_start' && event.content_block) {
      blocks[event.index] = { ...event.content_block };
      inputs[event.index] = '';
    }
    const block = blocks[event.index];
    if (event.type !== 'content_block_delta' || block === undefined || event.delta === undefined) continue;
    const change = event.delta;
    if (change.type === 'text_delta') block.text = `${String(block.text)}${change.text ?? ''}`;
    if (change.type === 'thinking_delta') block.thinking = `${String(block.thinking)}${change.thinking ?? ''}`;
    if (change.type === 'signature_delta') block.signature = `${String(block.signature)}${change.signature ?? ''}`;
    if (change.type === 'input_json_delta') inputs[event.index] = `${inputs[event.index] ?? ''}${change.partial_json ?? ''}`;
  }
  return blocks.map((block, index) => (block.type === 'tool_use' ? { ...block, input: JSON.parse(inputs[index] || '{}') as unknown } : block));
}

interface ChatChunk {
  readonly choices: { readonly delta: { content?: string; reasoning_content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] } }[];
}

function chatCalls(reply: string): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const chunk of sseData<ChatChunk>(reply)) {
    for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = (calls[piece.index] ??= { id: '', name: '', arguments: '' });
      call.id ||= piece.id ?? '';
      call.name ||= piece.function.name ?? '';
      call.arguments += piece.function.arguments;
    }
  }
  return calls;
}

interface ResponsesEvent {
  readonly type: string;
  readonly delta?: string;
  readonly item?: Record<string, unknown>;
}

/** Output items as `output_item.done` delivers them: the only place reasoning carries its encrypted content. */
function responsesItems(reply: string): Record<string, unknown>[] {
  return sseData<ResponsesEvent>(reply).flatMap((event) => (event.type === 'response.output_item.done' && event.item ? [event.item] : []));
}

interface GeminiChunk {
  readonly candidates: { readonly content: { readonly parts: Record<string, unknown>[] } }[];
}

function geminiParts(reply: string): Record<string, unknown>[] {
  return sseData<GeminiChunk>(reply).flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
}

interface OllamaLine {
  readonly message: { content: string; thinking?: string; tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[] };
}

const ollamaCalls = (reply: string): { function: { name: string; arguments: Record<string, unknown> } }[] =>
  ndjsonLines<OllamaLine>(reply).flatMap((line) => line.message.tool_calls ?? []);

const anthropic = (brain: BrainId, label: string): WireScenario => ({
  brain,
  label,
  path: `/${brain}/v1/messages`,
  headers: { 'x-api-key': 'k' },
  firstBody: (text, extra = {}) => ({
    model: 'claude-test',
    max_tokens: 2048,
    stream: true,
    tools: [{ name: 'current_time', description: 'The time', input_schema: { type: 'object' } }],
    messages: [{ role: 'user', content: text }],
    ...extra,
  }),
  calls: (reply) =>
    anthropicBlocks(reply)
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input as Record<string, unknown> })),
  reasoning: (reply) => anthropicBlocks(reply).map((block) => (block.type === 'thinking' ? String(block.thinking) : '')).join(''),
  text: (reply) => anthropicBlocks(reply).map((block) => (block.type === 'text' ? String(block.text) : '')).join(''),
  followUp(first, reply, answers) {
    const content = anthropicBlocks(reply).filter((block) => block.type !== 'text');
    const toolUses = content.filter((block) => block.type === 'tool_use');
    return {
      ...first,
      messages: [
        ...(first.messages as unknown[]),
        { role: 'assistant', content },
        { role: 'user', content: toolUses.map((block, index) => ({ type: 'tool_result', tool_use_id: block.id, content: answers[index] })) },
      ],
    };
  },
});

const WIRES: readonly WireScenario[] = [
  anthropic('claude', 'Claude'),
  anthropic('glm', 'GLM'),
  {
    brain: 'kimi',
    label: 'Kimi',
    path: '/kimi/v1/chat/completions',
    headers: { authorization: 'Bearer k' },
    firstBody: (text, extra = {}) => ({
      model: 'kimi-k2.6',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} } } }],
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: text }],
      ...extra,
    }),
    calls: (reply) => chatCalls(reply).map((call) => ({ id: call.id, name: call.name, input: JSON.parse(call.arguments) as Record<string, unknown> })),
    reasoning: (reply) => sseData<ChatChunk>(reply).map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join(''),
    text: (reply) => sseData<ChatChunk>(reply).map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
    followUp(first, reply, answers) {
      const calls = chatCalls(reply);
      const reasoning = sseData<ChatChunk>(reply).map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('');
      return {
        ...first,
        messages: [
          ...(first.messages as unknown[]),
          {
            role: 'assistant',
            content: null,
            ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
            tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          },
          ...calls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: answers[index] })),
        ],
      };
    },
  },
  ...(['codex', 'grok'] as const).map(
    (brain): WireScenario => ({
      brain,
      label: brain === 'codex' ? 'Codex' : 'Grok',
      path: `/${brain}/v1/responses`,
      headers: { authorization: 'Bearer k' },
      firstBody: (text, extra = {}) => ({
        model: 'gpt-test',
        stream: true,
        store: false,
        include: ['reasoning.encrypted_content'],
        reasoning: { effort: 'low', summary: 'auto' },
        tools: [{ type: 'function', name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} }, strict: false }],
        input: [{ role: 'user', content: [{ type: 'input_text', text }] }],
        ...extra,
      }),
      calls: (reply) =>
        responsesItems(reply)
          .filter((item) => item.type === 'function_call')
          .map((item) => ({ id: String(item.call_id), name: String(item.name), input: JSON.parse(String(item.arguments)) as Record<string, unknown> })),
      reasoning: (reply) => sseData<ResponsesEvent>(reply).map((event) => (event.type === 'response.reasoning_summary_text.delta' ? event.delta : '')).join(''),
      text: (reply) => sseData<ResponsesEvent>(reply).map((event) => (event.type === 'response.output_text.delta' ? event.delta : '')).join(''),
      followUp(first, reply, answers) {
        const items = responsesItems(reply);
        const calls = items.filter((item) => item.type === 'function_call');
        return {
          ...first,
          input: [
            ...(first.input as unknown[]),
            ...items,
            ...calls.map((call, index) => ({ type: 'function_call_output', call_id: call.call_id, output: answers[index] })),
          ],
        };
      },
    }),
  ),
  {
    brain: 'gemini',
    label: 'Gemini',
    path: '/gemini/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    headers: { 'x-goog-api-key': 'k' },
    firstBody: (text, extra = {}) => ({
      tools: [{ functionDeclarations: [{ name: 'current_time', description: 'The time', parameters: { type: 'OBJECT', properties: {} } }] }],
      contents: [{ role: 'user', parts: [{ text }] }],
      ...extra,
    }),
    calls: (reply) =>
      geminiParts(reply).flatMap((part) => {
        const call = part.functionCall as { name: string; args: Record<string, unknown> } | undefined;
        return call === undefined ? [] : [{ id: null, name: call.name, input: call.args }];
      }),
    reasoning: (reply) => geminiParts(reply).map((part) => (part.thought === true ? String(part.text) : '')).join(''),
    text: (reply) => geminiParts(reply).map((part) => (part.thought !== true && typeof part.text === 'string' ? part.text : '')).join(''),
    followUp(first, reply, answers) {
      const calls = geminiParts(reply).filter((part) => part.functionCall !== undefined);
      return {
        ...first,
        contents: [
          ...(first.contents as unknown[]),
          { role: 'model', parts: calls },
          { role: 'user', parts: calls.map((part, index) => ({ functionResponse: { name: (part.functionCall as { name: string }).name, response: { output: answers[index] } } })) },
        ],
      };
    },
  },
  {
    brain: 'ollama',
    label: 'Ollama',
    path: '/ollama/api/chat',
    headers: {},
    firstBody: (text, extra = {}) => ({
      model: 'qwen3',
      tools: [{ type: 'function', function: { name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} } } }],
      messages: [{ role: 'user', content: text }],
      ...extra,
    }),
    calls: (reply) => ollamaCalls(reply).map((call) => ({ id: null, name: call.function.name, input: call.function.arguments })),
    reasoning: (reply) => ndjsonLines<OllamaLine>(reply).map((line) => line.message.thinking ?? '').join(''),
    text: (reply) => ndjsonLines<OllamaLine>(reply).map((line) => line.message.content).join(''),
    followUp(first, reply, answers) {
      const calls = ollamaCalls(reply);
      return {
        ...first,
        messages: [
          ...(first.messages as unknown[]),
          { role: 'assistant', content: '', tool_calls: calls },
          ...calls.map((call, index) => ({ role: 'tool', content: answers[index], tool_name: call.function.name })),
        ],
      };
    },
  },
];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const send = (scenario: WireScenario, body: unknown): Promise<RawReply> => postRaw(fake.url, scenario.path, body, scenario.headers);

describe.each(WIRES)('$brain: the two-step tool loop', (scenario) => {
  it('calls the tools when the conversation ends with the user, then answers with what they returned', async () => {
    const first = scenario.firstBody(TWO_CALLS);
    const callReply = await send(scenario, first);
    expect(callReply.status).toBe(200);
    expect(scenario.calls(callReply.text).map(({ name, input }) => ({ name, input }))).toEqual([
      { name: 'current_time', input: {} },
      { name: 'current_time', input: { zone: 'UTC' } },
    ]);
    expect(scenario.text(callReply.text)).toBe('');

    const answerReply = await send(scenario, scenario.followUp(first, callReply.text, ANSWERS));
    expect(answerReply.status).toBe(200);
    expect(scenario.calls(answerReply.text)).toEqual([]);
    expect(scenario.text(answerReply.text)).toBe(`Fake ${scenario.label} reply to: ${TWO_CALLS} ${ANSWERED}`);
  });

  it('replies in text when the request does not offer the tool', async () => {
    const reply = await send(scenario, scenario.firstBody('Go [tool:launch_rocket {"now":true}]'));
    expect(scenario.calls(reply.text)).toEqual([]);
    expect(scenario.text(reply.text)).toBe(`Fake ${scenario.label} reply: the tool "launch_rocket" was not offered in this request.`);
  });

  it('replies in text when a directive has no readable input', async () => {
    const reply = await send(scenario, scenario.firstBody('Go [tool:current_time {"zone":}]'));
    expect(scenario.text(reply.text)).toBe(`Fake ${scenario.label} reply: the directive [tool:current_time {"zone":}] has no JSON object input.`);
  });
});

describe('exact bytes of a tool-call reply', () => {
  it('anthropic-messages: tool_use blocks with input_json_delta pieces and stop_reason tool_use', async () => {
    const reply = await send(WIRES[0] as WireScenario, WIRES[0]?.firstBody(TWO_CALLS));
    expect(reply.contentType).toBe('text/event-stream; charset=utf-8');
    expect(reply.text).toBe(
      'event: message_start\n' +
        'data: {"type":"message_start","message":{"id":"msg_fake0001","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":24,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}\n\n' +
        'event: content_block_start\n' +
        'data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_758a5f73759c379d2bbf7974","name":"current_time","input":{}}}\n\n' +
        'event: ping\n' +
        'data: {"type": "ping"}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n' +
        'event: content_block_stop\n' +
        'data: {"type":"content_block_stop","index":0}\n\n' +
        'event: content_block_start\n' +
        'data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_ca73ff2c6a546d55b2eb5153","name":"current_time","input":{}}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"zone\\":"}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\\"UTC\\"}"}}\n\n' +
        'event: content_block_stop\n' +
        'data: {"type":"content_block_stop","index":1}\n\n' +
        'event: message_delta\n' +
        'data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":3}}\n\n' +
        'event: message_stop\n' +
        'data: {"type":"message_stop"}\n\n',
    );
  });

  it('chat-completions: indexed tool_calls pieces, Kimi-native ids and finish_reason tool_calls', async () => {
    const body = { ...WIRES[2]?.firstBody(TWO_CALLS), model: 'kimi-test' };
    const reply = await send(WIRES[2] as WireScenario, body);
    const prefix = `data: {"id":"chatcmpl-fake0001","object":"chat.completion.chunk","created":${FIXED_SECONDS},"model":"kimi-test","system_fingerprint":"fp_fake0001",`;
    const piece = (delta: string): string => `${prefix}"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`;
    expect(reply.text).toBe(
      piece('{"role":"assistant","content":"","refusal":null}') +
        piece('{"tool_calls":[{"index":0,"id":"functions.current_time:0","type":"function","function":{"name":"current_time","arguments":""}}]}') +
        piece('{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}') +
        piece('{"tool_calls":[{"index":1,"id":"functions.current_time:1","type":"function","function":{"name":"current_time","arguments":""}}]}') +
        piece('{"tool_calls":[{"index":1,"function":{"arguments":"{\\"zone\\":"}}]}') +
        piece('{"tool_calls":[{"index":1,"function":{"arguments":"\\"UTC\\"}"}}]}') +
        `${prefix}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}\n\n` +
        `${prefix}"choices":[],"usage":{"prompt_tokens":34,"completion_tokens":3,"total_tokens":37,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('chat-completions: Kimi counts its call ids across the conversation; other brains get call_ ids', async () => {
    const scenario = WIRES[2] as WireScenario;
    const first = scenario.firstBody('Time? [tool:current_time]');
    const firstReply = await send(scenario, first);
    const second = scenario.followUp(first, firstReply.text, ['12:00']);
    const messages = [...(second.messages as unknown[]), { role: 'assistant', content: 'It is noon.' }, { role: 'user', content: 'And now? [tool:current_time]' }];
    const secondReply = await send(scenario, { ...second, messages });
    expect(scenario.calls(firstReply.text).map((call) => call.id)).toEqual(['functions.current_time:0']);
    expect(scenario.calls(secondReply.text).map((call) => call.id)).toEqual(['functions.current_time:1']);
  });

  it('openai-responses: function_call items with call_ and fc_ ids, arguments in deltas, completed output', async () => {
    const scenario = WIRES[3] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Time? [tool:current_time {"zone":"UTC"}]', { reasoning: null }));
    const events = sseData<ResponsesEvent & { sequence_number: number; item_id?: string; arguments?: string; response?: { output: unknown[]; status: string } }>(reply.text);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const added = events[2]?.item;
    expect(added).toMatchObject({ type: 'function_call', status: 'in_progress', arguments: '', name: 'current_time' });
    expect(String(added?.id)).toMatch(/^fc_[0-9a-f]{48}$/);
    expect(String(added?.call_id)).toMatch(/^call_[0-9a-f]{24}$/);
    expect(events.slice(3, 5).map((event) => [event.item_id, event.delta])).toEqual([
      [added?.id, '{"zone":'],
      [added?.id, '"UTC"}'],
    ]);
    expect(events[5]?.arguments).toBe('{"zone":"UTC"}');
    const done = { ...added, status: 'completed', arguments: '{"zone":"UTC"}' };
    expect(events[6]?.item).toEqual(done);
    expect(events[7]?.response?.output).toEqual([done]);
  });

  it('gemini-generate-content: one functionCall chunk with STOP, signed on Gemini 3 only', async () => {
    const scenario = WIRES[5] as WireScenario;
    const body = scenario.firstBody(TWO_CALLS);
    const signed = await send(scenario, body);
    const [chunk] = sseData<GeminiChunk & { candidates: { finishReason?: string }[] }>(signed.text);
    expect(chunk?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunk?.candidates[0]?.content.parts).toEqual([
      { functionCall: { name: 'current_time', args: {} }, thoughtSignature: 'YW55YnJhaW4tZmFrZS10aG91Z2h0fGdlbWluaS0zLXByby1wcmV2aWV3fGZha2UwMDAx' },
      { functionCall: { name: 'current_time', args: { zone: 'UTC' } } },
    ]);
    const unsigned = await postRaw(fake.url, '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body, scenario.headers);
    expect(geminiParts(unsigned.text).every((part) => part.thoughtSignature === undefined)).toBe(true);
  });

  it('ollama-chat: one line with the calls, arguments as objects, then done', async () => {
    const scenario = WIRES[6] as WireScenario;
    const reply = await send(scenario, scenario.firstBody(TWO_CALLS));
    expect(ndjsonLines(reply.text)).toEqual([
      {
        model: 'qwen3',
        created_at: FIXED_NOW.toISOString(),
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'current_time', arguments: {} } }, { function: { name: 'current_time', arguments: { zone: 'UTC' } } }],
        },
        done: false,
      },
      expect.objectContaining({ done: true, done_reason: 'stop', eval_count: 3 }),
    ]);
  });
});

describe('[think]', () => {
  const reasoningOf = (scenario: WireScenario, text: string): string => `Fake ${scenario.label} thinks about: ${text}`;

  it('anthropic-messages: a signed thinking block first, only with thinking on', async () => {
    const scenario = WIRES[0] as WireScenario;
    const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 } };
    const reply = await send(scenario, scenario.firstBody('Why? [think]', thinking));
    const [first, second] = anthropicBlocks(reply.text);
    expect(first).toEqual({
      type: 'thinking',
      thinking: reasoningOf(scenario, 'Why? [think]'),
      // Bound to the requested model and the thinking text, as Anthropic's signatures are.
      signature: Buffer.from(`anybrain-fake-thinking|claude-test|${sha256(reasoningOf(scenario, 'Why? [think]')).slice(0, 32)}`).toString('base64'),
    });
    expect(second).toEqual({ type: 'text', text: 'Fake Claude reply to: Why? [think]' });
    expect(sseData<AnthropicEvent>(reply.text).filter((event) => event.delta?.type === 'signature_delta')).toHaveLength(1);

    const withoutThinking = await send(scenario, scenario.firstBody('Why? [think]'));
    expect(anthropicBlocks(withoutThinking.text).map((block) => block.type)).toEqual(['text']);
  });

  it('anthropic-messages: with thinking on, a tool-call reply always opens with thinking, and its replay passes', async () => {
    const scenario = WIRES[0] as WireScenario;
    const first = scenario.firstBody('Time? [tool:current_time]', { thinking: { type: 'enabled', budget_tokens: 1024 } });
    const callReply = await send(scenario, first);
    expect(anthropicBlocks(callReply.text).map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const answerReply = await send(scenario, scenario.followUp(first, callReply.text, ['12:00']));
    expect(answerReply.status).toBe(200);
    expect(scenario.text(answerReply.text)).toBe('Fake Claude reply to: Time? [tool:current_time] (tools answered: 12:00)');
  });

  it('openai-responses: a reasoning item with its summary, encrypted content only on output_item.done', async () => {
    const scenario = WIRES[3] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Why? [think]'));
    const events = sseData<ResponsesEvent>(reply.text);
    expect(events.slice(2, 6).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
    ]);
    expect(events[2]?.item).toEqual({ id: expect.stringMatching(/^rs_[0-9a-f]{48}$/) as unknown, type: 'reasoning', summary: [] });
    const [reasoning, message] = responsesItems(reply.text);
    expect(reasoning).toEqual({
      id: events[2]?.item?.id,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: reasoningOf(scenario, 'Why? [think]') }],
      encrypted_content: expect.stringMatching(/^gAAAAA[A-Za-z0-9+/=]+$/) as unknown,
    });
    expect(message).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Fake Codex reply to: Why? [think]' }] });
    expect(scenario.reasoning(reply.text)).toBe(reasoningOf(scenario, 'Why? [think]'));

    const notIncluded = await send(scenario, scenario.firstBody('Why? [think]', { include: [] }));
    expect(responsesItems(notIncluded.text)[0]).not.toHaveProperty('encrypted_content');
    const noReasoning = await send(scenario, scenario.firstBody('Why? [think]', { reasoning: null }));
    expect(responsesItems(noReasoning.text).map((item) => item.type)).toEqual(['message']);
  });

  it('chat-completions: reasoning_content deltas, not when thinking is disabled', async () => {
    const scenario = WIRES[2] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Why? [think]'));
    expect(scenario.reasoning(reply.text)).toBe(reasoningOf(scenario, 'Why? [think]'));
    expect(scenario.text(reply.text)).toBe('Fake Kimi reply to: Why? [think]');
    expect(reply.text).toContain('"completion_tokens_details":{"reasoning_tokens":6,');
    const disabled = await send(scenario, scenario.firstBody('Why? [think]', { thinking: { type: 'disabled' } }));
    expect(scenario.reasoning(disabled.text)).toBe('');
  });

  it('chat-completions: Kimi K2.6 reasons before its calls even without [think]', async () => {
    const scenario = WIRES[2] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Time? [tool:current_time]'));
    expect(scenario.reasoning(reply.text)).toBe(reasoningOf(scenario, 'Time? [tool:current_time]'));
  });

  it('gemini-generate-content: thought parts, then the signature on the last part', async () => {
    const scenario = WIRES[5] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Why? [think]'));
    const parts = geminiParts(reply.text);
    expect(parts.filter((part) => part.thought === true).map((part) => part.text)).toEqual(['Fake', ' Gemini', ' thinks', ' about:', ' Why?', ' [think]']);
    expect(parts.at(-1)).toEqual({ text: '', thoughtSignature: expect.any(String) as unknown });
    expect(scenario.text(reply.text)).toBe('Fake Gemini reply to: Why? [think]');
  });

  it('ollama-chat: message.thinking lines when think is set', async () => {
    const scenario = WIRES[6] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Why? [think]', { think: true }));
    expect(scenario.reasoning(reply.text)).toBe(reasoningOf(scenario, 'Why? [think]'));
    expect(ndjsonLines<OllamaLine>(reply.text)[0]?.message).toEqual({ role: 'assistant', content: '', thinking: 'Fake' });
    const unset = await send(scenario, scenario.firstBody('Why? [think]'));
    expect(scenario.reasoning(unset.text)).toBe('');
  });
});

describe('non-streaming replies carry the calls too', () => {
  it('anthropic-messages', async () => {
    const scenario = WIRES[0] as WireScenario;
    const reply = await send(scenario, scenario.firstBody('Time? [tool:current_time {"zone":"UTC"}]', { stream: false }));
    expect(JSON.parse(reply.text)).toMatchObject({
      content: [{ type: 'tool_use', id: 'toolu_758a5f73759c379d2bbf7974', name: 'current_time', input: { zone: 'UTC' } }],
      stop_reason: 'tool_use',
    });
  });

  it('chat-completions', async () => {
    const scenario = WIRES[2] as WireScenario;
    const reply = await send(scenario, { ...scenario.firstBody('Time? [tool:current_time {"zone":"UTC"}]', { stream: false }), stream_options: undefined });
    expect(JSON.parse(reply.text)).toMatchObject({
      choices: [
        {
          message: { content: null, tool_calls: [{ id: 'functions.current_time:0', type: 'function', function: { name: 'current_time', arguments: '{"zone":"UTC"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
    });
  });
});
