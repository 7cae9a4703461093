import { describe, expect, it } from 'vitest';
import { insertConversation } from './conversations';
import { scanLivePath } from './live-path';
import { checkpointMessageText, finishMessage, insertMessage } from './messages';
import { recomputeTotalsOfMessages, replaceMessageTextIfUnchanged } from './repairs';
import type { AppDatabase } from './open';
import { openTestDatabase } from './test-database';

const NOW = '2026-12-01T00:00:00.000Z';

function seed(db: AppDatabase, count: number, tokens: number, status: (seq: number) => 'complete' | 'failed' = () => 'complete'): void {
  insertConversation(db, { id: 'c', title: 'x', brain: 'kimi', model: null, now: NOW });
  for (let seq = 0; seq < count; seq += 1) {
    insertMessage(db, {
      id: `m${String(seq).padStart(5, '0')}`, conversationId: 'c', seq, turnId: `t${seq}`, role: seq % 2 === 0 ? 'user' : 'assistant',
      text: `row ${seq}`, status: status(seq), tokenEstimate: tokens, createdAt: NOW,
    });
  }
}

function summarise(db: AppDatabase, id: string, seq: number, tokens: number, coversThroughSeq: number, previous: string | null): void {
  insertMessage(db, { id, conversationId: 'c', seq, turnId: `t-${id}`, role: 'system', kind: 'summary', text: id, status: 'complete', tokenEstimate: tokens, createdAt: NOW });
  db.$client
    .prepare("UPDATE messages SET compacted_into = ? WHERE conversation_id = 'c' AND compacted_into IS NULL AND id != ? AND ((kind != 'summary' AND seq <= ?) OR id = ?)")
    .run(id, id, coversThroughSeq, previous);
  db.$client.prepare("UPDATE messages SET covers_through_id = (SELECT id FROM messages WHERE conversation_id = 'c' AND seq = ?) WHERE id = ?").run(coversThroughSeq, id);
}

describe('scanLivePath', () => {
  it('keeps the newest rows that fit, newest first, and counts the rest in one aggregate', () => {
    const db = openTestDatabase();
    seed(db, 2_000, 10);
    const path = scanLivePath(db, 'c', 505);
    expect(path.fitting).toHaveLength(50);
    expect(path.fitting[0]).toEqual({ seq: 1_999, tokens: 10 });
    expect(path.fitting[49]).toEqual({ seq: 1_950, tokens: 10 });
    expect(path).toMatchObject({ fittingTokens: 500, outsideRows: 1_950, outsideTokens: 19_500, summary: null });
  });

  it('reads the index alone, never the rows and their text', () => {
    const db = openTestDatabase();
    seed(db, 10, 10);
    const plan = db.$client
      .prepare("EXPLAIN QUERY PLAN SELECT seq, token_estimate, compacted_into, status FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' ORDER BY seq DESC")
      .all('c') as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual(['SEARCH messages USING COVERING INDEX messages_live_path (conversation_id=? AND on_live_path=?)']);
  });

  it('skips failed replies: they never replay', () => {
    const db = openTestDatabase();
    seed(db, 10, 10, (seq) => (seq === 9 || seq === 7 ? 'failed' : 'complete'));
    expect(scanLivePath(db, 'c')).toMatchObject({ fittingTokens: 80, outsideRows: 0 });
    expect(scanLivePath(db, 'c').fitting.map((entry) => entry.seq)).toEqual([8, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('replays every row while they fit, covered or not, and else the least compressed summary that fits with the rows after it', () => {
    const db = openTestDatabase();
    seed(db, 20, 10);
    summarise(db, 's1', 20, 30, 5, null);
    summarise(db, 's2', 21, 40, 11, 's1');
    expect(scanLivePath(db, 'c')).toMatchObject({ summary: null, fittingTokens: 200, outsideRows: 0 });
    expect(scanLivePath(db, 'c').fitting).toHaveLength(20);
    // Room for rows 19–2: s1 with rows 6–19 (30 + 140) fits, and leaves fewer rows summarised than s2.
    const roomy = scanLivePath(db, 'c', 180);
    expect(roomy.fitting.map((entry) => entry.seq)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
    expect(roomy).toMatchObject({ summary: { id: 's1', tokens: 30, madeFor: null }, fittingTokens: 170, outsideRows: 0, outsideTokens: 0 });
    // Room for rows 19–5 only: s1 and rows 6–19 need 170, so s2 (40) and rows 12–19 (80) stand instead.
    const tight = scanLivePath(db, 'c', 150);
    expect(tight.fitting.map((entry) => entry.seq)).toEqual([19, 18, 17, 16, 15, 14, 13, 12]);
    expect(tight).toMatchObject({ summary: { id: 's2', tokens: 40 }, fittingTokens: 120, outsideRows: 0 });
  });

  it('uses a summary only for a window it suits: one made for a window under half the target\'s is left out', () => {
    const db = openTestDatabase();
    seed(db, 20, 10);
    summarise(db, 's1', 20, 30, 11, null);
    db.$client.prepare("INSERT INTO summary_windows VALUES ('s1', 'ollama', 'qwen3', 4096, 3072, 0)").run();
    expect(scanLivePath(db, 'c', 150, 0, { target: { brain: 'claude', contextWindow: 8_192 } })).toMatchObject({ summary: { id: 's1', madeFor: { brain: 'ollama', model: 'qwen3', contextWindow: 4096, requested: false } } });
    expect(scanLivePath(db, 'c', 150, 0, { target: { brain: 'claude', contextWindow: 8_193 } })).toMatchObject({ summary: null, fittingTokens: 150, outsideRows: 5, outsideTokens: 50 });
  });

  it('stands a summary that covers nothing here at the head of the path, and counts it outside when the rows fill the budget', () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'c', title: 'x', brain: 'kimi', model: null, now: NOW });
    insertMessage(db, { id: 'head', conversationId: 'c', seq: 0, turnId: 't-head', role: 'system', kind: 'summary', text: 'Earlier: they planned a trip.', status: 'complete', tokenEstimate: 30, createdAt: NOW });
    for (let seq = 1; seq <= 6; seq += 1) {
      insertMessage(db, { id: `m${seq}`, conversationId: 'c', seq, turnId: `t${seq}`, role: seq % 2 === 1 ? 'user' : 'assistant', text: `row ${seq}`, status: 'complete', tokenEstimate: 10, createdAt: NOW });
    }
    expect(scanLivePath(db, 'c')).toMatchObject({ summary: { id: 'head', tokens: 30 }, fittingTokens: 60 + 30, outsideRows: 0 });
    expect(scanLivePath(db, 'c', 85)).toMatchObject({ summary: null, fittingTokens: 60, outsideRows: 1, outsideTokens: 30 });
    expect(scanLivePath(db, 'c', 55)).toMatchObject({ summary: null, fittingTokens: 50, outsideRows: 1 + 1, outsideTokens: 10 + 30 });
    // A summary later in the conversation that covers nothing has no place at the head, nor one that covers rows of
    // another branch.
    db.$client.prepare("DELETE FROM messages WHERE id = 'head'").run();
    insertMessage(db, { id: 'middle', conversationId: 'c', seq: 7, turnId: 't-middle', role: 'system', kind: 'summary', text: 'x', status: 'complete', tokenEstimate: 30, createdAt: NOW });
    expect(scanLivePath(db, 'c')).toMatchObject({ summary: null, fittingTokens: 60 });
    insertMessage(db, { id: 'elsewhere', conversationId: 'c', seq: -2, turnId: 't-e', role: 'user', text: 'another branch', status: 'complete', tokenEstimate: 10, createdAt: NOW });
    insertMessage(db, { id: 'other', conversationId: 'c', seq: -1, turnId: 't-o', role: 'system', kind: 'summary', text: 'y', status: 'complete', tokenEstimate: 30, createdAt: NOW });
    db.$client.prepare("UPDATE messages SET on_live_path = 0, compacted_into = 'other' WHERE id = 'elsewhere'").run();
    expect(scanLivePath(db, 'c')).toMatchObject({ summary: null, fittingTokens: 60 });
  });

  it('leaves the summary out when the rows after it fill the budget, and counts every older row outside', () => {
    const db = openTestDatabase();
    seed(db, 20, 10);
    summarise(db, 's1', 20, 30, 9, null);
    const path = scanLivePath(db, 'c', 55);
    expect(path.fitting.map((entry) => entry.seq)).toEqual([19, 18, 17, 16, 15]);
    expect(path).toMatchObject({ summary: null, fittingTokens: 50, outsideRows: 15, outsideTokens: 150 });
  });
});

describe('scanLivePath, cutting in blocks', () => {
  it('cuts back to the rows that fill the block, then keeps that start while the rows from it fit', () => {
    const db = openTestDatabase();
    seed(db, 40, 10);
    // Room for 20 rows; a cut keeps the newest 8.
    const cut = scanLivePath(db, 'c', 200, 0, { trim: { storedFromSeq: null, keepTokens: 80 } });
    expect(cut.fitting.map((entry) => entry.seq)).toEqual([39, 38, 37, 36, 35, 34, 33, 32]);
    expect(cut).toMatchObject({ cutFromSeq: 32, fittingTokens: 80, outsideRows: 32, outsideTokens: 320 });
    // Twelve rows later the request still starts at row 32: 20 rows, all of them fit.
    for (let seq = 40; seq < 52; seq += 1) {
      insertMessage(db, { id: `m${seq}`, conversationId: 'c', seq, turnId: `t${seq}`, role: seq % 2 === 0 ? 'user' : 'assistant', text: `row ${seq}`, status: 'complete', tokenEstimate: 10, createdAt: NOW });
    }
    const kept = scanLivePath(db, 'c', 200, 0, { trim: { storedFromSeq: 32, keepTokens: 80 } });
    expect(kept).toMatchObject({ cutFromSeq: 32, fittingTokens: 200, outsideRows: 32 });
    expect(kept.fitting.at(-1)?.seq).toBe(32);
    // One more row and they no longer fit: the next cut, back to eight rows.
    insertMessage(db, { id: 'm52', conversationId: 'c', seq: 52, turnId: 't52', role: 'user', text: 'row 52', status: 'complete', tokenEstimate: 10, createdAt: NOW });
    expect(scanLivePath(db, 'c', 200, 0, { trim: { storedFromSeq: 32, keepTokens: 80 } })).toMatchObject({ cutFromSeq: 45, fittingTokens: 80, outsideRows: 45 });
  });

  it('keeps at least the newest row, and has no cut while every row fits', () => {
    const db = openTestDatabase();
    seed(db, 10, 10);
    expect(scanLivePath(db, 'c', 50, 0, { trim: { storedFromSeq: null, keepTokens: 5 } })).toMatchObject({ cutFromSeq: 9, fittingTokens: 10, outsideRows: 9 });
    expect(scanLivePath(db, 'c', 500, 0, { trim: { storedFromSeq: 3, keepTokens: 5 } })).toMatchObject({ cutFromSeq: null, fittingTokens: 100, outsideRows: 0 });
  });
});

describe('running totals', () => {
  /** Each row's totals as a recount from scratch gives them: the estimates and rows before it, failed replies left out. */
  function recount(db: AppDatabase): Array<[number, number | null, number | null]> {
    const rows = db.$client
      .prepare("SELECT seq, kind, status, token_estimate AS tokens, replayed_tokens_through AS tokensThrough, replayed_rows_through AS rowsThrough FROM messages WHERE conversation_id = 'c' ORDER BY seq")
      .all() as Array<{ seq: number; kind: string; status: string; tokens: number; tokensThrough: number | null; rowsThrough: number | null }>;
    let tokens = 0;
    let count = 0;
    return rows.map((row) => {
      if (row.kind === 'summary') return [row.seq, null, null];
      if (row.status !== 'failed') {
        tokens += row.tokens;
        count += 1;
      }
      return [row.seq, tokens, count];
    });
  }
  const stored = (db: AppDatabase) =>
    (db.$client.prepare("SELECT seq, replayed_tokens_through AS t, replayed_rows_through AS r FROM messages WHERE conversation_id = 'c' ORDER BY seq").all() as Array<{ seq: number; t: number | null; r: number | null }>).map(
      (row): [number, number | null, number | null] => [row.seq, row.t, row.r],
    );

  it('stay a recount of the rows through inserts, a reply checkpointed then failed, a summary and a repair', () => {
    const db = openTestDatabase();
    seed(db, 6, 10);
    insertMessage(db, { id: 'streaming', conversationId: 'c', seq: 6, turnId: 't6', role: 'assistant', text: '', status: 'streaming', createdAt: NOW });
    checkpointMessageText(db, 'streaming', 'x'.repeat(400), NOW);
    expect(stored(db)).toEqual(recount(db));
    finishMessage(db, 'streaming', { text: 'x'.repeat(400), status: 'failed', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 104, now: NOW });
    expect(stored(db)).toEqual(recount(db));
    summarise(db, 's1', 7, 30, 3, null);
    insertMessage(db, { id: 'after', conversationId: 'c', seq: 8, turnId: 't8', role: 'user', text: 'after the summary', status: 'complete', createdAt: NOW });
    expect(stored(db)).toEqual(recount(db));
    expect(replaceMessageTextIfUnchanged(db, 'm00001', 'row 1', 'row 1 but longer now', NOW)).toBe(true);
    recomputeTotalsOfMessages(db, ['m00001']);
    expect(stored(db)).toEqual(recount(db));
    // Six rows of 10, the repaired one 3 tokens longer, the failed reply nothing, the last row 5 tokens and its framing.
    expect(stored(db).at(-1)).toEqual([8, 10 * 6 + 3 + 5 + 4, 7]);
  });

  it('count what lies outside the window without reading it, the same as an aggregate over the rows', () => {
    const db = openTestDatabase();
    seed(db, 3_000, 10, (seq) => (seq % 97 === 0 ? 'failed' : 'complete'));
    summarise(db, 's1', 3_000, 30, 999, null);
    const path = scanLivePath(db, 'c', 1_000);
    const aggregate = db.$client
      .prepare("SELECT count(*) AS rows, sum(token_estimate) AS tokens FROM messages WHERE conversation_id = 'c' AND kind != 'summary' AND status != 'failed' AND seq < ?")
      .get(path.fitting.at(-1)!.seq) as { rows: number; tokens: number };
    // The summary reaches only row 999: every older row, covered or not, is left out.
    expect(path.summary).toBeNull();
    expect(path.outsideRows).toBe(aggregate.rows);
    expect(path.outsideTokens).toBe(aggregate.tokens);
  });
});
