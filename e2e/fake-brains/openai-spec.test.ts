import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lenientSchema, openAiSpecValidator, paramOf, type OpenAiRequestSchema, type SpecViolation } from './openai-spec';
import { startFakeBrains, type FakeBrains } from './server';
import { postRaw } from './testing';

const validator = openAiSpecValidator();
const check = (schema: OpenAiRequestSchema, body: unknown): SpecViolation | null => validator.check(schema, body);

const chatBody = (extra: Record<string, unknown> = {}, messages: unknown[] = [{ role: 'user', content: 'hi' }]): Record<string, unknown> => ({
  model: 'kimi-k2.6',
  stream: true,
  stream_options: { include_usage: true },
  messages,
  ...extra,
});

const responsesBody = (input: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'gpt-5.5-codex',
  stream: true,
  store: false,
  include: ['reasoning.encrypted_content'],
  input,
  ...extra,
});

const tool = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('CreateChatCompletionRequest', () => {
  it('passes a Kimi tool round trip (Kimi-only fields included)', () => {
    const body = chatBody({ thinking: { type: 'enabled', keep: 'all' }, tools: [tool] }, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, reasoning_content: 'Look it up.', tool_calls: [{ id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'functions.get_weather:0', content: 'Sunny' },
      { role: 'assistant', content: 'It is sunny.' },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
    expect(check('CreateChatCompletionRequest', body)).toBeNull();
  });

  it.each([
    ['a temperature above 2', chatBody({ temperature: 5 }), { message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 5 instead.", param: 'temperature', code: 'decimal_above_max_value' }],
    ['n as a string', chatBody({ n: 'two' }), { message: "Invalid type for 'n': expected an integer, but got a string instead.", param: 'n', code: 'invalid_type' }],
    [
      'a function tool without a name',
      chatBody({ tools: [{ type: 'function', function: { description: 'x' } }] }),
      { message: "Missing required parameter: 'tools[0].function.name'.", param: 'tools[0].function.name', code: 'missing_required_parameter' },
    ],
    ['an unknown tool type', chatBody({ tools: [{ type: 'bogus', function: { name: 'x' } }] }), { message: "Invalid value: 'bogus'. Supported values are: 'function' and 'custom'.", param: 'tools[0].type', code: 'invalid_value' }],
    [
      'an unknown role',
      chatBody({}, [{ role: 'robot', content: 'x' }]),
      { message: "Invalid value: 'robot'. Supported values are: 'developer', 'system', 'user', 'assistant', 'tool', and 'function'.", param: 'messages[0].role', code: 'invalid_value' },
    ],
    [
      'a replayed call without a name',
      chatBody({}, [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] }]),
      { message: "Missing required parameter: 'messages[1].tool_calls[0].function.name'.", param: 'messages[1].tool_calls[0].function.name', code: 'missing_required_parameter' },
    ],
    [
      'include_usage as a string',
      chatBody({ stream_options: { include_usage: 'yes' } }),
      { message: "Invalid type for 'stream_options.include_usage': expected a boolean, but got a string instead.", param: 'stream_options.include_usage', code: 'invalid_type' },
    ],
  ])('names the failing path of %s', (_name, body, expected) => {
    expect(check('CreateChatCompletionRequest', body)).toEqual(expected);
  });
});

describe('CreateResponse', () => {
  it('passes a store:false tool round trip with encrypted reasoning', () => {
    const body = responsesBody(
      [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }], encrypted_content: 'gAAAAA' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
        { role: 'assistant', content: 'It is sunny.' },
        { role: 'user', content: 'Thanks' },
      ],
      { reasoning: { effort: 'medium', summary: 'auto' }, tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: false }] },
    );
    expect(check('CreateResponse', body)).toBeNull();
    expect(check('CreateResponse', responsesBody('Just text'))).toBeNull();
  });

  it.each([
    [
      'arguments as an object',
      responsesBody([{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'call_1', name: 'f', arguments: {} }]),
      { message: "Invalid type for 'input[1].arguments': expected a string, but got an object instead.", param: 'input[1].arguments', code: 'invalid_type' },
    ],
    [
      'a function call without its name',
      responsesBody([{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'call_1', arguments: '{}' }]),
      { message: "Missing required parameter: 'input[1].name'.", param: 'input[1].name', code: 'missing_required_parameter' },
    ],
    [
      'a reasoning item without its id',
      responsesBody([{ role: 'user', content: 'hi' }, { type: 'reasoning', summary: [] }]),
      { message: "Missing required parameter: 'input[1].id'.", param: 'input[1].id', code: 'missing_required_parameter' },
    ],
    [
      'a text part without its text',
      responsesBody([{ role: 'user', content: [{ type: 'input_text' }] }]),
      { message: "Missing required parameter: 'input[0].content[0].text'.", param: 'input[0].content[0].text', code: 'missing_required_parameter' },
    ],
    [
      'an unknown role',
      responsesBody([{ role: 'robot', content: 'hi' }]),
      { message: "Invalid value: 'robot'. Supported values are: 'user', 'assistant', 'system', and 'developer'.", param: 'input[0].role', code: 'invalid_value' },
    ],
    [
      'max_output_tokens below 16',
      responsesBody('hi', { max_output_tokens: 5 }),
      { message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead.", param: 'max_output_tokens', code: 'integer_below_min_value' },
    ],
    ['store as a string', responsesBody('hi', { store: 'yes' }), { message: "Invalid type for 'store': expected a boolean, but got a string instead.", param: 'store', code: 'invalid_type' }],
    [
      'a function tool without a name',
      responsesBody('hi', { tools: [{ type: 'function', description: 'x', parameters: {} }] }),
      { message: "Missing required parameter: 'tools[0].name'.", param: 'tools[0].name', code: 'missing_required_parameter' },
    ],
    [
      'an output for an overlong call id',
      responsesBody([{ role: 'user', content: 'hi' }, { type: 'function_call_output', call_id: 'c'.repeat(70), output: 'x' }]),
      {
        message: "Invalid 'input[1].call_id': string too long. Expected a string with maximum length 64, but got a string with length 70 instead.",
        param: 'input[1].call_id',
        code: 'string_above_max_length',
      },
    ],
  ])('names the failing path of %s', (_name, body, expected) => {
    expect(check('CreateResponse', body)).toEqual(expected);
  });

  it('lists every item type an unknown one could have been', () => {
    const violation = check('CreateResponse', responsesBody([{ type: 'bogus' }]));
    expect(violation?.param).toBe('input[0].type');
    expect(violation?.message).toMatch(/^Invalid value: 'bogus'\. Supported values are: .*'message'.*'function_call'.*'function_call_output'.*'reasoning'.*\.$/);
  });
});

describe('reading the document', () => {
  it('compiles once: later bodies validate in well under a millisecond each', () => {
    const body = responsesBody([{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output: 'x' }]);
    check('CreateResponse', body);
    const started = performance.now();
    for (let round = 0; round < 200; round += 1) check('CreateResponse', body);
    expect(performance.now() - started).toBeLessThan(200);
    expect(openAiSpecValidator()).toBe(validator);
  });

  it('reads nullable as a type admitting null, and oneOf as anyOf', () => {
    expect(lenientSchema({ type: 'string', enum: ['a'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(lenientSchema({ $ref: '#/x', nullable: true })).toEqual({ anyOf: [{ $ref: '#/x' }, { type: 'null' }] });
    expect(lenientSchema({ oneOf: [{ type: 'string' }], properties: { nullable: { type: 'boolean' } } })).toEqual({
      anyOf: [{ type: 'string' }],
      properties: { nullable: { type: 'boolean' } },
    });
  });

  it('writes JSON pointers as OpenAI parameter paths', () => {
    expect(paramOf('/input/1/call_id')).toBe('input[1].call_id');
    expect(paramOf('/messages/0/tool_calls/2/function/name')).toBe('messages[0].tool_calls[2].function.name');
    expect(paramOf('/metadata/a~1b')).toBe('metadata.a/b');
  });
});

describe('over HTTP', () => {
  let fake: FakeBrains;
  beforeAll(async () => {
    fake = await startFakeBrains();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('answers a body that fails the spec with OpenAI’s 400, on both OpenAI wires', async () => {
    const chat = await postRaw(fake.url, '/kimi/v1/chat/completions', chatBody({ temperature: 5 }), { authorization: 'Bearer k' });
    expect(chat.status).toBe(400);
    expect(JSON.parse(chat.text)).toEqual({
      error: { message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 5 instead.", type: 'invalid_request_error', param: 'temperature', code: 'decimal_above_max_value' },
    });
    const responses = await postRaw(fake.url, '/grok/v1/responses', responsesBody('hi', { store: 'yes' }), { authorization: 'Bearer k' });
    expect(responses.status).toBe(400);
    expect(JSON.parse(responses.text)).toEqual({
      error: { message: "Invalid type for 'store': expected a boolean, but got a string instead.", type: 'invalid_request_error', param: 'store', code: 'invalid_type' },
    });
    expect(fake.violations().map((violation) => violation.brain)).toEqual(['kimi', 'grok']);
  });

  it('can be turned off', async () => {
    const unchecked = await startFakeBrains({ openAiSpecPath: null });
    try {
      expect((await postRaw(unchecked.url, '/kimi/v1/chat/completions', chatBody({ temperature: 5 }), { authorization: 'Bearer k' })).status).toBe(200);
    } finally {
      await unchecked.close();
    }
  });
});
