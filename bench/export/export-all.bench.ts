/**
 * The main thread's longest stall while every conversation is exported: 1,000 conversations of 20 messages each, as
 * the window's "Export all conversations…" runs it (export on the worker, progress events, the zip read in pieces on
 * the main thread), against the same archive written on the main thread. A `LoopWatch` measures the main thread: its
 * longest task is the longest time the window (or the web host) could not be answered, shown with the longest loop
 * delay (the task plus however long the machine took to wake the loop).
 *
 * This file reports; it never fails on time (the machine is shared and noisy). The smoke run (`ANYBRAIN_BENCH_SMOKE=1`)
 * exports 10 conversations of 4 messages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat } from '../../src-shared/api';
import { buildCliInto, cliBuildFolder } from '../../src-main/cli/testing';
import { closeDatabase, openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { inProcessArchiveRunner, type ArchiveRunner } from '../../src-main/core/transcripts/export-archive';
import { ExportJobs } from '../../src-main/core/transcripts/export-jobs';
import { seedManyConversations } from '../../src-main/core/transcripts/export-testing';
import { exportWorkerEntry, runExportWorker } from '../../src-main/core/transcripts/export-worker-runner';
import { within } from '../support/bounded-wait';
import { LoopWatch, type LoopPhase } from '../support/loop-watch';
import { isSmokeRun } from '../support/scenario-line';

const SMOKE = isSmokeRun();
const CONVERSATIONS = SMOKE ? 10 : 1_000;
const TURNS = SMOKE ? 2 : 10;
/** One archive of 1,000 conversations, on the worker or the main thread, on a loaded two-core machine. */
const EXPORT_BOUND_MS = 240_000;
/** The jobs' worker stopped and its files removed. */
const DISPOSE_BOUND_MS = 30_000;

const builtFolder = cliBuildFolder('bench-export');
const dataFolder = mkdtempSync(join(tmpdir(), 'anybrain-bench-export-'));
const databasePath = join(dataFolder, 'anybrain.db');
let db: AppDatabase;
let entry: URL;

beforeAll(() => {
  buildCliInto(builtFolder);
  entry = exportWorkerEntry(pathToFileURL(join(builtFolder, 'anybrain.js')).href);
  db = openDatabase(databasePath);
  seedManyConversations(db, CONVERSATIONS, TURNS);
}, 300_000);

afterAll(() => {
  closeDatabase(db);
  rmSync(dataFolder, { recursive: true, force: true });
  rmSync(builtFolder, { recursive: true, force: true });
});

interface Measured {
  readonly wallMs: number;
  readonly mainThread: LoopPhase;
  readonly progressEvents: number;
  readonly bytes: number;
}

function taskAndDelay(phase: LoopPhase): string {
  return `${phase.longestTaskMs.toFixed(1)} ms (${phase.longestDelayMs.toFixed(1)} ms)`;
}

/** Runs an export through ExportJobs, as the exportAllConversations command does, and reads the zip to its end. */
async function measure(runArchive: ArchiveRunner, format: ExportFormat): Promise<Measured> {
  let progressEvents = 0;
  const jobs = new ExportJobs({ runArchive, emit: () => (progressEvents += 1) });
  const watch = new LoopWatch();
  const started = performance.now();
  // One timer; the progress count it reports is counted anyway.
  const result = await within(jobs.exportAll(`bench-${format}`, { format }), {
    what: `the ${format} export of ${CONVERSATIONS} conversations never finished`,
    withinMs: EXPORT_BOUND_MS,
    observe: () => `${progressEvents} progress events had come`,
  });
  if (result.outcome !== 'done') throw new Error('the export was cancelled');
  let bytes = 0;
  for (let offset: number | null = 0; offset !== null; ) {
    const chunk = jobs.read(`bench-${format}`, offset);
    bytes += Buffer.byteLength(chunk.data, 'base64');
    offset = chunk.nextOffset;
    // A command answers one piece per request: the loop turns between two of them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const wallMs = performance.now() - started;
  const mainThread = watch.endPhase();
  watch.dispose();
  await within(jobs.dispose(), { what: `the ${format} export's jobs never finished stopping`, withinMs: DISPOSE_BOUND_MS });
  return { wallMs, mainThread, progressEvents, bytes };
}

describe(`exporting ${CONVERSATIONS.toLocaleString()} conversations of ${TURNS * 2} messages`, () => {
  it('keeps the main thread answering while the worker writes the zip', async () => {
    const rows: string[] = [];
    for (const format of ['json', 'md', 'html'] as const) {
      const onWorker = await measure((request, signal, onProgress) => runExportWorker({ entry, databasePath, dataDir: dataFolder, request, signal, onProgress }), format);
      const onMainThread = await measure(inProcessArchiveRunner(db, dataFolder), format);
      expect(onWorker.bytes).toBeGreaterThan(0);
      rows.push(
        `| ${format} | ${(onWorker.bytes / 1e6).toFixed(2)} MB | ${onWorker.wallMs.toFixed(0)} ms | ${taskAndDelay(onWorker.mainThread)} | ` +
          `${onMainThread.wallMs.toFixed(0)} ms | ${taskAndDelay(onMainThread.mainThread)} | ${onWorker.progressEvents} |`,
      );
    }
    console.log(
      [
        '',
        '| format | zip | worker: total | worker: longest main-thread task (loop delay) | main thread: total | main thread: longest task (loop delay) | progress events |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  }, 600_000);
});
