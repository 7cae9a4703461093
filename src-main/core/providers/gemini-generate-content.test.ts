import { describe, expect, it } from 'vitest';
import { errorFromGeminiBody, mapGeminiChunks, mapGeminiFinishReason } from './gemini-generate-content';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import type { StreamPart } from './stream-parts';
import { geminiChunk, randomArguments, randomlyStreamedCallParts, streamedCallParts } from './testing/gemini-streamed-arguments';
import { collect, eventsFrom, readReference } from './testing/recorded-streams';
import { BASE_SEED, createRandom } from './testing/stream-fuzzing';

interface Recording {
  readonly interactions: readonly { readonly response: { readonly bodySegments: readonly unknown[] } }[];
}

/** Each recorded interaction's streamed chunks (one `data:` line each), in order. */
function recordedChunks(file: string): unknown[][] {
  const recording = JSON.parse(readReference('recorded-streams', 'gemini', file)) as Recording;
  return recording.interactions.map((interaction) => [...interaction.response.bodySegments]);
}

describe('mapGeminiChunks on recorded streams', () => {
  it('maps function calls without signatures (Gemini 2.0, Google AI)', async () => {
    const [first] = recordedChunks('Chats_Tests_chats_function_calling_Google_AI_with_function_calling_stream.json');
    expect(await collect(mapGeminiChunks(eventsFrom(first ?? [])))).toEqual([
      { type: 'response-model', model: 'gemini-2.0-flash' },
      { type: 'tool-call', providerCallId: null, name: 'customDivide', input: { denominator: 2, numerator: 100 } },
      { type: 'usage', usage: { inputTokens: 21, outputTokens: 6 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'STOP' },
    ]);
  });

  it('keeps thought signatures on calls and on text parts (Gemini 2.5, Google AI)', async () => {
    const interactions = recordedChunks('AFC_Streaming_Tests_chat_stream_AFC_enabled_AFC_max_calls_exceeded_Google_AI_can_continue_after_max_calls_exceeded.json');
    for (const chunks of interactions) {
      const parts = await collect(mapGeminiChunks(eventsFrom(chunks)));
      expect(parts[0]).toEqual({ type: 'response-model', model: 'gemini-2.5-flash' });
      expect(parts.at(-1)).toMatchObject({ type: 'finish', rawReason: 'STOP' });
      const signed = parts.filter((part): part is Extract<StreamPart, { type: 'tool-call' | 'reasoning-opaque' }> => part.type === 'tool-call' || part.type === 'reasoning-opaque');
      expect(signed.length).toBeGreaterThan(0);
      for (const part of signed) {
        expect(part.opaque).toEqual({ thoughtSignature: expect.stringMatching(/^[A-Za-z0-9+/=]{40,}$/) });
      }
    }
    const lastInteraction = interactions.at(-1) ?? [];
    const finalParts = await collect(mapGeminiChunks(eventsFrom(lastInteraction)));
    expect(finalParts.filter((part) => part.type === 'text-delta')).toEqual([{ type: 'text-delta', text: 'The result is 2.' }]);
  });

  it('assembles streamed partialArgs (Vertex, Gemini 3)', async () => {
    const [callTurn] = recordedChunks('Chats_Tests_chats_function_calling_Vertex_AI_with_streaming_function_calling_arguments_stream.json');
    const parts = await collect(mapGeminiChunks(eventsFrom(callTurn ?? [])));
    expect(parts[1]).toMatchObject({ type: 'tool-call', providerCallId: null, name: 'customDivide', input: { denominator: 2, numerator: 100 } });
    expect(parts.slice(2)).toEqual([
      { type: 'usage', usage: { inputTokens: 21, outputTokens: 13, reasoningTokens: 44 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'STOP' },
    ]);
  });
});

describe('mapGeminiChunks on synthetic streams', () => {
  const chunk = (parts: unknown[], finishReason?: string): unknown => ({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }],
    modelVersion: 'gemini-3.1-pro-preview',
  });

  it('maps thought parts to reasoning and text parts to text', async () => {
    const chunks = [chunk([{ text: 'Thinking about it', thought: true }]), chunk([{ text: 'Answer' }], 'STOP')];
    expect(await collect(mapGeminiChunks(eventsFrom(chunks)))).toEqual([
      { type: 'response-model', model: 'gemini-3.1-pro-preview' },
      { type: 'reasoning-delta', text: 'Thinking about it' },
      { type: 'text-delta', text: 'Answer' },
      { type: 'finish', reason: 'stop', rawReason: 'STOP' },
    ]);
  });

  it('reports a streamed error chunk, a missing finishReason and a blocked prompt', async () => {
    const streamed = [chunk([{ text: 'Part' }]), { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }];
    expect((await collect(mapGeminiChunks(eventsFrom(streamed)))).at(-1)).toEqual({
      type: 'error',
      error: { code: 'overloaded', message: 'The provider is overloaded during the reply: The model is overloaded. Please try again later.', retryable: true },
    });
    expect((await collect(mapGeminiChunks(eventsFrom([chunk([{ text: 'Half' }])])))).at(-1)).toEqual({
      type: 'error',
      error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true },
    });
    expect(await collect(mapGeminiChunks(eventsFrom([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: 'gemini-3.1-pro-preview' }])))).toEqual([
      { type: 'response-model', model: 'gemini-3.1-pro-preview' },
      { type: 'finish', reason: 'content-filter', rawReason: 'PROHIBITED_CONTENT' },
    ]);
  });

  it('refuses a streamed argument path into __proto__, ending the reply, and leaves Object.prototype alone', async () => {
    const call = (jsonPath: string): unknown =>
      chunk([{ functionCall: { name: 'lookup', partialArgs: [{ jsonPath, stringValue: 'yes' }], willContinue: false } }], 'STOP');
    for (const [jsonPath, name] of [['$.__proto__.polluted', '__proto__'], ['$.constructor.prototype.polluted', 'constructor'], ['$.a.__proto__', '__proto__']] as const) {
      const message = `The provider sent a reply that could not be read: the arguments of tool call "lookup" could not be read: the jsonPath "${jsonPath}" uses the reserved name "${name}"`;
      expect(await collect(mapGeminiChunks(eventsFrom([call(jsonPath)])))).toEqual([
        { type: 'response-model', model: 'gemini-3.1-pro-preview' },
        { type: 'error', error: { code: 'malformed-stream', message, retryable: true } },
      ]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a __proto__ key in whole args as a plain key', async () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "city": "Paris"}') as Record<string, unknown>;
    const parts = await collect(mapGeminiChunks(eventsFrom([chunk([{ functionCall: { name: 'weather', args } }], 'STOP')])));
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call?.type === 'tool-call' && Object.keys(call.input)).toEqual(['__proto__', 'city']);
    expect(call?.type === 'tool-call' && Object.getPrototypeOf(call.input)).toBe(Object.prototype);
  });

  it('classifies Google error bodies', () => {
    expect(errorFromGeminiBody({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }, 429, '').code).toBe('rate-limited');
    expect(errorFromGeminiBody({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }, 400, '').code).toBe('provider-error');
    expect(errorFromGeminiBody({ error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } }, 403, '').code).toBe('auth');
    expect(mapGeminiFinishReason('MAX_TOKENS', false)).toBe('length');
    expect(mapGeminiFinishReason('SAFETY', false)).toBe('content-filter');
    expect(mapGeminiFinishReason('MALFORMED_FUNCTION_CALL', false)).toBe('error');
  });
});

describe('mapGeminiChunks on streamed function-call arguments (Vertex, streamFunctionCallArguments)', () => {
  const MODEL = { type: 'response-model', model: 'gemini-3.1-pro-preview' } as const;
  const USAGE = { promptTokenCount: 31, candidatesTokenCount: 684, thoughtsTokenCount: 1026 };
  const FINISH = [
    { type: 'usage', usage: { inputTokens: 31, outputTokens: 684, reasoningTokens: 1026 } },
    { type: 'finish', reason: 'tool-calls', rawReason: 'STOP' },
  ] as const;
  const unreadable = (detail: string): StreamPart => ({
    type: 'error',
    error: { code: 'malformed-stream', message: `The provider sent a reply that could not be read: the arguments of ${detail}`, retryable: true },
  });
  /** Each part in a chunk of its own, the last chunk closing the reply, as the recorded Vertex streams send them. */
  const oneChunkPerPart = (parts: readonly unknown[]): unknown[] =>
    parts.map((part, index) => (index === parts.length - 1 ? geminiChunk([part], 'STOP', USAGE) : geminiChunk([part])));

  it('assembles nested objects, arrays of objects and strings split across chunks; the name comes from the first part', async () => {
    const chunks = oneChunkPerPart([
      { functionCall: { name: 'cookRecipe', willContinue: true }, thoughtSignature: 'c2lnbmVkIHJlY2lwZQ==' },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[0].amount', stringValue: '16 oz', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[0].amount', stringValue: '' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[0].name', stringValue: 'Lasagna noodles', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[0].name', stringValue: '' }], willContinue: true } },
      { functionCall: { willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[1].amount', stringValue: '1 lb', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[1].amount', stringValue: '' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[1].name', stringValue: 'Ground beef', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.ingredients[1].name', stringValue: '' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.name', stringValue: 'Lasagna', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.name', stringValue: '' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.servings', numberValue: 8 }, { jsonPath: '$.recipe.vegetarian', boolValue: false }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.wine', nullValue: 'NULL_VALUE' }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.steps[0]', stringValue: 'In a 9x13 baking dish, spread a', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.steps[0]', stringValue: ' thin layer of meat sauce.', willContinue: true }], willContinue: true } },
      { functionCall: { partialArgs: [{ jsonPath: '$.recipe.steps[0]', stringValue: '' }], willContinue: true } },
      { functionCall: {} },
    ]);
    expect(await collect(mapGeminiChunks(eventsFrom(chunks)))).toEqual([
      MODEL,
      {
        type: 'tool-call',
        providerCallId: null,
        name: 'cookRecipe',
        input: {
          recipe: {
            ingredients: [
              { amount: '16 oz', name: 'Lasagna noodles' },
              { amount: '1 lb', name: 'Ground beef' },
            ],
            name: 'Lasagna',
            servings: 8,
            vegetarian: false,
            wine: null,
            steps: ['In a 9x13 baking dish, spread a thin layer of meat sauce.'],
          },
        },
        opaque: { thoughtSignature: 'c2lnbmVkIHJlY2lwZQ==' },
      },
      ...FINISH,
    ]);
  });

  it('reads two streamed calls in one reply, each closed by an empty functionCall', async () => {
    const chunks = oneChunkPerPart([
      ...streamedCallParts({ name: 'getWeather', args: { location: 'Boston' }, signature: 'Zmlyc3Q=' }, (text) => [text.slice(0, 3), text.slice(3)]),
      ...streamedCallParts({ name: 'getWeather', args: { location: 'San Francisco', days: [{ day: 1, hourly: true }, { day: 2, hourly: false }] } }),
    ]);
    expect(await collect(mapGeminiChunks(eventsFrom(chunks)))).toEqual([
      MODEL,
      { type: 'tool-call', providerCallId: null, name: 'getWeather', input: { location: 'Boston' }, opaque: { thoughtSignature: 'Zmlyc3Q=' } },
      {
        type: 'tool-call',
        providerCallId: null,
        name: 'getWeather',
        input: { location: 'San Francisco', days: [{ day: 1, hourly: true }, { day: 2, hourly: false }] },
      },
      ...FINISH,
    ]);
  });

  it('ends a call at a partialArgs part without willContinue, and one still open when the reply finishes', async () => {
    const closedByLastArgument = [
      geminiChunk([{ functionCall: { name: 'writeItems', willContinue: true } }]),
      geminiChunk([{ functionCall: { partialArgs: [{ jsonPath: '$.operations[0].action', stringValue: 'add', willContinue: true }], willContinue: true } }]),
      geminiChunk([{ functionCall: { partialArgs: [{ jsonPath: '$.operations[0].action', stringValue: '' }], willContinue: true } }]),
      geminiChunk([{ functionCall: { partialArgs: [{ jsonPath: '$.operations[0].price', numberValue: 0.3 }] } }]),
      geminiChunk([{ text: '' }], 'STOP', USAGE),
    ];
    expect(await collect(mapGeminiChunks(eventsFrom(closedByLastArgument)))).toEqual([
      MODEL,
      { type: 'tool-call', providerCallId: null, name: 'writeItems', input: { operations: [{ action: 'add', price: 0.3 }] } },
      ...FINISH,
    ]);
    const openAtFinish = [
      geminiChunk([{ functionCall: { name: 'writeItems', willContinue: true } }]),
      geminiChunk([{ functionCall: { partialArgs: [{ jsonPath: '$.operations[0].price', numberValue: 0.3 }], willContinue: true } }], 'STOP', USAGE),
    ];
    expect(await collect(mapGeminiChunks(eventsFrom(openAtFinish)))).toEqual([
      MODEL,
      { type: 'tool-call', providerCallId: null, name: 'writeItems', input: { operations: [{ price: 0.3 }] } },
      ...FINISH,
    ]);
  });

  it('ends the reply with an error naming the tool when the parts do not make a call', async () => {
    const start = { functionCall: { name: 'cookRecipe', willContinue: true } };
    const argument = (partialArg: Record<string, unknown>, willContinue = true): unknown => ({ functionCall: { partialArgs: [partialArg], willContinue } });
    const cases: readonly (readonly [readonly unknown[], StreamPart])[] = [
      [[start, argument({ jsonPath: '$.recipe.ingredients[', stringValue: 'x' }), { functionCall: {} }], unreadable('tool call "cookRecipe" could not be read: the jsonPath "$.recipe.ingredients[" is not an RFC 9535 path to one place')],
      [
        [start, argument({ jsonPath: '$.recipe.name', stringValue: 'Lasagna' }), argument({ jsonPath: '$.recipe.name.first', stringValue: 'x' })],
        unreadable('tool call "cookRecipe" could not be read: $.recipe.name.first goes inside $.recipe.name, which an earlier part set to a string'),
      ],
      [
        [start, argument({ jsonPath: '$.recipe.steps[0]', stringValue: 'Boil' }), argument({ jsonPath: '$.recipe.steps.first', stringValue: 'x' })],
        unreadable('tool call "cookRecipe" could not be read: $.recipe.steps.first treats $.recipe.steps as an object, but it is an array'),
      ],
      [[start, argument({ jsonPath: '$.recipe.name', stringValue: 'Lasag', willContinue: true }), { functionCall: {} }], unreadable('tool call "cookRecipe" could not be read: the call ended while the string at $.recipe.name was still coming')],
      [[start, argument({ jsonPath: '$.recipe.name', stringValue: 'Lasag', willContinue: true })], unreadable('tool call "cookRecipe" could not be read: the call ended while the string at $.recipe.name was still coming')],
      [[start, { functionCall: { name: 'getWeather', willContinue: true } }], unreadable('tool call "cookRecipe" could not be read: a later part of the call names "getWeather"')],
      [[{ functionCall: { partialArgs: [{ jsonPath: '$.a', numberValue: 1 }] } }], unreadable('a tool call could not be read: the call names no function')],
      [[start, { functionCall: { partialArgs: { jsonPath: '$.a', numberValue: 1 }, willContinue: true } }], unreadable('tool call "cookRecipe" could not be read: its partialArgs are not a list')],
    ];
    for (const [parts, error] of cases) {
      expect(await collect(mapGeminiChunks(eventsFrom(oneChunkPerPart(parts)))), JSON.stringify(parts)).toEqual([MODEL, error]);
    }
  });

  it('rebuilds arguments of any shape however Vertex cuts them into pieces, parts and chunks (seeded)', async () => {
    const cases = 300;
    for (let caseIndex = 0; caseIndex < cases; caseIndex += 1) {
      const seed = BASE_SEED + caseIndex;
      const random = createRandom(seed);
      const calls = Array.from({ length: 1 + random.integer(3) }, (_, index) => ({ name: `tool_${index}`, args: randomArguments(random), signature: `c2ln${index}` }));
      const parts = calls.flatMap((call) => randomlyStreamedCallParts(call, random));
      const chunks: unknown[] = [];
      for (let start = 0; start < parts.length; ) {
        const count = 1 + random.integer(3);
        const last = start + count >= parts.length;
        chunks.push(geminiChunk(parts.slice(start, start + count), last ? 'STOP' : undefined, last ? USAGE : undefined));
        start += count;
      }
      expect(await collect(mapGeminiChunks(eventsFrom(chunks))), `STREAM_FUZZ_SEED=${seed} (case ${caseIndex}): ${JSON.stringify(calls)}`).toEqual([
        MODEL,
        ...calls.map((call) => ({ type: 'tool-call', providerCallId: null, name: call.name, input: call.args, opaque: { thoughtSignature: call.signature } })),
        ...FINISH,
      ]);
    }
  });
});
