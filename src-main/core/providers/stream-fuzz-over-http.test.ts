/**
 * The socket-level slice of the stream fuzzer: the same mutated recorded streams, served by a real HTTP server on
 * 127.0.0.1 in separate writes, with a destroyed socket for a reset. Fewer cases than the in-memory run (each costs a
 * connection), same rules. Reproduce with the seed it prints: STREAM_FUZZ_SEED=<seed>.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamPart } from './stream-parts';
import {
  BASE_SEED,
  FUZZ_WIRES,
  FailureLog,
  MUTATIONS,
  bytesOf,
  createRandom,
  fuzzCall,
  judge,
  mutatedCase,
  runAdapter,
  streamAnswer,
  type FuzzWire,
  type RunResult,
  type ServedAnswer,
} from './testing/stream-fuzzing';

const SOCKET_CASES_PER_WIRE = Number(process.env.STREAM_FUZZ_SOCKET_CASES ?? 40);

let server: Server;
let origin = '';
let served: ServedAnswer = { status: 500, headers: {}, chunks: [] };
let attempts = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    attempts += 1;
    request.resume();
    request.on('end', () => {
      void serve(response, served);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Writes each chunk as its own write, a tick apart, so the client reads them in separate socket reads. */
async function serve(response: ServerResponse, answer: ServedAnswer): Promise<void> {
  response.writeHead(answer.status, answer.headers);
  response.flushHeaders();
  for (const chunk of answer.chunks) {
    if (response.destroyed) return;
    await new Promise<void>((resolve) => response.write(chunk, () => resolve()));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (answer.failure !== undefined) response.socket?.destroy();
  else response.end();
}

async function runWire(fuzzWire: FuzzWire, answer: ServedAnswer): Promise<RunResult> {
  served = answer;
  attempts = 0;
  const { parts, thrown } = await runAdapter(fuzzCall(fuzzWire, origin));
  return { parts, thrown, attempts };
}

describe.each(FUZZ_WIRES)('$wire under fuzzed streams over a socket', (fuzzWire) => {
  const baselines = new Map<string, StreamPart[]>();

  beforeAll(async () => {
    for (const stream of fuzzWire.streams) {
      baselines.set(stream.name, (await runWire(fuzzWire, streamAnswer(fuzzWire, [bytesOf(stream.frames.join(''))]))).parts);
    }
  });

  it(`ends every one of ${SOCKET_CASES_PER_WIRE} mutated streams through the normal error path`, async () => {
    const failures = new FailureLog();
    for (let caseIndex = 0; caseIndex < SOCKET_CASES_PER_WIRE; caseIndex += 1) {
      // Offset from the in-memory run's seeds, so the two runs try different cases.
      const random = createRandom(BASE_SEED + 1_000_000 + caseIndex);
      const stream = random.pick(fuzzWire.streams);
      const mutation = random.pick(MUTATIONS);
      const fuzzCase = mutatedCase(fuzzWire, stream, mutation, random);
      const result = await runWire(fuzzWire, fuzzCase.answer);
      const problem = judge(result, fuzzCase.expectation, baselines.get(stream.name) ?? []);
      if (problem !== null) failures.add(`socket case ${caseIndex} (${stream.name}, ${fuzzCase.description}): ${problem}`);
    }
    expect(failures.report(`${SOCKET_CASES_PER_WIRE} mutated runs over a socket`)).toBe('');
  }, Math.max(20_000, SOCKET_CASES_PER_WIRE * 100));
});
