import { describe, expect, it } from 'vitest';
import { estimateMessageTokens } from '../context/token-estimate';
import { newId } from './clock';
import { storeSummary } from './compaction';
import { insertConversation } from './conversations';
import { getMessage, insertMessage, type MessageRow } from './messages';
import type { AppDatabase } from './open';
import { scanLivePath } from './live-path';
import { openTestDatabase } from './test-database';

const NOW = '2026-12-01T10:00:00.000Z';
const ROW_TOKENS = 10;

/** Rows `fromSeq`..`toSeq` of ten tokens each, alternating user and assistant; `failedSeqs` are failed replies. */
function addRows(db: AppDatabase, fromSeq: number, toSeq: number, failedSeqs: readonly number[] = []): void {
  for (let seq = fromSeq; seq <= toSeq; seq += 1) {
    insertMessage(db, {
      id: newId(),
      conversationId: 'c1',
      seq,
      turnId: newId(),
      role: seq % 2 === 0 ? 'user' : 'assistant',
      text: `row ${seq}`,
      status: failedSeqs.includes(seq) ? 'failed' : 'complete',
      tokenEstimate: ROW_TOKENS,
      createdAt: NOW,
    });
  }
}

function compact(db: AppDatabase, previousSummary: MessageRow | null, afterSeq: number, throughSeq: number, text: string): MessageRow {
  const rows = throughSeq - afterSeq;
  return storeSummary(db, {
    conversationId: 'c1',
    text,
    brain: 'claude',
    model: 'claude-sonnet-4-6',
    span: { previousSummary, afterSeq, throughSeq, rows, tokens: rows * ROW_TOKENS },
    now: NOW,
  }).row;
}

/**
 * Rows 0–39 (row 25 a failed reply), the first summary over 0–9 (seq 40), rows 41–60, then a second summary over the
 * first and rows 10–19 (seq 61): the live path is the second summary, then rows 20–60 without the failed row 25.
 */
function twiceCompacted() {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'Long talk', brain: 'claude', model: null, now: NOW });
  addRows(db, 0, 39, [25]);
  const first = compact(db, null, -1, 9, 'The first ten rows.');
  addRows(db, 41, 60);
  const second = compact(db, getMessage(db, first.id), 9, 19, 'The first summary and rows ten to nineteen.');
  return { db, second };
}

describe('scanLivePath', () => {
  it('stopped for room after two compactions: counts the live rows down to the newest covered one, and the live summary outside', () => {
    const { db, second } = twiceCompacted();
    const path = scanLivePath(db, 'c1', 5 * ROW_TOKENS);
    expect(path.fitting.map((entry) => entry.seq)).toEqual([60, 59, 58, 57, 56]);
    expect(path.fittingTokens).toBe(50);
    expect(path.summary).toEqual({ id: second.id, tokens: estimateMessageTokens('The first summary and rows ten to nineteen.') });
    expect(path.summaryOutside).toBe(true);
    // Rows 41–55 and 20–39 less the failed row 25, and the summary.
    expect(path.outsideRows).toBe(15 + 19 + 1);
    expect(path.outsideTokens).toBe((15 + 19) * ROW_TOKENS + estimateMessageTokens('The first summary and rows ten to nineteen.'));
  });

  it('reaching the newest covered row: every live row fits and the live summary with them', () => {
    const { db, second } = twiceCompacted();
    const summaryTokens = estimateMessageTokens('The first summary and rows ten to nineteen.');
    const path = scanLivePath(db, 'c1', 39 * ROW_TOKENS + summaryTokens);
    // Rows 20–60 less the first summary's seq (40) and the failed row 25.
    expect(path.fitting).toHaveLength(39);
    expect(path.fitting[path.fitting.length - 1]!.seq).toBe(20);
    expect(path.summary?.id).toBe(second.id);
    expect(path.summaryOutside).toBe(false);
    expect(path.fittingTokens).toBe(39 * ROW_TOKENS + summaryTokens);
    expect([path.outsideRows, path.outsideTokens]).toEqual([0, 0]);
  });

  it('stopped for room in a conversation never compacted: no summary, every older replayed row outside', () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'c1', title: 'Long talk', brain: 'claude', model: null, now: NOW });
    addRows(db, 0, 29, [3]);
    const path = scanLivePath(db, 'c1', 3 * ROW_TOKENS);
    expect(path.fitting.map((entry) => entry.seq)).toEqual([29, 28, 27]);
    expect(path.summary).toBeNull();
    expect([path.summaryOutside, path.outsideRows, path.outsideTokens]).toEqual([false, 26, 26 * ROW_TOKENS]);
  });
});
