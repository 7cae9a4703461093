/**
 * The wire rules a replay can break, each with the provider's own status and text, and the violations list that lets
 * a whole run assert it broke none.
 */
import { describe, expect, it } from 'vitest';
import { anthropicThinkingSignature, GEMINI_DUMMY_SIGNATURE } from './derived-tokens';
import { useFakeBrains } from './use-fake-brains';
import { errorMessage, postRaw, sseData, type RawReply } from './testing';

const fake = useFakeBrains();

const bearer = { authorization: 'Bearer k' };

describe('anthropic-messages', () => {
  const tools = [{ name: 'current_time', description: 'The time', input_schema: { type: 'object' } }];
  const thinking = { type: 'enabled', budget_tokens: 1024 };
  const toolUse = (id: string): unknown => ({ type: 'tool_use', id, name: 'current_time', input: {} });
  const toolResult = (id: string): unknown => ({ type: 'tool_result', tool_use_id: id, content: '12:00' });
  const thinkingBlock = (model: string): unknown => ({ type: 'thinking', thinking: 'Check the clock.', signature: anthropicThinkingSignature(model, 'Check the clock.') });
  const body = (messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'claude-test', max_tokens: 2048, stream: true, tools, messages, ...extra });
  const send = (requestBody: unknown): Promise<RawReply> => postRaw(fake.url, '/claude/v1/messages', requestBody, { 'x-api-key': 'k' });

  it.each([
    [
      'more than four cache breakpoints',
      body(
        [
          { role: 'user', content: [1, 2, 3].map((index) => ({ type: 'text', text: `part ${index}`, cache_control: { type: 'ephemeral' } })) },
          { role: 'assistant', content: [{ type: 'text', text: 'ok', cache_control: { type: 'ephemeral' } }] },
          { role: 'user', content: 'hi' },
        ],
        { system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
      ),
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    ],
    [
      'an hour-long breakpoint after a five-minute one',
      body(
        [{ role: 'user', content: [{ type: 'text', text: 'Time?', cache_control: { type: 'ephemeral', ttl: '1h' } }] }],
        { system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
      ),
      "messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    ],
    [
      'tool results split over two user messages',
      body([
        { role: 'user', content: 'Time?' },
        { role: 'assistant', content: [toolUse('toolu_a'), toolUse('toolu_b')] },
        { role: 'user', content: [toolResult('toolu_a'), { type: 'text', text: 'and?' }] },
        { role: 'assistant', content: 'Waiting.' },
        { role: 'user', content: [toolResult('toolu_b')] },
      ]),
      'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    [
      'a tool_result for a call of an earlier assistant message',
      body([
        { role: 'user', content: 'Time?' },
        { role: 'assistant', content: [toolUse('toolu_a')] },
        { role: 'user', content: [toolResult('toolu_a')] },
        { role: 'assistant', content: 'Noon.' },
        { role: 'user', content: [toolResult('toolu_a')] },
      ]),
      'messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_a. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
    [
      'a tool-calling final assistant message without its thinking, thinking on',
      body([{ role: 'user', content: 'Time?' }, { role: 'assistant', content: [toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a')] }], { thinking }),
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    ],
    [
      'words before the thinking of a tool-calling final assistant message',
      body(
        [
          { role: 'user', content: 'Time?' },
          { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, thinkingBlock('claude-test'), toolUse('toolu_a')] },
          { role: 'user', content: [toolResult('toolu_a')] },
        ],
        { thinking },
      ),
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    ],
    [
      'a request that ends on the assistant\u2019s words',
      body([{ role: 'user', content: 'Time?' }, { role: 'assistant', content: [toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a')] }, { role: 'assistant', content: 'Let me think.' }]),
      'This model does not support assistant message prefill. The conversation must end with a user message.',
    ],
    [
      'words before the thinking of an earlier assistant message, thinking off',
      body([
        { role: 'user', content: 'Time?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me' }, thinkingBlock('claude-test'), { type: 'text', text: 'It is noon.' }] },
        { role: 'user', content: 'Thanks.' },
      ]),
      'messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.',
    ],
    [
      'a tool call before the thinking of an earlier assistant message, thinking on',
      body(
        [
          { role: 'user', content: 'Time?' },
          { role: 'assistant', content: [toolUse('toolu_a'), thinkingBlock('claude-test'), toolUse('toolu_b')] },
          { role: 'user', content: [toolResult('toolu_a'), toolResult('toolu_b')] },
          { role: 'assistant', content: 'Noon.' },
          { role: 'user', content: 'Thanks.' },
        ],
        { thinking },
      ),
      'messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found tool_use.',
    ],
    [
      'a text block of only blank lines before a tool call',
      body([{ role: 'user', content: 'Time?' }, { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a')] }]),
      'messages: text content blocks must contain non-whitespace text',
    ],
    [
      'a user text block of only spaces',
      body([{ role: 'user', content: [{ type: 'text', text: ' \t ' }] }]),
      'messages: text content blocks must contain non-whitespace text',
    ],
    [
      'a thinking block another model signed',
      body([{ role: 'user', content: 'Time?' }, { role: 'assistant', content: [thinkingBlock('claude-other'), toolUse('toolu_a')] }, { role: 'user', content: [toolResult('toolu_a')] }], { thinking }),
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    ],
    [
      'a thinking block whose text was changed',
      body([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ ...(thinkingBlock('claude-test') as object), thinking: 'Edited.' }, { type: 'text', text: 'Hello' }] }, { role: 'user', content: 'Bye' }]),
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    ],
  ])('rejects %s with Anthropic’s 400', async (_name, requestBody, message) => {
    expect(await send(requestBody)).toEqual({ status: 400, contentType: 'application/json', text: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }) });
  });

  it.each([
    ['a budget under 1,024 tokens', { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 512 } }, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
    ['a budget that reaches max_tokens', { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } }, '`max_tokens` must be greater than `thinking.budget_tokens`.'],
  ])('rejects %s', async (_name, extra, message) => {
    const reply = await send(body([{ role: 'user', content: 'Hi' }], extra));
    expect(reply.status).toBe(400);
    expect(errorMessage(reply.text)).toBe(message);
  });

  it('accepts its own signed thinking with redacted thinking beside it, and four breakpoints', async () => {
    const reply = await send(
      body(
        [
          { role: 'user', content: [{ type: 'text', text: 'Time?', cache_control: { type: 'ephemeral' } }] },
          { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'opaque' }, thinkingBlock('claude-test'), toolUse('toolu_a')] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: '12:00', cache_control: { type: 'ephemeral' } }] },
        ],
        { thinking, system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }], tools: [{ ...tools[0], cache_control: { type: 'ephemeral' } }] },
      ),
    );
    expect(reply.status).toBe(200);
  });
});

describe('openai-responses', () => {
  const tools = [{ type: 'function', name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} }, strict: false }];
  const body = (input: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'gpt-test', stream: true, store: false, tools, input, ...extra });
  const user = { role: 'user', content: 'Time?' };
  const call = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'function_call', call_id: 'call_1', name: 'current_time', arguments: '{}', ...extra });
  const output = (callId = 'call_1'): unknown => ({ type: 'function_call_output', call_id: callId, output: '12:00' });
  const send = (requestBody: unknown): Promise<RawReply> => postRaw(fake.url, '/codex/v1/responses', requestBody, bearer);

  it.each([
    ['a previous_response_id', body([user], { previous_response_id: 'resp_1' }), 400, "Previous response with id 'resp_1' not found.", 'previous_response_id', 'previous_response_not_found'],
    [
      'a call_id over 64 characters',
      body([user, call({ call_id: 'c'.repeat(65) }), output('c'.repeat(65))]),
      400,
      "Invalid 'input[1].call_id': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
      'input[1].call_id',
      'string_above_max_length',
    ],
    ['a function_call id not starting with fc', body([user, call({ id: 'toolu_1' }), output()]), 400, "Invalid 'input[1].id': 'toolu_1'. Expected an ID that begins with 'fc'.", 'input[1].id', 'invalid_value'],
    ['a stored item id the server never kept', body([user, call({ id: 'fc_123' }), output()], { store: true }), 404, "Item with id 'fc_123' not found.", 'input', null],
    [
      'reasoning without encrypted content under store:false',
      body([user, { type: 'reasoning', id: 'rs_1', summary: [] }, call(), output()]),
      404,
      "Item with id 'rs_1' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
      'input',
      null,
    ],
    ['a reasoning id not starting with rs', body([user, { type: 'reasoning', id: 'fc_1', summary: [], encrypted_content: 'gAAAAA' }]), 400, "Invalid 'input[1].id': 'fc_1'. Expected an ID that begins with 'rs'.", 'input[1].id', 'invalid_value'],
    ['an output without its call', body([user, output('call_9')]), 400, 'No tool call found for function call output with call_id call_9.', 'input', null],
    ['a call without its output', body([user, call()]), 400, 'No tool output found for function call call_1.', 'input', null],
  ])('rejects %s', async (_name, requestBody, status, message, param, code) => {
    const reply = await send(requestBody);
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.text)).toEqual({ error: { message, type: 'invalid_request_error', param, code } });
  });

  it('with store on, takes back the item ids it kept, and forgets them on reset', async () => {
    const first = body([{ role: 'user', content: 'Time? [think][tool:current_time]' }], { store: true, reasoning: { effort: 'low' } });
    const callReply = await send(first);
    const items = sseData<{ type: string; item?: Record<string, unknown> }>(callReply.text).flatMap((event) => (event.type === 'response.output_item.done' && event.item ? [event.item] : []));
    expect(items.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const second = { ...first, input: [...(first.input as unknown[]), ...items, output(String(items[1]?.call_id))] };
    expect((await send(second)).status).toBe(200);
    fake.reset();
    expect(errorMessage((await send(second)).text)).toBe(`Item with id '${String(items[0]?.id)}' not found.`);
  });
});

describe('chat-completions (kimi)', () => {
  const call = { id: 'functions.current_time:0', type: 'function', function: { name: 'current_time', arguments: '{}' } };
  const messages = (assistant: Record<string, unknown>): unknown[] => [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Time?' },
    { role: 'assistant', content: null, tool_calls: [call], ...assistant },
    { role: 'tool', tool_call_id: call.id, content: '12:00' },
  ];
  const body = (model: string, assistant: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    model,
    stream: true,
    tools: [{ type: 'function', function: { name: 'current_time', parameters: { type: 'object', properties: {} } } }],
    messages: messages(assistant),
    ...extra,
  });
  const send = (requestBody: unknown): Promise<RawReply> => postRaw(fake.url, '/kimi/v1/chat/completions', requestBody, bearer);
  const missing = 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2';

  it.each([
    ['thinking enabled', body('kimi-test', {}, { thinking: { type: 'enabled' } })],
    ['K2.6 thinking by default', body('kimi-k2.6', {})],
    ['K2.5 thinking by default', body('kimi-k2.5', {})],
    ['an empty reasoning_content', body('kimi-k2.6', { reasoning_content: '' })],
  ])('requires reasoning_content on tool-calling messages with %s', async (_name, requestBody) => {
    const reply = await send(requestBody);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({ error: { message: missing, type: 'invalid_request_error', param: null, code: null } });
  });

  it.each([
    ['thinking disabled', body('kimi-k2.6', {}, { thinking: { type: 'disabled' } })],
    ['a model that does not think by default', body('kimi-test', {})],
    ['the reasoning kept', body('kimi-k2.6', { reasoning_content: 'Check the clock.' })],
  ])('accepts %s', async (_name, requestBody) => {
    expect((await send(requestBody)).status).toBe(200);
  });

  it('rejects a tool message answering no call', async () => {
    const requestBody = body('kimi-test', {});
    const reply = await send({ ...requestBody, messages: [...(requestBody.messages as unknown[]).slice(0, 2), { role: 'tool', tool_call_id: call.id, content: '12:00' }] });
    expect(errorMessage(reply.text)).toBe("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
  });
});

describe('gemini-generate-content', () => {
  const call = (name: string, signature?: string): unknown => ({ functionCall: { name, args: {} }, ...(signature === undefined ? {} : { thoughtSignature: signature }) });
  const response = (name: string): unknown => ({ functionResponse: { name, response: { output: '12:00' } } });
  const body = (contents: unknown[]): Record<string, unknown> => ({ tools: [{ functionDeclarations: [{ name: 'current_time' }, { name: 'other' }] }], contents });
  const send = (model: string, requestBody: unknown): Promise<RawReply> => postRaw(fake.url, `/gemini/v1beta/models/${model}:streamGenerateContent?alt=sse`, requestBody, { 'x-goog-api-key': 'k' });
  const user = { role: 'user', parts: [{ text: 'Time?' }] };

  it.each([
    ['a role other than user and model', 'gemini-2.5-flash', body([{ role: 'assistant', parts: [{ text: 'hi' }] }]), 'Please use a valid role: user, model.'],
    [
      'a Gemini 3 call without its signature',
      'gemini-3-pro-preview',
      body([user, { role: 'model', parts: [call('current_time')] }, { role: 'user', parts: [response('current_time')] }]),
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:current_time` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    ],
    [
      'a signature Gemini never issued',
      'gemini-2.5-flash',
      body([user, { role: 'model', parts: [call('current_time', 'c2lnbmVkIGVsc2V3aGVyZQ==')] }, { role: 'user', parts: [response('current_time')] }]),
      'Corrupted thought signature.',
    ],
    [
      'a response named after another function',
      'gemini-2.5-flash',
      body([user, { role: 'model', parts: [call('current_time')] }, { role: 'user', parts: [response('other')] }]),
      'Request contains an invalid argument.',
    ],
    ['a response without a call turn before it', 'gemini-2.5-flash', body([user, { role: 'user', parts: [response('current_time')] }]), 'Please ensure that function response turn comes immediately after a function call turn.'],
    [
      'a thinking level beside a thinking budget',
      'gemini-3.1-pro-preview',
      { ...body([user]), generationConfig: { thinkingConfig: { thinkingLevel: 'low', thinkingBudget: 1024 } } },
      'You can only set only one of thinking budget and thinking level.',
    ],
    [
      'a thinking level to a model before Gemini 3',
      'gemini-2.5-flash',
      { ...body([user]), generationConfig: { thinkingConfig: { thinkingLevel: 'low' } } },
      'Thinking level is not supported for this model.',
    ],
  ])('rejects %s with Gemini’s 400', async (_name, model, requestBody, message) => {
    const reply = await send(model, requestBody);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
  });

  it('accepts the documented dummy signature on a Gemini 3 call it did not make', async () => {
    const reply = await send('gemini-3-pro-preview', body([user, { role: 'model', parts: [call('current_time', GEMINI_DUMMY_SIGNATURE), call('other')] }, { role: 'user', parts: [response('current_time'), response('other')] }]));
    expect(reply.status).toBe(200);
  });
});

describe('ollama-chat', () => {
  const messages = (tool: Record<string, unknown>): unknown[] => [
    { role: 'user', content: 'Time?' },
    { role: 'assistant', content: '', tool_calls: [{ function: { name: 'current_time', arguments: {} } }] },
    { role: 'tool', ...tool },
  ];
  const send = (requestBody: unknown): Promise<RawReply> => postRaw(fake.url, '/ollama/api/chat', requestBody, {});

  it.each([
    ['a tool message without content', messages({ tool_name: 'current_time' }), 'messages[2]: a tool message needs its content'],
    ['a tool_name no call used', messages({ content: '12:00', tool_name: 'other' }), 'messages[2]: tool_name "other" does not match any earlier tool call'],
  ])('rejects %s', async (_name, requestMessages, message) => {
    expect(await send({ model: 'qwen3', messages: requestMessages })).toEqual({ status: 400, contentType: 'application/json', text: JSON.stringify({ error: message }) });
  });

  it('accepts a tool message without a tool_name', async () => {
    expect((await send({ model: 'qwen3', messages: messages({ content: '12:00' }) })).status).toBe(200);
  });

  it('refuses a truthy think to a model without thinking, and takes think: false from any model', async () => {
    const hello = [{ role: 'user', content: 'Hi' }];
    for (const think of [true, 'high']) {
      expect(await send({ model: 'llama3.3', messages: hello, think })).toEqual({
        status: 400,
        contentType: 'application/json',
        text: JSON.stringify({ error: '"llama3.3" does not support thinking' }),
      });
    }
    expect((await send({ model: 'llama3.3', messages: hello, think: false })).status).toBe(200);
    expect((await send({ model: 'qwen3', messages: hello, think: true })).status).toBe(200);
  });
});

describe('violations', () => {
  it('lists every refusal with brain, path, status and message, over HTTP too, until reset', async () => {
    await postRaw(fake.url, '/claude/v1/messages', { model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': 'k' });
    await postRaw(fake.url, '/kimi/v1/chat/completions', '{not json', bearer);
    await postRaw(fake.url, '/gemini/v1beta/models/gemini-test:streamGenerateContent?alt=sse&key=AIza-secret', { contents: [{ role: 'robot', parts: [{ text: 'hi' }] }] }, {});
    await postRaw(fake.url, '/ollama/api/chat', { model: 'qwen3', messages: [{ role: 'user', content: 'hi [status:503]' }] }, {});

    const expected = [
      { brain: 'claude', path: '/claude/v1/messages', status: 400, message: 'max_tokens: Field required' },
      {
        brain: 'kimi',
        path: '/kimi/v1/chat/completions',
        status: 400,
        message:
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      },
      { brain: 'gemini', path: '/gemini/v1beta/models/gemini-test:streamGenerateContent?alt=sse&key=[redacted]', status: 400, message: 'Please use a valid role: user, model.' },
    ];
    // A scripted [status:503] is what the test asked for, not a broken rule.
    expect(fake.violations()).toEqual(expected);
    expect(await (await fetch(`${fake.url}/_fake/violations`)).json()).toEqual(expected);
    fake.reset();
    expect(fake.violations()).toEqual([]);
  });
});
