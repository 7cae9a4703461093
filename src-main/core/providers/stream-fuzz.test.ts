/**
 * Stream fuzzing: each wire's adapter (the real SDK or fetch client, the watched fetch, the SSE/NDJSON parsing and the
 * mapper) fed mutated recorded streams through in-memory Response bodies. Every run must end through the adapter's
 * normal error path: no throw, no unhandled rejection, exactly one terminal part and nothing after it, one HTTP attempt.
 *
 * Reproduce a failure with the seed it prints: STREAM_FUZZ_SEED=<seed> npx vitest run src-main/core/providers/stream-fuzz.test.ts
 * The default run keeps to a few seconds a wire: it splits the recorded streams at every byte where that stays under
 * SPLIT_RUNS_PER_WIRE runs, and otherwise at every n-th byte from a seeded start. STREAM_FUZZ_FULL=1 splits every stream
 * at every byte; STREAM_FUZZ_CASES=<n> sets the mutated runs per wire (default 1000).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StreamPart } from './stream-parts';
import {
  BASE_SEED,
  FUZZ_WIRES,
  FailureLog,
  MUTATIONS,
  bodyFrom,
  bytesOf,
  createRandom,
  fuzzCall,
  judge,
  mutatedCase,
  runAdapter,
  splitAt,
  streamAnswer,
  terminalViolation,
  type FuzzWire,
  type RunResult,
  type ServedAnswer,
} from './testing/stream-fuzzing';

const CASES_PER_WIRE = Number(process.env.STREAM_FUZZ_CASES ?? 1000);
const FULL_RUN = process.env.STREAM_FUZZ_FULL === '1';
/** A run through a Response body and an SDK costs one to three milliseconds here. */
const SPLIT_RUNS_PER_WIRE = 1500;
/** Room for the longer runs the variables above ask for, on a busy machine. */
const RUN_TIMEOUT_MS = FULL_RUN ? 600_000 : Math.max(20_000, CASES_PER_WIRE * 15);

// ---- the in-memory provider -------------------------------------------------------------------------------------

let served: ServedAnswer = { status: 500, headers: {}, chunks: [] };
let attempts = 0;
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(() => {
  vi.stubGlobal('fetch', async (_input: unknown, init?: RequestInit) => {
    attempts += 1;
    init?.signal?.throwIfAborted();
    return new Response(bodyFrom(served), { status: served.status, headers: served.headers });
  });
  process.on('unhandledRejection', recordUnhandled);
});
afterAll(() => {
  vi.unstubAllGlobals();
  process.off('unhandledRejection', recordUnhandled);
});

async function runWire(fuzzWire: FuzzWire, answer: ServedAnswer): Promise<RunResult> {
  served = answer;
  attempts = 0;
  const { parts, thrown } = await runAdapter(fuzzCall(fuzzWire, 'http://fuzz.invalid'));
  return { parts, thrown, attempts };
}

describe.each(FUZZ_WIRES)('$wire under fuzzed streams', (fuzzWire) => {
  const baselines = new Map<string, StreamPart[]>();

  beforeAll(async () => {
    for (const stream of fuzzWire.streams) {
      const result = await runWire(fuzzWire, streamAnswer(fuzzWire, [bytesOf(stream.frames.join(''))]));
      baselines.set(stream.name, result.parts);
    }
  });

  it('reads each recorded stream to one finish', () => {
    for (const stream of fuzzWire.streams) {
      const parts = baselines.get(stream.name) ?? [];
      expect(terminalViolation(parts), stream.name).toBeNull();
      expect(parts.at(-1)?.type, stream.name).toBe('finish');
    }
  });

  it('gives the same parts whatever byte a recorded stream is split at', async () => {
    const failures = new FailureLog();
    const totalBytes = fuzzWire.streams.reduce((sum, stream) => sum + bytesOf(stream.frames.join('')).length, 0);
    const stride = FULL_RUN ? 1 : Math.max(1, Math.ceil(totalBytes / SPLIT_RUNS_PER_WIRE));
    const firstOffset = 1 + createRandom(BASE_SEED).integer(stride);
    let runs = 0;
    for (const stream of fuzzWire.streams) {
      const bytes = bytesOf(stream.frames.join(''));
      const baseline = baselines.get(stream.name) ?? [];
      for (let offset = firstOffset; offset < bytes.length; offset += stride) {
        runs += 1;
        const result = await runWire(fuzzWire, streamAnswer(fuzzWire, splitAt(bytes, [offset])));
        const problem = judge(result, { kind: 'same' }, baseline);
        if (problem !== null) failures.add(`${stream.name}, split at byte ${offset}: ${problem}`);
      }
      // One byte per read: every parser state between two bytes at once.
      runs += 1;
      const byteByByte = await runWire(fuzzWire, streamAnswer(fuzzWire, splitAt(bytes, Array.from({ length: bytes.length }, (_, index) => index))));
      const problem = judge(byteByByte, { kind: 'same' }, baseline);
      if (problem !== null) failures.add(`${stream.name}, one byte per read: ${problem}`);
    }
    expect(failures.report(`${runs} split runs (every ${stride === 1 ? '' : `${stride}th `}byte)`)).toBe('');
    expect(unhandled).toEqual([]);
  }, RUN_TIMEOUT_MS);

  it(`ends every one of ${CASES_PER_WIRE} mutated streams through the normal error path`, async () => {
    const failures = new FailureLog();
    for (let caseIndex = 0; caseIndex < CASES_PER_WIRE; caseIndex += 1) {
      // Each case has its own seed, so one case reproduces without the ones before it.
      const random = createRandom(BASE_SEED + caseIndex);
      const stream = random.pick(fuzzWire.streams);
      const mutation = random.pick(MUTATIONS);
      const fuzzCase = mutatedCase(fuzzWire, stream, mutation, random);
      const result = await runWire(fuzzWire, fuzzCase.answer);
      const problem = judge(result, fuzzCase.expectation, baselines.get(stream.name) ?? []);
      if (problem !== null) failures.add(`case ${caseIndex} (${stream.name}, ${fuzzCase.description}): ${problem}`);
    }
    expect(failures.report(`${CASES_PER_WIRE} mutated runs`)).toBe('');
    expect(unhandled).toEqual([]);
  }, RUN_TIMEOUT_MS);
});
