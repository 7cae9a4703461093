/**
 * Branches at 10,000 messages: a trunk of 5,000 messages with 50 branches of 100 messages each, forking from it every
 * 100 messages. Measured against raw baselines in the same run (plain better-sqlite3, no app code):
 *
 * - `chooseBranch` to the early fork's two sides: to the branch forking at the trunk's 51st message (its newest
 *   descendant 100 rows down), and back to the trunk side, whose newest descendant is the last branch's leaf, below
 *   every other branch (the walk down reads about 9,900 rows). Baseline: the same newest descendant found by one raw
 *   statement, then one statement that rewrites `on_live_path` on every row of the conversation from a recursive walk
 *   up from it.
 * - the window guard's walk (`scanLivePath` with a 200,000-token budget, about 2,000 rows) on the branched
 *   conversation, against the same walk on a straight conversation with the same live path and against the raw read
 *   of the same index entries newest first: the number of branches should cost nothing.
 * - doctor's check of the live-path marks for the branched conversation (one recursive query).
 *
 * This file reports; it never fails on time (the machine is shared and noisy). Its assertions are about behaviour:
 * every switch leaves exactly the walk from the leaf marked, and the walks agree. The smoke run
 * (`ANYBRAIN_BENCH_SMOKE=1`) builds 1,000 messages with 5 branches and measures one round.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseBranch, conversationsWithStaleLivePath, currentLeafId, moveLeaf } from '../../src-main/core/store/branches';
import { insertConversation } from '../../src-main/core/store/conversations';
import { scanLivePath } from '../../src-main/core/store/live-path';
import { insertMessage } from '../../src-main/core/store/messages';
import { openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { median, timeOnce, type Samples } from '../replay/timing';
import { isSmokeRun } from '../support/scenario-line';

const SMOKE = isSmokeRun();
const NOW = '2026-12-01T10:00:00.000Z';
const TRUNK = SMOKE ? 500 : 5_000;
const BRANCHES = SMOKE ? 5 : 50;
const BRANCH_LENGTH = 100;
const FORK_EVERY = TRUNK / BRANCHES;
const ROW_TOKENS = 100;
/** Fewer rows than the trunk side's live path, more than the path to the early branch. */
const BUDGET = SMOKE ? 20_000 : 200_000;
const WARMUPS = SMOKE ? 0 : 3;
const REPETITIONS = SMOKE ? 1 : 21;
const SETTLE_MS = SMOKE ? 0 : 30;

const folder = mkdtempSync(join(tmpdir(), 'anybrain-branches-bench-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function addRow(db: AppDatabase, conversationId: string, id: string, seq: number, parentId: string | null): void {
  insertMessage(db, {
    id, conversationId, seq, turnId: `t-${id}`, role: seq % 2 === 0 ? 'user' : 'assistant', text: `row ${id}`, status: 'complete',
    tokenEstimate: ROW_TOKENS, createdAt: NOW, parentId, becomesLeaf: false,
  });
}

/** The branched conversation `branched` and the straight one `straight` (its trunk alone), both shown on the trunk. */
function seed(db: AppDatabase): { earlyBranchFirst: string; trunkAfterEarlyFork: string } {
  db.$client.transaction(() => {
    for (const id of ['branched', 'straight']) insertConversation(db, { id, title: id, brain: 'kimi', model: null, now: NOW });
    for (const conversationId of ['branched', 'straight']) {
      for (let index = 0; index < TRUNK; index += 1) addRow(db, conversationId, `${conversationId}-t${index}`, index, index === 0 ? null : `${conversationId}-t${index - 1}`);
      moveLeaf(db, conversationId, `${conversationId}-t${TRUNK - 1}`);
    }
    let seq = TRUNK;
    for (let branch = 0; branch < BRANCHES; branch += 1) {
      const forkAt = branch * FORK_EVERY + FORK_EVERY / 2;
      for (let index = 0; index < BRANCH_LENGTH; index += 1) {
        addRow(db, 'branched', `b${branch}-${index}`, seq, index === 0 ? `branched-t${forkAt}` : `b${branch}-${index - 1}`);
        seq += 1;
      }
    }
  })();
  return { earlyBranchFirst: 'b0-0', trunkAfterEarlyFork: `branched-t${FORK_EVERY / 2 + 1}` };
}

const rawNewestDescendant = `WITH RECURSIVE below(id, seq) AS (
     SELECT id, seq FROM messages WHERE id = ? AND conversation_id = ?
     UNION ALL SELECT m.id, m.seq FROM below CROSS JOIN messages m ON m.conversation_id = ? AND m.parent_id = below.id
   ) SELECT id FROM below ORDER BY seq DESC LIMIT 1`;
const rawRemark = `UPDATE messages SET on_live_path = (id IN (
     WITH RECURSIVE up(id, parent_id) AS (
       SELECT id, parent_id FROM messages WHERE id = ?
       UNION ALL SELECT m.id, m.parent_id FROM messages m JOIN up ON m.id = up.parent_id
     ) SELECT id FROM up)) WHERE conversation_id = ? AND kind != 'summary'`;
const rawWalk = `SELECT seq, token_estimate AS tokens, compacted_into AS compactedInto, status FROM messages
   WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' ORDER BY seq DESC`;

function rawSwitch(db: AppDatabase, messageId: string): string {
  const sqlite = db.$client;
  return sqlite.transaction(() => {
    const leaf = (sqlite.prepare(rawNewestDescendant).get(messageId, 'branched', 'branched') as { id: string }).id;
    sqlite.prepare(rawRemark).run(leaf, 'branched');
    sqlite.prepare('UPDATE conversations SET current_leaf_id = ? WHERE id = ?').run(leaf, 'branched');
    return leaf;
  })();
}

function rawScan(db: AppDatabase): number {
  let tokens = 0;
  let rows = 0;
  for (const row of db.$client.prepare(rawWalk).iterate('branched') as IterableIterator<{ tokens: number }>) {
    if (tokens + row.tokens > BUDGET) break;
    tokens += row.tokens;
    rows += 1;
  }
  return rows;
}

function markedAreTheWalk(db: AppDatabase): void {
  expect(conversationsWithStaleLivePath(db)).toEqual([]);
}

describe(`branches: ${(TRUNK + BRANCHES * BRANCH_LENGTH).toLocaleString()} messages, ${BRANCHES} branches`, () => {
  it('switches branches and walks the live path at the cost of the path, not of the tree', async () => {
    const db = openDatabase(join(folder, 'anybrain.db'));
    const { earlyBranchFirst, trunkAfterEarlyFork } = seed(db);
    const cases: Record<string, Samples> = {};
    const record = (name: string, timed: { wallMs: number; cpuMs: number }, round: number) => {
      if (round < WARMUPS) return;
      const samples = (cases[name] ??= { wallMs: [], cpuMs: [] });
      samples.wallMs.push(timed.wallMs);
      samples.cpuMs.push(timed.cpuMs);
    };
    const fittingRows = BUDGET / ROW_TOKENS;
    for (let round = 0; round < WARMUPS + REPETITIONS; round += 1) {
      const toBranch = await timeOnce(() => chooseBranch(db, earlyBranchFirst), SETTLE_MS);
      expect(toBranch.result.leafId).toBe(`b0-${BRANCH_LENGTH - 1}`);
      record('chooseBranch to the early branch', toBranch, round);
      const branchScan = await timeOnce(() => scanLivePath(db, 'branched', BUDGET), SETTLE_MS);
      expect(branchScan.result.fitting).toHaveLength(FORK_EVERY / 2 + 1 + BRANCH_LENGTH);
      record('scanLivePath, branched, on the early branch', branchScan, round);
      const back = await timeOnce(() => chooseBranch(db, trunkAfterEarlyFork), SETTLE_MS);
      expect(back.result.leafId).toBe(`b${BRANCHES - 1}-${BRANCH_LENGTH - 1}`);
      record('chooseBranch back to the trunk side', back, round);
      if (round === 0) markedAreTheWalk(db);

      const scan = await timeOnce(() => scanLivePath(db, 'branched', BUDGET), SETTLE_MS);
      record('scanLivePath, branched', scan, round);
      const straight = await timeOnce(() => scanLivePath(db, 'straight', BUDGET), SETTLE_MS);
      record('scanLivePath, straight', straight, round);
      expect(scan.result.fitting.length).toBe(straight.result.fitting.length);
      const raw = await timeOnce(() => rawScan(db), SETTLE_MS);
      expect(raw.result).toBe(fittingRows);
      record('raw walk of the same index entries', raw, round);

      const rawToBranch = await timeOnce(() => rawSwitch(db, earlyBranchFirst), SETTLE_MS);
      record('raw switch to the early branch', rawToBranch, round);
      const rawBack = await timeOnce(() => rawSwitch(db, trunkAfterEarlyFork), SETTLE_MS);
      expect(rawBack.result).toBe(currentLeafId(db, 'branched'));
      record('raw switch back to the trunk side', rawBack, round);
      if (round === 0) markedAreTheWalk(db);

      const doctor = await timeOnce(() => conversationsWithStaleLivePath(db), SETTLE_MS);
      expect(doctor.result).toEqual([]);
      record("doctor's live-path check (2 conversations)", doctor, round);
    }
    const medianOf = (name: string) => ({ wall: median(cases[name]!.wallMs), cpu: median(cases[name]!.cpuMs) });
    const line = (name: string, baseline?: string) => {
      const own = medianOf(name);
      const ratio = baseline === undefined ? '' : `${(own.wall / medianOf(baseline).wall).toFixed(2)}x ${baseline}`;
      return `| ${name} | ${own.wall.toFixed(2)} ms | ${own.cpu.toFixed(2)} ms | ${ratio} |`;
    };
    console.log(
      [
        '',
        `| case (median of ${REPETITIONS}) | wall | cpu | ratio (wall) |`,
        '|---|---|---|---|',
        line('chooseBranch to the early branch', 'raw switch to the early branch'),
        line('chooseBranch back to the trunk side', 'raw switch back to the trunk side'),
        line('raw switch to the early branch'),
        line('raw switch back to the trunk side'),
        line('scanLivePath, branched', 'raw walk of the same index entries'),
        line('scanLivePath, branched, on the early branch', 'raw walk of the same index entries'),
        line('scanLivePath, straight', 'raw walk of the same index entries'),
        `| scanLivePath, branched against straight | | | ${(medianOf('scanLivePath, branched').wall / medianOf('scanLivePath, straight').wall).toFixed(2)}x |`,
        line('raw walk of the same index entries'),
        line("doctor's live-path check (2 conversations)"),
        '',
      ].join('\n'),
    );
    db.$client.close();
  }, 600_000);
});
