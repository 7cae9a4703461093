import { describe, expect, it } from 'vitest';
import { estimateMessageTokens } from '../context/token-estimate';
import { newId } from './clock';
import { spanEnd, storeSummary } from './compaction';
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
    madeFor: { brain: 'claude', model: 'claude-sonnet-4-6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
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
  const secondTokens = estimateMessageTokens('The first summary and rows ten to nineteen.');
  const firstTokens = estimateMessageTokens('The first ten rows.');

  it('every row fits: the request holds every row, those two summaries cover included, and no summary', () => {
    const { db } = twiceCompacted();
    const path = scanLivePath(db, 'c1');
    // Rows 0–60 less the first summary's seq (40) and the failed row 25.
    expect(path.fitting).toHaveLength(59);
    expect(path).toMatchObject({ summary: null, fittingTokens: 590, outsideRows: 0, outsideTokens: 0 });
  });

  it('stopped for room after two compactions, neither summary reaching the rows that fit: every older live row outside', () => {
    const { db } = twiceCompacted();
    const path = scanLivePath(db, 'c1', 5 * ROW_TOKENS);
    expect(path.fitting.map((entry) => entry.seq)).toEqual([60, 59, 58, 57, 56]);
    expect(path.fittingTokens).toBe(50);
    expect(path.summary).toBeNull();
    // Rows 0–55 less the failed row 25 and the first summary's seq.
    expect(path.outsideRows).toBe(54);
    expect(path.outsideTokens).toBe(54 * ROW_TOKENS);
  });

  it('room for the rows after the second summary: that summary stands for everything before them', () => {
    const { db, second } = twiceCompacted();
    const path = scanLivePath(db, 'c1', 39 * ROW_TOKENS + secondTokens);
    // Rows 20–60 less the first summary's seq (40) and the failed row 25.
    expect(path.fitting).toHaveLength(39);
    expect(path.fitting[path.fitting.length - 1]!.seq).toBe(20);
    expect(path.summary).toEqual({ id: second.id, tokens: secondTokens, madeFor: { brain: 'claude', model: 'claude-sonnet-4-6', contextWindow: 200_000, requested: false } });
    expect(path.fittingTokens).toBe(39 * ROW_TOKENS + secondTokens);
    expect([path.outsideRows, path.outsideTokens]).toEqual([0, 0]);
  });

  it('room for the rows after the first summary: the less compressed first summary stands, though the second covers it', () => {
    const { db } = twiceCompacted();
    const path = scanLivePath(db, 'c1', 49 * ROW_TOKENS + firstTokens);
    expect(path.fitting).toHaveLength(49);
    expect(path.fitting[path.fitting.length - 1]!.seq).toBe(10);
    expect(path.summary?.tokens).toBe(firstTokens);
    expect(getMessage(db, path.summary!.id)?.text).toBe('The first ten rows.');
  });

  it('stopped for room in a conversation never compacted: no summary, every older replayed row outside', () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'c1', title: 'Long talk', brain: 'claude', model: null, now: NOW });
    addRows(db, 0, 29, [3]);
    const path = scanLivePath(db, 'c1', 3 * ROW_TOKENS);
    expect(path.fitting.map((entry) => entry.seq)).toEqual([29, 28, 27]);
    expect(path.summary).toBeNull();
    expect([path.outsideRows, path.outsideTokens]).toEqual([26, 26 * ROW_TOKENS]);
  });
});

describe('spanEnd', () => {
  it('ends a span before a question, so a turn is folded whole, even when the rows kept begin inside the last turn', () => {
    const db = openTestDatabase();
    insertConversation(db, { id: 'c1', title: 'Long talk', brain: 'claude', model: null, now: NOW });
    addRows(db, 0, 9);
    // Rows kept from 5 (a reply): the span ends before its question's successor, question 6.
    expect(spanEnd(db, 'c1', 5, Number.MAX_SAFE_INTEGER)).toBe(5);
    // Rows kept from 9, the last reply: its question (8) stays with it.
    expect(spanEnd(db, 'c1', 9, Number.MAX_SAFE_INTEGER)).toBe(7);
    // The turn being answered (from 8) is never folded.
    expect(spanEnd(db, 'c1', 9, 8)).toBe(7);
  });
});
