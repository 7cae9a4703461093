/**
 * The Gemini adapter on calls whose arguments Vertex streams in parts (`streamFunctionCallArguments`): the exact
 * tool-call parts for nested objects, arrays of objects, strings split across chunks and several calls in one reply,
 * the error that names the tool when parts do not make a call, and the same over HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapGeminiChunks, streamGeminiGenerateContent } from './gemini-generate-content';
import type { StreamPart } from './stream-parts';
import { geminiChunk, randomArguments, randomlyStreamedCallParts, streamedCallParts } from './testing/gemini-streamed-arguments';
import { collect, eventsFrom } from './testing/recorded-streams';
import { BASE_SEED, bytesOf, createRandom, randomCuts, splitAt } from './testing/stream-fuzzing';

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

describe('streamGeminiGenerateContent over HTTP with streamed arguments', () => {
  let server: Server;
  let origin = '';
  let servedChunks: readonly Uint8Array[] = [];
  const requestedPaths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requestedPaths.push(request.url ?? '');
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        void (async () => {
          // Each piece in its own write, a tick apart, so the client reads the frames cut where the pieces are.
          for (const piece of servedChunks) {
            await new Promise<void>((resolve) => response.write(piece, () => resolve()));
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
          response.end();
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads nested streamed arguments cut anywhere in the bytes (seeded)', async () => {
    const random = createRandom(BASE_SEED);
    const args = { recipe: { name: 'Lasagna 🍝', ingredients: [{ name: 'Noodles', grams: 250 }, { name: 'Ricotta', optional: true, brand: null }], steps: ['Boil "al dente".', 'Layer\neverything.'] } };
    const parts = streamedCallParts({ name: 'cookRecipe', args, signature: 'c2lnbmVkIHJlY2lwZQ==' }, (text) => text.split(/(?<= )/));
    // Gemini frames its SSE with CRLF line ends.
    const body = parts.map((part, index) => `data: ${JSON.stringify(geminiChunk([part], index === parts.length - 1 ? 'STOP' : undefined))}\r\n\r\n`).join('');
    const bytes = bytesOf(body);
    servedChunks = splitAt(bytes, randomCuts(random, bytes.length));
    const streamed = await collect(
      streamGeminiGenerateContent({
        wire: 'gemini-generate-content',
        baseUrl: origin,
        apiKey: 'test-key',
        model: 'gemini-3.1-pro-preview',
        body: { contents: [{ role: 'user', parts: [{ text: 'Lasagna?' }] }], toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } } },
        signal: new AbortController().signal,
        label: 'Gemini',
      }),
    );
    expect(requestedPaths.at(-1)).toBe('/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse');
    expect(streamed, `STREAM_FUZZ_SEED=${BASE_SEED}`).toEqual([
      { type: 'response-model', model: 'gemini-3.1-pro-preview' },
      { type: 'tool-call', providerCallId: null, name: 'cookRecipe', input: args, opaque: { thoughtSignature: 'c2lnbmVkIHJlY2lwZQ==' } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'STOP' },
    ]);
  });
});
