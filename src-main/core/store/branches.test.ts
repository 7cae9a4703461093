import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/api';
import { branchPoint, chooseBranch, conversationsWithStaleLivePath, currentLeafId, moveLeaf, NEWEST_DESCENDANT_SQL, newestDescendant, remarkLivePath, siblingsOf } from './branches';
import { storeSummary } from './compaction';
import { insertConversation } from './conversations';
import { checkpointMessageText, finishMessage, getMessage, insertMessage, listAllMessages, recomputeReplayedTotals, RECOUNT_TOTALS_SQL, SHIFT_TOTALS_BELOW_SQL, type MessageRow } from './messages';
import type { AppDatabase } from './open';
import { openTestDatabase } from './test-database';
import { seededRandom } from '../../cli/testing';
import { estimateMessageTokens } from '../context/token-estimate';

const NOW = '2026-12-01T10:00:00.000Z';

function newDatabase(): AppDatabase {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'Branches', brain: 'kimi', model: null, now: NOW });
  return db;
}

interface Added {
  readonly parentId?: string | null;
  readonly becomesLeaf?: boolean;
  readonly status?: 'complete' | 'failed' | 'streaming';
  readonly tokens?: number;
  readonly role?: 'user' | 'assistant';
}

function add(db: AppDatabase, id: string, fields: Added = {}): MessageRow {
  const seq = (db.$client.prepare('SELECT coalesce(max(seq), -1) + 1 AS seq FROM messages WHERE conversation_id = ?').get('c1') as { seq: number }).seq;
  return insertMessage(db, {
    id,
    conversationId: 'c1',
    seq,
    turnId: `t-${id}`,
    role: fields.role ?? (seq % 2 === 0 ? 'user' : 'assistant'),
    text: `text of ${id}`,
    status: fields.status ?? 'complete',
    tokenEstimate: fields.tokens ?? 10,
    createdAt: NOW,
    ...(fields.parentId === undefined ? {} : { parentId: fields.parentId }),
    ...(fields.becomesLeaf === undefined ? {} : { becomesLeaf: fields.becomesLeaf }),
  });
}

/** The live path as the design defines it: from the current leaf up through `parent_id`, oldest first. */
function walkFromLeaf(db: AppDatabase, conversationId: string): string[] {
  const leaf = db.$client.prepare('SELECT current_leaf_id AS leafId FROM conversations WHERE id = ?').get(conversationId) as { leafId: string | null };
  const parentOf = db.$client.prepare('SELECT parent_id AS parentId FROM messages WHERE id = ?');
  const path: string[] = [];
  for (let id = leaf.leafId; id !== null; id = (parentOf.get(id) as { parentId: string | null }).parentId) path.push(id);
  return path.reverse();
}

function markedRows(db: AppDatabase, conversationId: string): string[] {
  return (db.$client.prepare('SELECT id FROM messages WHERE conversation_id = ? AND on_live_path = 1 ORDER BY seq').all(conversationId) as { id: string }[]).map(
    (row) => row.id,
  );
}

/** Each row's running totals as the sums of what every row from the first message down to it adds. */
function totalsAlongPaths(db: AppDatabase): Map<string, { tokens: number; rows: number }> {
  const rows = listAllMessages(db, 'c1').filter((row) => row.kind !== 'summary');
  const byId = new Map(rows.map((row) => [row.id, row]));
  const totals = new Map<string, { tokens: number; rows: number }>();
  for (const row of rows) {
    let tokens = 0;
    let count = 0;
    for (let current: MessageRow | undefined = row; current !== undefined; current = current.parentId === null ? undefined : byId.get(current.parentId)) {
      if (current.status === 'failed') continue;
      tokens += current.tokenEstimate;
      count += 1;
    }
    totals.set(row.id, { tokens, rows: count });
  }
  return totals;
}

function storedTotals(db: AppDatabase): Map<string, { tokens: number; rows: number }> {
  return new Map(
    listAllMessages(db, 'c1')
      .filter((row) => row.kind !== 'summary')
      .map((row) => [row.id, { tokens: row.replayedTokensThrough ?? -1, rows: row.replayedRowsThrough ?? -1 }]),
  );
}

describe('the live path marks', () => {
  it('are exactly the walk from the current leaf after many random appends, siblings, hidden rows and leaf moves', () => {
    for (const seed of [1, 7, 42, 2026]) {
      const random = seededRandom(seed);
      const db = newDatabase();
      const ids: string[] = [];
      const pick = () => ids[Math.floor(random() * ids.length)]!;
      for (let step = 0; step < 300; step += 1) {
        const id = `s${seed}-${step}`;
        const roll = random();
        if (ids.length === 0 || roll < 0.4) add(db, id, { tokens: 1 + Math.floor(random() * 50), status: random() < 0.1 ? 'failed' : 'complete' });
        else if (roll < 0.6) add(db, id, { parentId: getMessage(db, pick())!.parentId, tokens: 7 });
        else if (roll < 0.7) add(db, id, { parentId: pick(), becomesLeaf: false, tokens: 3 });
        else if (roll < 0.85) {
          moveLeaf(db, 'c1', pick());
          continue;
        } else if (roll < 0.95) {
          chooseBranch(db, pick());
          continue;
        } else {
          moveLeaf(db, 'c1', null);
          continue;
        }
        ids.push(id);
        expect(markedRows(db, 'c1'), `seed ${seed}, step ${step}`).toEqual(walkFromLeaf(db, 'c1'));
      }
      expect(markedRows(db, 'c1'), `seed ${seed}`).toEqual(walkFromLeaf(db, 'c1'));
      expect(currentLeafId(db, 'c1')).toBe(walkFromLeaf(db, 'c1').at(-1) ?? null);
      expect(storedTotals(db), `seed ${seed}`).toEqual(totalsAlongPaths(db));
    }
  });

  it('moving the leaf to null unmarks everything, and the next message starts a new first branch', () => {
    const db = newDatabase();
    add(db, 'a');
    add(db, 'b');
    moveLeaf(db, 'c1', null);
    expect(markedRows(db, 'c1')).toEqual([]);
    expect(currentLeafId(db, 'c1')).toBeNull();
    add(db, 'a2');
    expect(getMessage(db, 'a2')?.parentId).toBeNull();
    expect(markedRows(db, 'c1')).toEqual(['a2']);
  });

  it('refuses a leaf from another conversation', () => {
    const db = newDatabase();
    insertConversation(db, { id: 'c2', title: 'Other', brain: 'kimi', model: null, now: NOW });
    add(db, 'a');
    expect(() => moveLeaf(db, 'c2', 'a')).toThrow('Message a is not in conversation c2.');
  });
});

describe('running totals', () => {
  it('are the sums along each path after siblings, a checkpoint, a finish, and after recomputeReplayedTotals', () => {
    const db = newDatabase();
    add(db, 'u1', { tokens: 5 });
    add(db, 'a1', { tokens: 11 });
    add(db, 'u2', { tokens: 13 });
    add(db, 'a2', { tokens: 17, status: 'failed' });
    add(db, 'a2b', { parentId: 'u2', tokens: 19, status: 'streaming', role: 'assistant' });
    add(db, 'u2b', { parentId: 'a1', tokens: 23 });
    add(db, 'a3', { parentId: 'a2b', tokens: 2, becomesLeaf: false });
    expect(storedTotals(db)).toEqual(totalsAlongPaths(db));
    // A streaming reply grows: every row below it, on every branch, moves with it.
    checkpointMessageText(db, 'a2b', 'x'.repeat(400), NOW);
    expect(storedTotals(db)).toEqual(totalsAlongPaths(db));
    finishMessage(db, 'a2b', { text: 'failed after all', status: 'failed', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 40, now: NOW });
    expect(storedTotals(db)).toEqual(totalsAlongPaths(db));
    expect(storedTotals(db).get('a3')).toEqual({ tokens: 5 + 11 + 13 + 2, rows: 4 });
    db.$client.prepare('UPDATE messages SET replayed_tokens_through = 0, replayed_rows_through = 0').run();
    recomputeReplayedTotals(db, 'c1');
    expect(storedTotals(db)).toEqual(totalsAlongPaths(db));
  });
});

describe('chooseBranch', () => {
  it('makes the newest descendant of the chosen message the leaf, whatever branch it sits on', () => {
    const db = newDatabase();
    add(db, 'u1');
    add(db, 'a1');
    add(db, 'a1b', { parentId: 'u1', role: 'assistant' });
    add(db, 'u2b');
    add(db, 'u2c', { parentId: 'a1b' });
    add(db, 'u2', { parentId: 'a1', becomesLeaf: false });
    add(db, 'a2', { parentId: 'u2', becomesLeaf: false });
    // Written last below a1: a1's branch shows through a2, the older u2c stays hidden.
    expect(chooseBranch(db, 'a1')).toEqual({ conversationId: 'c1', leafId: 'a2' });
    expect(markedRows(db, 'c1')).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(chooseBranch(db, 'a1b')).toEqual({ conversationId: 'c1', leafId: 'u2c' });
    expect(markedRows(db, 'c1')).toEqual(['u1', 'a1b', 'u2c']);
    expect(newestDescendant(db, 'c1', 'u2b')).toBe('u2b');
    expect(chooseBranch(db, 'u2b')).toEqual({ conversationId: 'c1', leafId: 'u2b' });
    expect(markedRows(db, 'c1')).toEqual(['u1', 'a1b', 'u2b']);
  });
});

describe('branchPoint', () => {
  function code(work: () => unknown): string {
    try {
      work();
    } catch (error) {
      if (error instanceof ApiError) return `${error.code}: ${error.message}`;
      throw error;
    }
    return 'allowed';
  }

  /** u0 a1 u2 a3 u4 a5, a branch u2' below a1 written first, then the live path compacted through a3. */
  function compactedWithOldBranch() {
    const db = newDatabase();
    for (const id of ['u0', 'a1']) add(db, id);
    add(db, 'u2x', { parentId: 'a1', becomesLeaf: false, role: 'user' });
    add(db, 'a3x', { parentId: 'u2x', becomesLeaf: false, role: 'assistant' });
    add(db, 'u4x', { parentId: 'a3x', becomesLeaf: false, role: 'user' });
    for (const id of ['u2', 'a3', 'u4', 'a5']) add(db, id, { role: id.startsWith('u') ? 'user' : 'assistant' });
    const seqOf = (id: string) => getMessage(db, id)!.seq;
    const summary = storeSummary(db, {
      conversationId: 'c1',
      text: 'The gist.',
      brain: 'claude',
      model: 'claude-sonnet-4-6',
      madeFor: { brain: 'claude', model: 'claude-sonnet-4-6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
      span: { previousSummary: null, afterSeq: -1, throughSeq: seqOf('a3'), rows: 4, tokens: 40 },
      now: NOW,
    }).row;
    return { db, summary, seqOf };
  }

  it('refuses a summary, a summarised message, and one whose parent a summary covers before its last row', () => {
    const { db, summary } = compactedWithOldBranch();
    expect(code(() => branchPoint(db, summary.id))).toBe('invalid-input: A summary has no alternatives: edit or answer a message instead.');
    const summarised =
      'summarised: That message is part of a summary, so the conversation cannot branch there. Branch from a message below the summary.';
    expect(code(() => branchPoint(db, 'a1'))).toBe(summarised);
    expect(code(() => branchPoint(db, 'u2x'))).toBe(summarised);
    expect(code(() => chooseBranch(db, 'u2x'))).toBe(summarised);
    expect(code(() => branchPoint(db, 'nope'))).toBe('not-found: That message no longer exists.');
    // Below the summary's last row a branch may start: u4 follows a3, the row the summary covers through.
    expect(branchPoint(db, 'u4')).toMatchObject({ id: 'u4', parentId: 'a3', role: 'user' });
  });

  it('refuses a message deeper in a branch that leaves the live path inside a summary', () => {
    const { db } = compactedWithOldBranch();
    // a3x's own parent is not summarised, but its branch left the path at a1, inside the summary: the summary does
    // not hold for it, and showing it would replay the other branch's summary.
    expect(code(() => branchPoint(db, 'a3x'))).toBe(
      'summarised: That message is part of a summary, so the conversation cannot branch there. Branch from a message below the summary.',
    );
    expect(code(() => chooseBranch(db, 'u4x'))).toMatch(/^summarised: /);
    expect(markedRows(db, 'c1')).toEqual(['u0', 'a1', 'u2', 'a3', 'u4', 'a5']);
  });

  it('refuses a branch from the last row of a summary that a later summary covers', () => {
    const { db, summary, seqOf } = compactedWithOldBranch();
    add(db, 'u4y', { parentId: 'a3', becomesLeaf: false, role: 'user' });
    add(db, 'a5y', { parentId: 'u4y', becomesLeaf: false, role: 'assistant' });
    storeSummary(db, {
      conversationId: 'c1',
      text: 'The gist, and u4 and a5.',
      brain: 'claude',
      model: 'claude-sonnet-4-6',
      madeFor: { brain: 'claude', model: 'claude-sonnet-4-6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
      span: { previousSummary: getMessage(db, summary.id), afterSeq: seqOf('a3'), throughSeq: seqOf('a5'), rows: 2, tokens: 20 },
      now: NOW,
    });
    add(db, 'u6');
    // a3 ends the first summary, but the second stands for it now, through a5: u4y's branch is no longer reachable.
    expect(code(() => branchPoint(db, 'u4y'))).toMatch(/^summarised: /);
    expect(code(() => branchPoint(db, 'a5y'))).toMatch(/^summarised: /);
    expect(branchPoint(db, 'u6')).toMatchObject({ id: 'u6', parentId: 'a5' });
  });
});

describe('siblingsOf', () => {
  it("gives each message with alternatives its 1-based place, neighbours and count, in the order they were written", () => {
    const db = newDatabase();
    add(db, 'u1');
    add(db, 'a1');
    add(db, 'a1b', { parentId: 'u1', role: 'assistant' });
    add(db, 'a1c', { parentId: 'u1', role: 'assistant' });
    add(db, 'u1b', { parentId: null, role: 'user' });
    const rows = ['u1', 'a1', 'a1b', 'a1c', 'u1b'].map((id) => getMessage(db, id)!);
    const places = siblingsOf(db, rows);
    expect(Object.fromEntries(places)).toEqual({
      u1: { index: 1, count: 2, previousId: null, nextId: 'u1b' },
      u1b: { index: 2, count: 2, previousId: 'u1', nextId: null },
      a1: { index: 1, count: 3, previousId: null, nextId: 'a1b' },
      a1b: { index: 2, count: 3, previousId: 'a1', nextId: 'a1c' },
      a1c: { index: 3, count: 3, previousId: 'a1b', nextId: null },
    });
  });

  it('leaves out a message without alternatives and every summary', () => {
    const db = newDatabase();
    add(db, 'u1');
    add(db, 'a1');
    const summary = storeSummary(db, {
      conversationId: 'c1',
      text: 'The gist.',
      brain: 'claude',
      model: 'claude-sonnet-4-6',
      madeFor: { brain: 'claude', model: 'claude-sonnet-4-6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
      span: { previousSummary: null, afterSeq: -1, throughSeq: 0, rows: 1, tokens: 10 },
      now: NOW,
    }).row;
    expect(siblingsOf(db, [getMessage(db, 'u1')!, getMessage(db, 'a1')!, summary]).size).toBe(0);
  });
});

describe('stale live-path marks', () => {
  it('are found per conversation and marked again from the current leaf, or from the newest marked row when the leaf is gone', () => {
    const db = newDatabase();
    insertConversation(db, { id: 'empty', title: 'Empty', brain: 'kimi', model: null, now: NOW });
    add(db, 'u1');
    add(db, 'a1');
    add(db, 'a1b', { parentId: 'u1', role: 'assistant' });
    add(db, 'u2');
    expect(conversationsWithStaleLivePath(db)).toEqual([]);
    // A hidden row marked and a shown one unmarked: the window would show a mix of two branches.
    db.$client.prepare("UPDATE messages SET on_live_path = CASE id WHEN 'a1' THEN 1 WHEN 'u1' THEN 0 ELSE on_live_path END").run();
    expect(conversationsWithStaleLivePath(db)).toEqual(['c1']);
    remarkLivePath(db, 'c1');
    expect(markedRows(db, 'c1')).toEqual(['u1', 'a1b', 'u2']);
    expect(conversationsWithStaleLivePath(db)).toEqual([]);
    // A leaf naming a row that no longer exists: the newest row still marked is the leaf again.
    db.$client.prepare("UPDATE conversations SET current_leaf_id = 'gone' WHERE id = 'c1'").run();
    expect(conversationsWithStaleLivePath(db)).toEqual(['c1']);
    remarkLivePath(db, 'c1');
    expect(currentLeafId(db, 'c1')).toBe('u2');
    expect(walkFromLeaf(db, 'c1')).toEqual(['u1', 'a1b', 'u2']);
    expect(conversationsWithStaleLivePath(db)).toEqual([]);
  });
});

describe('walks down the tree', () => {
  it('look each row’s children up by (conversation, parent), never scanning the conversation per row walked', () => {
    const db = newDatabase();
    const rows = 2_000;
    const insert = db.$client.prepare(
      `INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, token_estimate, status, parent_id, on_live_path, created_at, updated_at)
       VALUES (?, 'c1', ?, 't', 'user', 'x', 10, 'complete', ?, 1, ?, ?)`,
    );
    db.$client.transaction(() => {
      for (let index = 0; index < rows; index += 1) insert.run(`r${index}`, index, index === 0 ? null : `r${index - 1}`, NOW, NOW);
      db.$client.prepare(`UPDATE conversations SET current_leaf_id = 'r${rows - 1}' WHERE id = 'c1'`).run();
    })();
    db.$client.exec('ANALYZE');
    // With `messages` as the outer loop, SQLite's planner looked each step's children up by the conversation alone and
    // scanned all of it per row walked (9 s at 10,000 messages, bench/branches).
    for (const statement of [NEWEST_DESCENDANT_SQL, SHIFT_TOTALS_BELOW_SQL, RECOUNT_TOTALS_SQL]) {
      const parameters = Array.from({ length: statement.split('?').length - 1 }, () => null);
      const plan = (db.$client.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(...parameters) as Array<{ detail: string }>).map((step) => step.detail);
      expect(plan).toContain('SEARCH m USING INDEX messages_children (conversation_id=? AND parent_id=?)');
      expect(plan.filter((step) => /^SCAN m\b/.test(step))).toEqual([]);
    }
    recomputeReplayedTotals(db, 'c1');
    expect(getMessage(db, `r${rows - 1}`)).toMatchObject({ replayedTokensThrough: rows * 10, replayedRowsThrough: rows });
    expect(newestDescendant(db, 'c1', 'r0')).toBe(`r${rows - 1}`);
    db.$client.prepare("UPDATE messages SET status = 'streaming' WHERE id = 'r0'").run();
    checkpointMessageText(db, 'r0', 'x'.repeat(40), NOW);
    expect(getMessage(db, `r${rows - 1}`)).toMatchObject({ replayedTokensThrough: rows * 10 - 10 + estimateMessageTokens('x'.repeat(40)) });
  });
});
