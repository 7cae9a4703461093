/**
 * Support for the stream fuzzer: a seeded PRNG, the recorded real streams as the bytes each wire sends, byte-level and
 * frame-level mutations of them, and the invariants every run must keep. Test support: only tests import `testing/`.
 */
import { geminiChunk, streamedCallParts } from './gemini-streamed-arguments';
import { readReference } from './recorded-streams';
import { chatCompletionsWire } from '../../../../e2e/fake-brains/chat-completions';
import type { FakeWire } from '../../../../e2e/fake-brains/fake-wire';
import { openAiResponsesWire } from '../../../../e2e/fake-brains/openai-responses';
import { planReply } from '../../../../e2e/fake-brains/script';
import type { BrainId, WireId } from '../../../../src-shared/brains';
import { streamProvider } from '../index';
import type { ProviderCall, StreamPart } from '../stream-parts';

export const BASE_SEED = Number(process.env.STREAM_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Failures listed in full; the rest are counted. */
const FAILURES_SHOWN = 8;

/** mulberry32: small, fast and good enough to spread mutations; the same seed gives the same run. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    integer: (below) => Math.floor(next() * below),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
  };
}

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** In [0, below). */
  integer(below: number): number;
  pick<T>(items: readonly T[]): T;
}

/** A recorded stream as the wire sends it, cut into its frames (SSE messages or NDJSON lines), terminators included. */
export interface RecordedStream {
  readonly name: string;
  readonly frames: readonly string[];
}

export type Framing = 'sse' | 'ndjson';

export function framesOf(text: string, framing: Framing): string[] {
  const pattern = framing === 'ndjson' ? /(?<=\n)/ : /(?<=\r\n\r\n|\n\n)/;
  return text.split(pattern).filter((frame) => frame !== '');
}

/** The raw SSE texts in a Jest snapshot of openai-node (`exports[`name`] = `"…"`;`), keyed by entry name. */
export function snapshotStreams(...segments: string[]): Map<string, string> {
  const snapshot = readReference(...segments);
  const streams = new Map<string, string>();
  for (const match of snapshot.matchAll(/exports\[`([^`]+)`\] = `\n"([\s\S]*?)"\n`;/g)) {
    streams.set(match[1] ?? '', (match[2] ?? '').replace(/\\(["\\])/g, '$1'));
  }
  return streams;
}

/** One recorded Gemini interaction as its SSE bytes: one `data:` line per response chunk, as `alt=sse` sends them. */
export function geminiStream(file: string, interaction: number, lineEnd = '\n'): string {
  const recording = JSON.parse(readReference('recorded-streams', 'gemini', file)) as {
    readonly interactions: readonly { readonly response: { readonly bodySegments: readonly unknown[] } }[];
  };
  const segments = recording.interactions[interaction]?.response.bodySegments ?? [];
  return segments.map((segment) => `data: ${JSON.stringify(segment)}${lineEnd}${lineEnd}`).join('');
}

/** What a fuzz case serves: an HTTP answer whose body arrives in the given chunks, then ends or fails. */
export interface ServedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly chunks: readonly Uint8Array[];
  /** Thrown by the body after the chunks: a connection reset (undici reports `TypeError: terminated`). */
  readonly failure?: Error;
}

const encoder = new TextEncoder();

export function bytesOf(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A body that hands out one chunk per read, as a socket does, then closes or fails. */
export function bodyFrom(answer: ServedAnswer): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = answer.chunks[index];
        index += 1;
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (answer.failure !== undefined) controller.error(answer.failure);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Splits bytes at the given offsets (sorted, inside the range). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets].sort((left, right) => left - right)) {
    if (offset <= start || offset >= bytes.length) continue;
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

export function randomCuts(random: Random, length: number): number[] {
  const count = random.pick([1, 2, 3, 5, 8, 20, 60]);
  return Array.from({ length: count }, () => 1 + random.integer(Math.max(1, length - 1)));
}

/** Why a run broke the rules, or null: exactly one terminal part (`finish` or `error`), and it comes last. */
export function terminalViolation(parts: readonly StreamPart[]): string | null {
  const terminals = parts.filter((part) => part.type === 'finish' || part.type === 'error').length;
  if (terminals !== 1) return `${terminals} terminal parts`;
  const last = parts.at(-1);
  if (last?.type !== 'finish' && last?.type !== 'error') return 'parts after the terminal part';
  return null;
}

export function isPrefix(parts: readonly StreamPart[], of: readonly StreamPart[]): boolean {
  if (parts.length > of.length) return false;
  return parts.every((part, index) => JSON.stringify(part) === JSON.stringify(of[index]));
}

/** What a wire's stream looks like to the fuzzer: how to frame, where its reply ends, and its in-stream events. */
export interface FuzzWire {
  readonly wire: WireId;
  readonly framing: Framing;
  readonly contentType: string;
  readonly model: string;
  readonly body: Record<string, unknown>;
  /** Base URL in the shape the wire's client expects. */
  readonly basePath: string;
  readonly streams: readonly RecordedStream[];
  /** Whether the mapper ends the reply at this frame (so anything after it is never read). */
  readonly endsReply: (frame: string) => boolean;
  /** An error the provider sends after HTTP 200, and the code the adapter must report for it. */
  readonly errorFrame: string;
  readonly errorCode: string;
  /** An event of a type the wire does not know (yet): it must change nothing. */
  readonly unknownFrame: string;
  /** The wire's error bodies for an HTTP status. */
  readonly errorBody: (status: number) => unknown;
}

const sseFrame = (data: unknown, event?: string): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

const chatSnapshots = snapshotStreams('recorded-streams', 'chat-completions', 'ChatCompletionStream.test.ts.snap');
const responsesSnapshots = snapshotStreams('recorded-streams', 'openai', 'ResponseStream.test.ts.snap');
const GEMINI_AFC = 'AFC_Streaming_Tests_chat_stream_AFC_enabled_AFC_max_calls_exceeded_Google_AI_can_continue_after_max_calls_exceeded.json';
const GEMINI_VERTEX = 'Chats_Tests_chats_function_calling_Vertex_AI_with_streaming_function_calling_arguments_stream.json';

/**
 * The recorded OpenAI-shaped streams hold no tool calls: the fake brains' scripted stream of two parallel calls, with
 * arguments streamed in pieces, stands in for them (synthetic, built to each wire's documented event shapes).
 */
function scriptedToolCallStream(wire: FakeWire, brain: BrainId, body: Record<string, unknown>): string {
  const plan = planReply({
    label: 'Fuzz',
    userText: 'Weather? [tool:get_weather {"city":"Paris","days":[1,2]}][tool:current_time]',
    requestedModel: String(body.model),
    declaredTools: ['get_weather', 'current_time'],
  });
  const context = { brain, plan, body, route: { streaming: true, pathModel: null }, sequence: 1, createdAt: 1_760_000_000, inputTokens: 10, cachedTokens: 0 };
  return wire.streamEvents(context).map((event) => event.bytes).join('');
}

/**
 * The recorded Gemini streams send arguments whole or flat: two calls streamed the way Vertex streams nested arguments
 * (partialArgs into objects and arrays, strings in pieces) stand in for them (synthetic, see gemini-streamed-arguments.ts).
 */
function geminiStreamedArgumentsStream(): string {
  const parts = [
    ...streamedCallParts(
      {
        name: 'cookRecipe',
        args: { recipe: { name: 'Lasagna', ingredients: [{ name: 'Noodles', grams: 250 }, { name: 'Ricotta', optional: true, brand: null }], steps: ['Boil the noodles.', 'Layer everything.'] } },
        signature: 'c2lnbmVkIHJlY2lwZQ==',
      },
      (text) => text.split(/(?<= )/),
    ),
    ...streamedCallParts({ name: 'getWeather', args: { location: 'Boston, MA', days: [1, 2] } }),
  ];
  return parts.map((part, index) => sseFrame(geminiChunk([part], index === parts.length - 1 ? 'STOP' : undefined))).join('');
}

function recorded(name: string, text: string | undefined, framing: 'sse' | 'ndjson'): RecordedStream {
  if (text === undefined || text === '') throw new Error(`No recorded stream ${name}`);
  return { name, frames: framesOf(text, framing) };
}

const RESPONSES_BODY = { model: 'gpt-4o-2024-08-06', stream: true, store: false, input: [{ role: 'user', content: 'hi' }] };
const CHAT_BODY = { model: 'gpt-4o-2024-08-06', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] };

export const FUZZ_WIRES: readonly FuzzWire[] = [
  {
    wire: 'anthropic-messages',
    framing: 'sse',
    contentType: 'text/event-stream; charset=utf-8',
    basePath: '',
    model: 'claude-opus-4-8',
    body: { model: 'claude-opus-4-8', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    streams: [
      recorded('anthropic/tool_use_response.txt', readReference('recorded-streams', 'anthropic', 'tool_use_response.txt'), 'sse'),
      recorded('anthropic/stream-a-refusal.sse', readReference('recorded-streams', 'anthropic', 'stream-a-refusal.sse'), 'sse'),
    ],
    endsReply: (frame) => frame.includes('"type":"message_stop"'),
    errorFrame: sseFrame({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
    errorCode: 'overloaded',
    unknownFrame: sseFrame({ type: 'content_block_mystery', index: 0, mystery: { nested: [1, 2] } }, 'content_block_mystery'),
    errorBody: (status) => ({ type: 'error', error: { type: status === 529 ? 'overloaded_error' : 'api_error', message: `Status ${status}` } }),
  },
  {
    wire: 'openai-responses',
    framing: 'sse',
    contentType: 'text/event-stream',
    basePath: '/v1',
    model: RESPONSES_BODY.model,
    body: RESPONSES_BODY,
    streams: [
      recorded('openai/standard text', responsesSnapshots.get('.stream() standard text works 1'), 'sse'),
      recorded('openai/reasoning', responsesSnapshots.get('.stream() reasoning works 1'), 'sse'),
      recorded('fake brains/two tool calls', scriptedToolCallStream(openAiResponsesWire, 'codex', RESPONSES_BODY), 'sse'),
    ],
    endsReply: (frame) => /"type":"response\.(completed|incomplete|failed)"/.test(frame),
    errorFrame: sseFrame({ type: 'error', code: 'server_error', message: 'Busy', param: null, sequence_number: 999 }, 'error'),
    errorCode: 'provider-error',
    unknownFrame: sseFrame({ type: 'response.mystery.delta', sequence_number: 998, item_id: 'msg_x', delta: '??' }, 'response.mystery.delta'),
    errorBody: (status) => ({ error: { message: `Status ${status}`, type: status === 429 ? 'requests' : 'server_error', code: null, param: null } }),
  },
  {
    wire: 'chat-completions',
    framing: 'sse',
    contentType: 'text/event-stream',
    basePath: '/v1',
    model: CHAT_BODY.model,
    body: CHAT_BODY,
    streams: [
      recorded('chat-completions/works', chatSnapshots.get('.stream() works 1'), 'sse'),
      recorded('chat-completions/refusal logprobs', chatSnapshots.get('.stream() emits refusal logprobs events 1'), 'sse'),
      recorded('fake brains/two tool calls', scriptedToolCallStream(chatCompletionsWire, 'kimi', CHAT_BODY), 'sse'),
    ],
    // The SDK stops reading at [DONE]; the mapper finishes when the stream ends.
    endsReply: (frame) => frame.startsWith('data: [DONE]'),
    errorFrame: sseFrame({ error: { message: 'Busy', type: 'engine_overloaded_error' } }),
    errorCode: 'overloaded',
    unknownFrame: sseFrame({ object: 'chat.completion.mystery', choices: [], mystery: true }),
    errorBody: (status) => ({ error: { message: `Status ${status}`, type: status === 429 ? 'rate_limit_reached_error' : 'server_error' } }),
  },
  {
    wire: 'gemini-generate-content',
    framing: 'sse',
    contentType: 'text/event-stream',
    basePath: '',
    model: 'gemini-2.5-flash',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    streams: [
      recorded('gemini/AFC, first reply', geminiStream(GEMINI_AFC, 0), 'sse'),
      // Google may frame its SSE with CRLF: the same parser must read both.
      recorded('gemini/Vertex streamed arguments (CRLF)', geminiStream(GEMINI_VERTEX, 0, '\r\n'), 'sse'),
      recorded('gemini/Vertex answer after the call', geminiStream(GEMINI_VERTEX, 1), 'sse'),
      recorded('gemini/streamed nested arguments (synthetic)', geminiStreamedArgumentsStream(), 'sse'),
    ],
    // No [DONE]: a Gemini reply ends when the stream does.
    endsReply: () => false,
    errorFrame: sseFrame({ error: { code: 503, message: 'Busy', status: 'UNAVAILABLE' } }),
    errorCode: 'overloaded',
    unknownFrame: sseFrame({ mystery: { a: 1 } }),
    errorBody: (status) => ({ error: { code: status, message: `Status ${status}`, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE' } }),
  },
  {
    wire: 'ollama-chat',
    framing: 'ndjson',
    contentType: 'application/x-ndjson',
    basePath: '',
    model: 'llama3.2',
    body: { model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] },
    streams: [
      recorded('ollama/chat-stream.ndjson', readReference('recorded-streams', 'ollama', 'chat-stream.ndjson'), 'ndjson'),
      recorded('ollama/chat-stream-with-tools.ndjson', readReference('recorded-streams', 'ollama', 'chat-stream-with-tools.ndjson'), 'ndjson'),
    ],
    endsReply: (frame) => frame.includes('"done":true'),
    errorFrame: `${JSON.stringify({ error: 'Busy' })}\n`,
    errorCode: 'provider-error',
    unknownFrame: `${JSON.stringify({ mystery: true })}\n`,
    errorBody: (status) => ({ error: `Status ${status}` }),
  },
];

/** What one fuzz run produced: the parts up to a throw (a crash), and how many HTTP requests it made. */
export interface RunResult {
  readonly parts: StreamPart[];
  readonly thrown: unknown;
  readonly attempts: number;
}

export function fuzzCall(fuzzWire: FuzzWire, origin: string): ProviderCall {
  return {
    wire: fuzzWire.wire,
    baseUrl: `${origin}${fuzzWire.basePath}`,
    apiKey: 'fuzz-key',
    model: fuzzWire.model,
    body: fuzzWire.body,
    signal: new AbortController().signal,
    label: 'Fuzz',
  };
}

/** Runs the wire's adapter to its end; a throw is caught and kept, since the invariant is that there is none. */
export async function runAdapter(call: ProviderCall): Promise<Pick<RunResult, 'parts' | 'thrown'>> {
  const parts: StreamPart[] = [];
  try {
    for await (const part of streamProvider(call)) parts.push(part);
    return { parts, thrown: undefined };
  } catch (thrown) {
    return { parts, thrown };
  }
}

export const streamAnswer = (fuzzWire: FuzzWire, chunks: Uint8Array[], failure?: Error): ServedAnswer => ({
  status: 200,
  headers: { 'content-type': fuzzWire.contentType },
  chunks,
  ...(failure === undefined ? {} : { failure }),
});

// ---- cases -------------------------------------------------------------------------------------------------------

/** What a mutated run must produce, beyond one terminal part and one attempt. */
export type Expectation =
  /** Exactly the parts of the unmutated stream. */
  | { readonly kind: 'same' }
  /** A prefix of the unmutated parts, then the same finish or an error with one of the codes. */
  | { readonly kind: 'cut'; readonly codes: readonly string[] }
  /** Nothing more than the invariants. */
  | { readonly kind: 'survive' }
  /** One error part and nothing else. */
  | { readonly kind: 'only-error'; readonly code?: string; readonly status?: number; readonly retryAfterSeconds?: readonly number[] | null };

export interface FuzzCase {
  readonly description: string;
  readonly answer: ServedAnswer;
  readonly expectation: Expectation;
}

export const MUTATIONS = [
  'chunks',
  'truncate',
  'reset',
  'duplicate',
  'reorder',
  'invalid-json',
  'flip-bytes',
  'retype-field',
  'unknown-event',
  'error-event',
  'http-status',
  'json-instead',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

const GARBAGE_PAYLOADS = ['{"broken', 'not json at all', '{"type":', '[1,2', '\u0000\u0001', '{"type":"message_delta","delta":'];

export function mutatedCase(fuzzWire: FuzzWire, stream: RecordedStream, mutation: Mutation, random: Random): FuzzCase {
  const frames = [...stream.frames];
  const reassemble = (list: readonly string[]): Uint8Array => bytesOf(list.join(''));
  const deliver = (bytes: Uint8Array): Uint8Array[] => splitAt(bytes, randomCuts(random, bytes.length));
  const whole = reassemble(frames);
  // The frame where the mapper ends the reply (the stream's end for wires that finish there).
  const endingFrame = frames.findIndex((frame) => fuzzWire.endsReply(frame));
  const replyEnd = endingFrame < 0 ? frames.length : endingFrame;

  switch (mutation) {
    case 'chunks':
      return { description: 'random chunk boundaries', answer: streamAnswer(fuzzWire, deliver(whole)), expectation: { kind: 'same' } };
    case 'truncate': {
      const at = random.integer(whole.length);
      return {
        description: `truncated at byte ${at} of ${whole.length}`,
        answer: streamAnswer(fuzzWire, deliver(whole.subarray(0, at))),
        expectation: { kind: 'cut', codes: ['connection', 'malformed-stream'] },
      };
    }
    case 'reset': {
      const at = random.integer(whole.length);
      return {
        description: `connection reset after byte ${at} of ${whole.length}`,
        answer: streamAnswer(fuzzWire, deliver(whole.subarray(0, at)), new TypeError('terminated')),
        expectation: { kind: 'cut', codes: ['connection'] },
      };
    }
    case 'duplicate': {
      const copies = 1 + random.integer(3);
      const picked: number[] = [];
      for (let copy = 0; copy < copies; copy += 1) {
        const index = random.integer(frames.length);
        picked.push(index);
        frames.splice(index + 1, 0, frames[index] ?? '');
      }
      return { description: `duplicated frames ${picked.join(', ')}`, answer: streamAnswer(fuzzWire, deliver(reassemble(frames))), expectation: { kind: 'survive' } };
    }
    case 'reorder': {
      const from = random.integer(frames.length);
      const to = random.integer(frames.length);
      const [moved] = frames.splice(from, 1);
      frames.splice(to, 0, moved ?? '');
      return { description: `moved frame ${from} to ${to}`, answer: streamAnswer(fuzzWire, deliver(reassemble(frames))), expectation: { kind: 'survive' } };
    }
    case 'invalid-json': {
      const index = random.integer(frames.length);
      const garbage = random.pick(GARBAGE_PAYLOADS);
      const original = frames[index] ?? '';
      frames[index] = fuzzWire.framing === 'ndjson' ? `${garbage}\n` : original.replace(/^data: .*$/m, `data: ${garbage}`);
      return { description: `frame ${index} made invalid JSON (${JSON.stringify(garbage)})`, answer: streamAnswer(fuzzWire, deliver(reassemble(frames))), expectation: { kind: 'survive' } };
    }
    case 'flip-bytes': {
      const bytes = whole.slice();
      const flips = 1 + random.integer(4);
      const offsets: number[] = [];
      for (let flip = 0; flip < flips; flip += 1) {
        const offset = random.integer(bytes.length);
        offsets.push(offset);
        bytes[offset] = random.integer(256);
      }
      return { description: `bytes ${offsets.join(', ')} replaced`, answer: streamAnswer(fuzzWire, deliver(bytes)), expectation: { kind: 'survive' } };
    }
    case 'retype-field': {
      const index = random.integer(frames.length);
      const retyped = retypeOneField(frames[index] ?? '', fuzzWire.framing, random);
      frames[index] = retyped.frame;
      return { description: `frame ${index}: ${retyped.description}`, answer: streamAnswer(fuzzWire, deliver(reassemble(frames))), expectation: { kind: 'survive' } };
    }
    case 'unknown-event': {
      const index = random.integer(frames.length + 1);
      frames.splice(index, 0, fuzzWire.unknownFrame);
      return { description: `unknown event at frame ${index}`, answer: streamAnswer(fuzzWire, deliver(reassemble(frames))), expectation: { kind: 'same' } };
    }
    case 'error-event': {
      const index = random.integer(replyEnd + 1);
      frames.splice(index, 0, fuzzWire.errorFrame);
      return {
        description: `error event after HTTP 200 at frame ${index}`,
        answer: streamAnswer(fuzzWire, deliver(reassemble(frames))),
        expectation: { kind: 'cut', codes: [fuzzWire.errorCode] },
      };
    }
    case 'http-status': {
      const status = random.pick([429, 529, 503, 500, 502, 408, 400, 401, 413]);
      const wait = random.pick(['none', 'seconds', 'milliseconds', 'date'] as const);
      // A gateway in front of the provider may answer with its own HTML page, or nothing at all.
      const errorBody = random.pick([
        { contentType: 'application/json', text: JSON.stringify(fuzzWire.errorBody(status)) },
        { contentType: 'text/html', text: `<html><body><h1>${status}</h1>Bad gateway</body></html>` },
        { contentType: 'application/json', text: '' },
      ]);
      const headers: Record<string, string> = { 'content-type': errorBody.contentType };
      let expectedWait: readonly number[] | null = null;
      if (wait === 'seconds') {
        const seconds = random.integer(120);
        headers['retry-after'] = String(seconds);
        expectedWait = [seconds];
      } else if (wait === 'milliseconds') {
        const milliseconds = random.integer(90_000);
        headers['retry-after-ms'] = String(milliseconds);
        expectedWait = [milliseconds / 1000];
      } else if (wait === 'date') {
        headers['retry-after'] = new Date(Date.now() + 60_000).toUTCString();
        expectedWait = [59, 60];
      }
      return {
        description: `HTTP ${status} (${errorBody.contentType}, ${errorBody.text.length} bytes) with retry-after ${wait}`,
        answer: { status, headers, chunks: deliver(bytesOf(errorBody.text)) },
        expectation: { kind: 'only-error', status, retryAfterSeconds: expectedWait },
      };
    }
    case 'json-instead': {
      const { contentType, body } = random.pick([
        { contentType: 'application/json', body: JSON.stringify(fuzzWire.errorBody(500)) },
        { contentType: 'application/json', body: '{"id":"x","object":"response"}' },
        { contentType: 'application/json; charset=utf-8', body: '[]' },
        { contentType: 'application/json', body: '{"error":' },
        { contentType: 'application/json', body: '' },
        { contentType: 'text/html', body: '<html><head><title>Sign in</title></head><body></body></html>' },
      ]);
      return {
        description: `HTTP 200 ${contentType} instead of a stream: ${body}`,
        answer: { status: 200, headers: { 'content-type': contentType }, chunks: deliver(bytesOf(body)) },
        expectation: { kind: 'only-error', code: 'not-a-stream' },
      };
    }
    default: {
      const unknownMutation: never = mutation;
      throw new Error(`Unknown mutation ${String(unknownMutation)}`);
    }
  }
}

const STRANGE_VALUES: readonly unknown[] = [null, 0, -1, 1e308, '', 'x', true, [], {}, [1, 'a'], { a: 1 }, '__proto__'];

/** Replaces one value anywhere in the frame's JSON with a value of another type (a provider's schema drifting). */
function retypeOneField(frame: string, framing: Framing, random: Random): { frame: string; description: string } {
  const lineEnd = framing === 'ndjson' ? /\n$/ : /(\r?\n)+$/;
  const terminator = lineEnd.exec(frame)?.[0] ?? '';
  const body = frame.slice(0, frame.length - terminator.length);
  const dataMatch = framing === 'ndjson' ? { prefix: '', json: body, suffix: '' } : splitDataLine(body);
  if (dataMatch === null) return { frame, description: 'no JSON to retype' };
  let value: unknown;
  try {
    value = JSON.parse(dataMatch.json);
  } catch {
    return { frame, description: 'no JSON to retype' };
  }
  const paths: (string | number)[][] = [];
  const collectPaths = (node: unknown, path: (string | number)[]): void => {
    paths.push(path);
    if (Array.isArray(node)) node.forEach((item, itemIndex) => collectPaths(item, [...path, itemIndex]));
    else if (typeof node === 'object' && node !== null) for (const [key, item] of Object.entries(node)) collectPaths(item, [...path, key]);
  };
  collectPaths(value, []);
  const path = random.pick(paths.filter((candidate) => candidate.length > 0).concat(paths.length === 1 ? [[]] : []));
  const replacement = random.pick(STRANGE_VALUES);
  if (path.length === 0) value = replacement;
  else {
    let parent = value as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path.at(-1) ?? ''] = replacement;
  }
  const json = JSON.stringify(value) ?? 'null';
  return { frame: `${dataMatch.prefix}${json}${dataMatch.suffix}${terminator}`, description: `${path.join('.') || '(root)'} set to ${JSON.stringify(replacement)}` };
}

/** The JSON of an SSE frame's one `data:` line, with what comes before and after it. */
function splitDataLine(frame: string): { prefix: string; json: string; suffix: string } | null {
  const match = /^data: ?(.*)$/m.exec(frame);
  if (match === null) return null;
  const start = match.index + match[0].length - (match[1] ?? '').length;
  return { prefix: frame.slice(0, start), json: match[1] ?? '', suffix: frame.slice(start + (match[1] ?? '').length) };
}

/** Why a run broke its expectation, or null. */
export function judge(result: RunResult, expectation: Expectation, baseline: readonly StreamPart[]): string | null {
  if (result.thrown !== undefined) return `threw ${String(result.thrown)}`;
  if (result.attempts !== 1) return `${result.attempts} HTTP attempts`;
  const violation = terminalViolation(result.parts);
  if (violation !== null) return `${violation}: ${JSON.stringify(result.parts.map((part) => part.type))}`;
  const last = result.parts.at(-1);
  switch (expectation.kind) {
    case 'same':
      return JSON.stringify(result.parts) === JSON.stringify(baseline) ? null : `parts differ from the recorded stream's: ${JSON.stringify(result.parts)}`;
    case 'cut': {
      if (!isPrefix(result.parts.slice(0, -1), baseline.slice(0, -1))) return `not a prefix of the recorded parts: ${JSON.stringify(result.parts)}`;
      if (last?.type === 'error') return expectation.codes.includes(last.error.code) ? null : `unexpected error ${JSON.stringify(last.error)}`;
      return JSON.stringify(last) === JSON.stringify(baseline.at(-1)) ? null : `unexpected end ${JSON.stringify(last)}`;
    }
    case 'survive':
      return null;
    case 'only-error': {
      if (result.parts.length !== 1 || last?.type !== 'error') return `expected one error part, got ${JSON.stringify(result.parts)}`;
      if (expectation.code !== undefined && last.error.code !== expectation.code) return `expected ${expectation.code}, got ${JSON.stringify(last.error)}`;
      if (expectation.status !== undefined && last.error.status !== expectation.status) return `expected status ${expectation.status}, got ${JSON.stringify(last.error)}`;
      if (expectation.retryAfterSeconds !== undefined) {
        const wait = last.error.retryAfterSeconds;
        const matches = expectation.retryAfterSeconds === null ? wait === undefined : wait !== undefined && expectation.retryAfterSeconds.includes(wait);
        if (!matches) return `expected a wait of ${JSON.stringify(expectation.retryAfterSeconds)}, got ${JSON.stringify(last.error)}`;
      }
      return null;
    }
    default: {
      const unknownExpectation: never = expectation;
      throw new Error(`Unknown expectation ${JSON.stringify(unknownExpectation)}`);
    }
  }
}

export class FailureLog {
  private readonly shown: string[] = [];
  private count = 0;

  add(line: string): void {
    this.count += 1;
    if (this.shown.length < FAILURES_SHOWN) this.shown.push(line);
  }

  report(what: string): string {
    return this.count === 0 ? '' : `${this.count} of ${what} failed (STREAM_FUZZ_SEED=${BASE_SEED}):\n${this.shown.join('\n')}`;
  }
}

