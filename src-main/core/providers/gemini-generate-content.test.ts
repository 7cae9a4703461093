import { describe, expect, it } from 'vitest';
import { errorFromGeminiBody, mapGeminiChunks, mapGeminiFinishReason } from './gemini-generate-content';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import type { StreamPart } from './stream-parts';
import { collect, eventsFrom, readReference } from './testing/recorded-streams';

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
      { type: 'refusal', explanation: null, category: 'PROHIBITED_CONTENT' },
      { type: 'finish', reason: 'content-filter', rawReason: 'PROHIBITED_CONTENT' },
    ]);
  });

  it('names a candidate stopped by a filter as a refusal, with its finishMessage, keeping the text before it', async () => {
    const stopped = { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY', finishMessage: 'The response was blocked for safety.', index: 0 }], modelVersion: 'gemini-3.1-pro-preview' };
    expect(await collect(mapGeminiChunks(eventsFrom([chunk([{ text: 'The first step' }]), stopped])))).toEqual([
      { type: 'response-model', model: 'gemini-3.1-pro-preview' },
      { type: 'text-delta', text: 'The first step' },
      { type: 'refusal', explanation: 'The response was blocked for safety.', category: 'SAFETY' },
      { type: 'finish', reason: 'content-filter', rawReason: 'SAFETY' },
    ]);
    for (const reason of ['RECITATION', 'BLOCKLIST', 'SPII']) {
      expect((await collect(mapGeminiChunks(eventsFrom([chunk([{ text: 'Part' }], reason)])))).slice(-2)).toEqual([
        { type: 'refusal', explanation: null, category: reason },
        { type: 'finish', reason: 'content-filter', rawReason: reason },
      ]);
    }
  });

  it('names any blocked prompt a refusal, with the block message Vertex sends', async () => {
    const blocked = { promptFeedback: { blockReason: 'OTHER', blockReasonMessage: 'The prompt was blocked.' }, modelVersion: 'gemini-3.1-pro-preview' };
    expect(await collect(mapGeminiChunks(eventsFrom([blocked])))).toEqual([
      { type: 'response-model', model: 'gemini-3.1-pro-preview' },
      { type: 'refusal', explanation: 'The prompt was blocked.', category: 'OTHER' },
      { type: 'finish', reason: 'other', rawReason: 'OTHER' },
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
