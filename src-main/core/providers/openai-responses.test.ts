import { describe, expect, it } from 'vitest';
import { mapOpenAiResponsesEvents, mapResponseFinish } from './openai-responses';
import { CLOSED_EARLY_MESSAGE } from './provider-errors';
import { parseServerSentEvents } from './sse';
import { collect, eventsFrom, readReference } from './testing/recorded-streams';

/** The raw SSE texts stored in openai-node's Jest snapshot, keyed by snapshot name. */
function recordedResponseStreams(): Map<string, unknown[]> {
  const snapshot = readReference('recorded-streams', 'openai', 'ResponseStream.test.ts.snap');
  const streams = new Map<string, unknown[]>();
  for (const match of snapshot.matchAll(/exports\[`([^`]+)`\] = `\n"([\s\S]*?)"\n`;/g)) {
    const sseText = (match[2] ?? '').replace(/\\(["\\])/g, '$1');
    // The SDK stops at `[DONE]`; it is not an event.
    const events = parseServerSentEvents(sseText)
      .filter((event) => event.data !== '[DONE]')
      .map((event) => JSON.parse(event.data) as unknown);
    streams.set(match[1] ?? '', events);
  }
  return streams;
}

const created = (model: string): unknown => ({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', model, status: 'in_progress', output: [] } });
const completed = (output: unknown[], extra: Record<string, unknown> = {}): unknown => ({
  type: 'response.completed',
  sequence_number: 9,
  response: { id: 'resp_1', object: 'response', model: 'gpt-5.5-codex', status: 'completed', output, usage: { input_tokens: 30, output_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 8 } }, ...extra },
});

describe('mapOpenAiResponsesEvents on recorded streams', () => {
  const streams = recordedResponseStreams();

  it('maps the plain text stream', async () => {
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(streams.get('.stream() standard text works 1') ?? [])))).toEqual([
      { type: 'response-model', model: 'gpt-4o-2024-08-06' },
      { type: 'text-delta', text: 'Hello ' },
      { type: 'text-delta', text: 'world' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, reasoningTokens: 0 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ]);
  });

  it('maps reasoning text and keeps the reasoning item from the final response', async () => {
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(streams.get('.stream() reasoning works 1') ?? [])))).toEqual([
      { type: 'response-model', model: 'o3' },
      { type: 'reasoning-delta', text: 'Chain: Step 1. ' },
      { type: 'reasoning-delta', text: 'Step 2.' },
      { type: 'text-delta', text: 'The answer is ' },
      { type: 'text-delta', text: '42' },
      {
        type: 'reasoning-opaque',
        opaque: { id: 'r1', type: 'reasoning', summary: [], status: 'completed', content: [{ type: 'reasoning_text', text: 'Chain: Step 1. Step 2.' }] },
        // The final response lists the reasoning item right before the message.
        place: { before: 'words' },
      },
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 6, cacheReadTokens: 0, reasoningTokens: 2 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ]);
  });
});

describe('mapOpenAiResponsesEvents on synthetic streams', () => {
  const reasoningItem = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'gAAAA-opaque' };
  const callItem = { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_abc', name: 'read_file', arguments: '{"path":"a.txt"}' };

  it('maps summaries, the encrypted reasoning item and a function call once each', async () => {
    const events = [
      created('gpt-5.5-codex'),
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', delta: 'Plan.' },
      { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"path":' },
      { type: 'response.output_item.done', output_index: 1, item: callItem },
      completed([reasoningItem, callItem]),
    ];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'gpt-5.5-codex' },
      { type: 'reasoning-delta', text: 'Plan.' },
      { type: 'reasoning-opaque', opaque: reasoningItem, place: { before: 'call', providerCallId: 'call_abc' } },
      { type: 'tool-call', providerCallId: 'call_abc', name: 'read_file', input: { path: 'a.txt' } },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 0, reasoningTokens: 8 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'completed' },
    ]);
  });

  /**
   * Reasoning between calls, as a reasoning model streams a turn with two calls: each item as `output_item.added` and
   * `.done` with its `output_index`, then the final response listing them all again.
   */
  function interleavedStream(itemId: (id: string) => string) {
    const reasoning = (id: string, text: string) => ({ id: itemId(id), type: 'reasoning', summary: [{ type: 'summary_text', text }], encrypted_content: `enc-${id}` });
    const call = (id: string, callId: string, path: string) => ({ id: itemId(id), type: 'function_call', status: 'completed', call_id: callId, name: 'read_file', arguments: JSON.stringify({ path }) });
    const message = { id: itemId('msg_1'), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Both read.', annotations: [] }] };
    const output = [reasoning('rs_1', 'First a.'), call('fc_1', 'call_a', 'a.txt'), reasoning('rs_2', 'Then b.'), call('fc_2', 'call_b', 'b.txt'), reasoning('rs_3', 'Answer.'), message];
    const started = (item: Record<string, unknown>): Record<string, unknown> =>
      item.type === 'reasoning' ? { id: item.id, type: 'reasoning', summary: [] } : item.type === 'function_call' ? { ...item, status: 'in_progress', arguments: '' } : { ...item, status: 'in_progress', content: [] };
    const events = [
      created('gpt-5.5-codex'),
      ...output.flatMap((item, outputIndex) => [
        { type: 'response.output_item.added', output_index: outputIndex, item: started(item) },
        ...(item.type === 'message' ? [{ type: 'response.output_text.delta', item_id: item.id, output_index: outputIndex, content_index: 0, delta: 'Both read.' }] : []),
        { type: 'response.output_item.done', output_index: outputIndex, item },
      ]),
      completed(output),
    ];
    return { events, output };
  }

  it('places each reasoning item before the call or message that followed it', async () => {
    const { events, output } = interleavedStream((id) => id);
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'gpt-5.5-codex' },
      { type: 'reasoning-opaque', opaque: output[0], place: { before: 'call', providerCallId: 'call_a' } },
      { type: 'tool-call', providerCallId: 'call_a', name: 'read_file', input: { path: 'a.txt' } },
      { type: 'reasoning-opaque', opaque: output[2], place: { before: 'call', providerCallId: 'call_b' } },
      { type: 'tool-call', providerCallId: 'call_b', name: 'read_file', input: { path: 'b.txt' } },
      { type: 'reasoning-opaque', opaque: output[4], place: { before: 'words' } },
      { type: 'text-delta', text: 'Both read.' },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 0, reasoningTokens: 8 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'completed' },
    ]);
  });

  it('takes items whose id is empty as items without one: none is lost, none doubled', async () => {
    // Some Responses-compatible servers send `id: ""`; the items stay apart by call_id and position.
    const { events, output } = interleavedStream(() => '');
    const parts = await collect(mapOpenAiResponsesEvents(eventsFrom(events)));
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      { type: 'tool-call', providerCallId: 'call_a', name: 'read_file', input: { path: 'a.txt' } },
      { type: 'tool-call', providerCallId: 'call_b', name: 'read_file', input: { path: 'b.txt' } },
    ]);
    expect(parts.filter((part) => part.type === 'reasoning-opaque')).toEqual([
      { type: 'reasoning-opaque', opaque: output[0], place: { before: 'call', providerCallId: 'call_a' } },
      { type: 'reasoning-opaque', opaque: output[2], place: { before: 'call', providerCallId: 'call_b' } },
      { type: 'reasoning-opaque', opaque: output[4], place: { before: 'words' } },
    ]);
  });

  it('places reasoning before a call whose call_id comes only when the call is done', async () => {
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'enc' };
    const call = { id: 'fc_1', type: 'function_call', call_id: 'call_late', name: 'read_file', arguments: '{"path":"a.txt"}' };
    const events = [
      created('gpt-5.5'),
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.output_item.added', output_index: 1, item: { id: 'fc_1', type: 'function_call', name: 'read_file', arguments: '' } },
      { type: 'response.output_item.done', output_index: 1, item: call },
      completed([reasoning, call]),
    ];
    expect((await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).slice(1, 3)).toEqual([
      { type: 'reasoning-opaque', opaque: reasoning, place: { before: 'call', providerCallId: 'call_late' } },
      { type: 'tool-call', providerCallId: 'call_late', name: 'read_file', input: { path: 'a.txt' } },
    ]);
  });

  it('keeps a reasoning item nothing followed, placed nowhere', async () => {
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'enc' };
    const events = [
      created('gpt-5.5'),
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.incomplete', response: { model: 'gpt-5.5', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [reasoning] } },
    ];
    expect((await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).slice(1)).toEqual([
      { type: 'reasoning-opaque', opaque: reasoning, place: { before: 'other' } },
      { type: 'finish', reason: 'length', rawReason: 'max_output_tokens' },
    ]);
  });

  it('finishes an incomplete response with its reason', async () => {
    const events = [created('gpt-5.5'), { type: 'response.incomplete', response: { model: 'gpt-5.5', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] } }];
    expect((await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' });
  });

  it('reports response.failed and error events as error parts', async () => {
    const failed = [created('gpt-5.5'), { type: 'response.failed', response: { model: 'gpt-5.5', status: 'failed', error: { code: 'server_error', message: 'Something broke' } } }];
    expect((await collect(mapOpenAiResponsesEvents(eventsFrom(failed)))).at(-1)).toEqual({
      type: 'error',
      error: { code: 'provider-error', message: 'The provider answered with an error during the reply: Something broke', retryable: true },
    });
    const limited = [{ type: 'error', code: 'rate_limit_exceeded', message: 'Too many requests', param: null, sequence_number: 1 }];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(limited)))).toEqual([
      { type: 'error', error: { code: 'rate-limited', message: 'The provider is rate-limiting requests during the reply: Too many requests', retryable: true } },
    ]);
  });

  it('ends the reply at a call whose arguments do not read: one error, no finish after it', async () => {
    const badCall = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search', arguments: '{"q": ' };
    const events = [created('gpt-5.5'), { type: 'response.output_item.done', output_index: 0, item: badCall }, completed([badCall])];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'gpt-5.5' },
      { type: 'error', error: { code: 'malformed-stream', message: 'The provider sent a reply that could not be read: the arguments of tool call "search" are not a JSON object: {"q": ', retryable: true } },
    ]);
  });

  it('names a refusal content part by its text, streamed or only in the output message, keeping the text before it', async () => {
    const refusal = "I'm sorry, but I can't assist with that request.";
    const message = {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'Sure, ', annotations: [] },
        { type: 'refusal', refusal },
      ],
    };
    const at = { item_id: 'msg_1', output_index: 0 };
    const streamed = [
      created('gpt-5.5'),
      { type: 'response.output_text.delta', ...at, content_index: 0, delta: 'Sure, ' },
      { type: 'response.refusal.delta', ...at, content_index: 1, delta: "I'm sorry, " },
      { type: 'response.refusal.delta', ...at, content_index: 1, delta: "but I can't assist with that request." },
      { type: 'response.refusal.done', ...at, content_index: 1, refusal },
      { type: 'response.output_item.done', output_index: 0, item: message },
      completed([message]),
    ];
    const expected = [
      { type: 'response-model', model: 'gpt-5.5' },
      { type: 'text-delta', text: 'Sure, ' },
      { type: 'refusal', explanation: refusal, category: null },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 0, reasoningTokens: 8 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(streamed)))).toEqual(expected);
    // A server that sends only the final response still names the refusal.
    const onlyFinal = [created('gpt-5.5'), { type: 'response.output_text.delta', ...at, content_index: 0, delta: 'Sure, ' }, completed([message])];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(onlyFinal)))).toEqual(expected);
  });

  it('reports a stream without response.completed as a closed connection', async () => {
    const events = [created('gpt-5.5'), { type: 'response.output_text.delta', delta: 'Half' }];
    expect(await collect(mapOpenAiResponsesEvents(eventsFrom(events)))).toEqual([
      { type: 'response-model', model: 'gpt-5.5' },
      { type: 'text-delta', text: 'Half' },
      { type: 'error', error: { code: 'connection', message: CLOSED_EARLY_MESSAGE, retryable: true } },
    ]);
  });

  it('normalises finish reasons', () => {
    expect([mapResponseFinish('completed', false), mapResponseFinish('completed', true), mapResponseFinish('content_filter', false), mapResponseFinish(null, false)]).toEqual([
      'stop',
      'tool-calls',
      'content-filter',
      'other',
    ]);
  });
});
