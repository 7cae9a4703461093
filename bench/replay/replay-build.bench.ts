/**
 * Replay-build time per wire for conversations of 1,000, 10,000 and 100,000 messages, as a ratio to the raw SQLite
 * read plus JSON.stringify of the same rows in the same run. Target: within 2x of that baseline, growing linearly.
 *
 * This file reports; it never fails on time (the machine is shared and noisy). Its assertions are about behaviour
 * only: no build may throw, and every repetition of a build must produce the same bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIRE_IDS, type WireId } from '../../src-shared/brains';
import { TurnEngine } from '../../src-main/core/engine/turn-engine';
import type { TurnToolbox } from '../../src-main/core/engine/turn-toolbox';
import { openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { buildReplayBody, rawReadBaseline, targetFor } from './replay-build';
import { SEEDED_TOOLS, seedConversation, type SeededConversation } from './seed-conversation';
import { measureInterleaved, median, type MeasurePlan } from './timing';

const TARGET_RATIO = 2;
const BASELINE = 'raw read + stringify';

interface SizePlan extends MeasurePlan {
  readonly messages: number;
}

/**
 * Fewer repetitions for the large sizes keep the whole run within about three minutes on two shared cores. The
 * 100,000-message runs need no warm-up of their own: the smaller sizes have already run every code path.
 */
const PLANS: readonly SizePlan[] = [
  { messages: 1_000, warmups: 5, repetitions: 25, settleMs: 50 },
  { messages: 10_000, warmups: 1, repetitions: 9, settleMs: 150 },
  { messages: 100_000, warmups: 0, repetitions: 3, settleMs: 400 },
];

interface Measured {
  readonly medianMs: number;
  readonly baselineMs: number;
  readonly cpuMs: number;
  readonly baselineCpuMs: number;
  readonly bodyChars: number;
  readonly rawChars: number;
}

interface ResultRow {
  readonly messages: number;
  readonly wire: WireId;
  /** The figures, or why the build failed. */
  readonly outcome: Measured | { readonly failure: string };
}

const formatMs = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const formatMillions = (characters: number): string => (characters / 1_000_000).toFixed(1);
const formatCount = (count: number): string => count.toLocaleString('en-US');

const describeMachine = (): string =>
  `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min)`;

const HEADER = [
  'messages',
  'wire',
  'median ms',
  'baseline ms',
  'ratio',
  `within ${TARGET_RATIO}x`,
  'ms / 1k msgs',
  'baseline ms / 1k',
  'cpu ratio',
  'body Mchars',
  'raw Mchars',
];

function measuredCells(messages: number, wire: WireId, measured: Measured): string[] {
  const ratio = measured.medianMs / measured.baselineMs;
  return [
    formatCount(messages),
    wire,
    formatMs(measured.medianMs),
    formatMs(measured.baselineMs),
    `${ratio.toFixed(2)}x`,
    ratio <= TARGET_RATIO ? 'yes' : 'NO',
    formatMs((measured.medianMs / messages) * 1_000),
    formatMs((measured.baselineMs / messages) * 1_000),
    `${(measured.cpuMs / measured.baselineCpuMs).toFixed(2)}x`,
    formatMillions(measured.bodyChars),
    formatMillions(measured.rawChars),
  ];
}

function renderTable(rows: readonly ResultRow[], seeded: readonly SeededConversation[], machineAtStart: string): string {
  const measured = rows.flatMap(({ messages, wire, outcome }) => ('failure' in outcome ? [] : [measuredCells(messages, wire, outcome)]));
  const widths = HEADER.map((title, column) => Math.max(title.length, ...measured.map((cells) => cells[column]!.length)));
  // The wire column is left-aligned, every other column right-aligned.
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  const rowLine = ({ messages, wire, outcome }: ResultRow) =>
    'failure' in outcome ? `${line([formatCount(messages), wire])}  failed: ${outcome.failure}` : line(measuredCells(messages, wire, outcome));
  return [
    '',
    'Replay build (live rows → invocations → collect → convert → JSON.stringify of the body), per wire,',
    'against the raw read of the same rows with plain better-sqlite3 + JSON.stringify, in the same run.',
    `  at start: ${machineAtStart}`,
    `  at end:   ${describeMachine()}`,
    ...seeded.map(
      (entry) =>
        `  ${formatCount(entry.messageCount)} messages with ${formatCount(entry.invocationCount)} invocations, seeded in ${formatMs(entry.seedMs)} ms`,
    ),
    '',
    line(HEADER),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(rowLine),
    '',
    'median ms, baseline ms: medians of wall-clock time; ratio = median / baseline; ms / 1k msgs shows how time grows.',
    'cpu ratio: the same ratio from process CPU time (background GC threads included), which other load on a shared',
    '  machine disturbs far less than wall-clock time.',
    'body Mchars, raw Mchars: millions of UTF-16 characters of JSON: the request body, and the raw rows.',
    '',
  ].join('\n');
}

/** The seeded tools, nothing else: no memories or skills change the replay between runs. */
const benchToolbox: TurnToolbox = {
  list: () => Promise.resolve(SEEDED_TOOLS),
  policyFor: () => 'allow',
  approvals: null,
  recall: () => [],
  skills: () => [],
};

describe('replay build benchmark', () => {
  let folder = '';
  let db: AppDatabase;
  let engine: TurnEngine;
  let baseline: (conversationId: string) => string;
  const seeded: SeededConversation[] = [];
  const results: ResultRow[] = [];
  const machineAtStart = describeMachine();

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'anybrain-bench-'));
    db = openDatabase(join(folder, 'anybrain.db'));
    PLANS.forEach((plan, index) => seeded.push(seedConversation(db, plan.messages, index + 1)));
    // A long-lived store has its pages in the main file, not in a write-ahead log of the last hour.
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
    engine = new TurnEngine({
      db,
      emit: () => {},
      stream: () => {
        throw new Error('The benchmark builds requests; it never sends one.');
      },
      connectionFor: () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: null }),
      toolbox: benchToolbox,
    });
    baseline = rawReadBaseline(db.$client);
  });

  afterAll(() => {
    if (results.length > 0) process.stdout.write(renderTable(results, seeded, machineAtStart));
    db?.$client.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  PLANS.forEach((plan, index) => {
    it(`measures ${formatCount(plan.messages)} messages on every wire`, async () => {
      const { conversationId } = seeded[index]!;
      const cases = new Map<string, () => string>([[BASELINE, () => baseline(conversationId)]]);
      for (const wire of WIRE_IDS) cases.set(wire, () => buildReplayBody(engine, db, conversationId, targetFor(wire), SEEDED_TOOLS));

      const firstOutput = new Map<string, string>();
      const { samples, failures } = await measureInterleaved(cases, plan, (name, output) => {
        const first = firstOutput.get(name);
        if (first === undefined) firstOutput.set(name, output);
        else expect(output === first, `${name} gave different bytes on a repetition`).toBe(true);
      });

      const baselineSamples = samples.get(BASELINE)!;
      const rawChars = firstOutput.get(BASELINE)?.length ?? Number.NaN;
      for (const wire of WIRE_IDS) {
        const failure = failures.get(wire);
        if (failure) {
          results.push({ messages: plan.messages, wire, outcome: { failure: `${failure.name}: ${failure.message}` } });
          continue;
        }
        const body = firstOutput.get(wire)!;
        expect(body.length).toBeGreaterThan(plan.messages * 50);
        const wireSamples = samples.get(wire)!;
        results.push({
          messages: plan.messages,
          wire,
          outcome: {
            medianMs: median(wireSamples.wallMs),
            baselineMs: median(baselineSamples.wallMs),
            cpuMs: median(wireSamples.cpuMs),
            baselineCpuMs: median(baselineSamples.cpuMs),
            bodyChars: body.length,
            rawChars,
          },
        });
      }
      // A build that throws is a defect, not a slow run: the table shows it, and the run fails on it.
      expect([...failures].map(([name, error]) => `${name}: ${error.message}`)).toEqual([]);
    });
  });
});
