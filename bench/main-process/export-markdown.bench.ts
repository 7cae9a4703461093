/**
 * Exporting one conversation of 10,000 messages as Markdown (`exportConversation(…, 'md')`, what "Export as
 * Markdown…" runs) against the raw read of the same rows (plain better-sqlite3: every message and its invocations)
 * and `JSON.stringify` of them (target: at most 2x): what the export adds over reading what it writes.
 *
 * This file reports; it never fails on time. Every repetition must produce the same bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { exportConversation } from '../../src-main/core/transcripts/export';
import { rawReadBaseline } from '../replay/replay-build';
import { seedConversation } from '../replay/seed-conversation';
import { measureInterleaved, median } from '../replay/timing';
import { isSmokeRun, reportScenario } from '../support/scenario-line';
import { sizeLabel } from './turns';

const SMOKE = isSmokeRun();
const MESSAGES = SMOKE ? 100 : 10_000;
const PLAN = SMOKE ? { warmups: 0, repetitions: 1, settleMs: 0 } : { warmups: 2, repetitions: 9, settleMs: 150 };
const TARGET_RATIO = 2;

describe(`exporting ${MESSAGES.toLocaleString('en')} messages as Markdown`, () => {
  let folder = '';
  let db: AppDatabase;
  let conversationId = '';

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'anybrain-bench-export-md-'));
    db = openDatabase(join(folder, 'anybrain.db'));
    conversationId = seedConversation(db, MESSAGES, 1).conversationId;
    db.$client.pragma('wal_checkpoint(TRUNCATE)');
  });

  afterAll(() => {
    if (db) closeDatabase(db);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('against the raw read and stringify of the same rows', async () => {
    const rawRead = rawReadBaseline(db.$client);
    const exportName = 'export Markdown';
    const rawName = 'raw read + stringify';
    const cases = new Map<string, () => string>([
      [exportName, () => exportConversation(db, conversationId, 'md').content],
      [rawName, () => rawRead(conversationId)],
    ]);
    const first = new Map<string, string>();
    const { samples, failures } = await measureInterleaved(cases, PLAN, (name, output) => {
      const earlier = first.get(name);
      if (earlier === undefined) first.set(name, output);
      else expect(output === earlier, `${name} gave different bytes on a repetition`).toBe(true);
    });
    expect([...failures].map(([name, error]) => `${name}: ${error.message}`)).toEqual([]);
    // Every message's words are in the file: the newest reply's first line stands for them.
    const newest = db.$client.prepare<[string], { text: string }>('SELECT text FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1').get(conversationId)!;
    expect(first.get(exportName)).toContain(newest.text.split('\n')[0]!.slice(0, 40));
    const value = median(samples.get(exportName)!.wallMs);
    const baseline = median(samples.get(rawName)!.wallMs);
    reportScenario({
      name: `export-markdown-${sizeLabel(MESSAGES)}-vs-raw-read-stringify`,
      value,
      baseline,
      unit: 'ms',
      target: `<= ${TARGET_RATIO}x`,
      met: value <= baseline * TARGET_RATIO,
    });
  });
});
