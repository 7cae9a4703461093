/**
 * The main thread's longest stall while every conversation is exported: 1,000 conversations of 20 messages each, as
 * the window's "Export all conversations…" runs it (export on the worker, progress events, the zip read in pieces on
 * the main thread), against the same archive written on the main thread. A 1 ms timer measures the event loop: its
 * longest gap between two ticks is the longest time the window (or the web host) could not be answered.
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
import { isSmokeRun } from '../support/scenario-line';

const SMOKE = isSmokeRun();
const CONVERSATIONS = SMOKE ? 10 : 1_000;
const TURNS = SMOKE ? 2 : 10;

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
  readonly longestStallMs: number;
  readonly progressEvents: number;
  readonly bytes: number;
}

/** Runs an export through ExportJobs, as the exportAllConversations command does, and reads the zip to its end. */
async function measure(runArchive: ArchiveRunner, format: ExportFormat): Promise<Measured> {
  let progressEvents = 0;
  const jobs = new ExportJobs({ runArchive, emit: () => (progressEvents += 1) });
  let last = performance.now();
  let longestStallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStallMs = Math.max(longestStallMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const result = await jobs.exportAll(`bench-${format}`, { format });
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
  clearInterval(ticker);
  await jobs.dispose();
  return { wallMs, longestStallMs, progressEvents, bytes };
}

describe(`exporting ${CONVERSATIONS.toLocaleString()} conversations of ${TURNS * 2} messages`, () => {
  it('keeps the main thread answering while the worker writes the zip', async () => {
    const rows: string[] = [];
    for (const format of ['json', 'md', 'html'] as const) {
      const onWorker = await measure((request, signal, onProgress) => runExportWorker({ entry, databasePath, dataDir: dataFolder, request, signal, onProgress }), format);
      const onMainThread = await measure(inProcessArchiveRunner(db, dataFolder), format);
      expect(onWorker.bytes).toBeGreaterThan(0);
      rows.push(
        `| ${format} | ${(onWorker.bytes / 1e6).toFixed(2)} MB | ${onWorker.wallMs.toFixed(0)} ms | ${onWorker.longestStallMs.toFixed(1)} ms | ` +
          `${onMainThread.wallMs.toFixed(0)} ms | ${onMainThread.longestStallMs.toFixed(1)} ms | ${onWorker.progressEvents} |`,
      );
    }
    console.log(
      [
        '',
        '| format | zip | worker: total | worker: longest main-thread stall | main thread: total | main thread: longest stall | progress events |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  }, 600_000);
});
