/**
 * A compaction's store side: which rows a compaction covers, and the one transaction that writes its summary and
 * folds the covered rows into it. Until that transaction commits nothing has changed; a failure or a kill before or
 * during it leaves the conversation exactly as it was.
 */
import { and, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { messages } from '../../../db/schema';
import type { BrainId } from '../../../src-shared/brains';
import { estimateMessageTokens } from '../context/token-estimate';
import { newId } from './clock';
import { newestUserSeqBefore } from './live-path';
import { getMessage, insertMessage, liveSummary, nextSeq, type MessageRow } from './messages';
import { statementCacheFor } from './statements';
import { inTransaction, type AppDatabase } from './open';
import { clearFullFlags } from './settings';

/** The rows a compaction summarises: after the previous summary's span, through `throughSeq`. */
export interface CompactionSpan {
  /**
   * The summary that stands for everything before the span, summarised again with it: one made for about this window
   * (context/summary-choice.ts), or one of history this conversation does not hold; null when the span starts at the
   * first row.
   */
  readonly previousSummary: MessageRow | null;
  /** The previous summary covers the rows at or below this seq. */
  readonly afterSeq: number;
  readonly throughSeq: number;
  /** Live rows in the span. */
  readonly rows: number;
  readonly tokens: number;
}

/**
 * Where a span to summarise ends so that the kept rows start at a user's message: a reply without the message it
 * answers reads as if nobody asked. `keptFromSeq` is the oldest row the budget keeps; rows from `protectedFromSeq` on
 * (the turn being answered) are never covered.
 */
export function spanEnd(db: AppDatabase, conversationId: string, keptFromSeq: number, protectedFromSeq: number): number {
  const limit = Math.min(keptFromSeq, protectedFromSeq);
  const firstUser = db
    .select({ seq: messages.seq })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.onLivePath, 1),
        sql`${messages.seq} >= ${limit}`,
        sql`${messages.seq} <= ${protectedFromSeq}`,
        eq(messages.role, 'user'),
      ),
    )
    .orderBy(messages.seq)
    .limit(1)
    .get();
  if (firstUser !== undefined) return firstUser.seq - 1;
  // No question at or after the limit: the limit falls inside the last turn, which is kept whole from its question.
  return (newestUserSeqBefore(db, conversationId, limit) ?? 0) - 1;
}

/** Count and tokens of the live rows with `afterSeq < seq ≤ throughSeq`, whatever summaries already cover them. */
export function measureSpan(db: AppDatabase, conversationId: string, afterSeq: number, throughSeq: number): { rows: number; tokens: number } {
  const row = db
    .select({ rows: sql<number>`count(*)`, tokens: sql<number>`coalesce(sum(${messages.tokenEstimate}), 0)` })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.onLivePath, 1),
        gt(messages.seq, afterSeq),
        lte(messages.seq, throughSeq),
        ne(messages.kind, 'summary'),
      ),
    )
    .get();
  return { rows: row?.rows ?? 0, tokens: row?.tokens ?? 0 };
}

/** The newest row of the live path folded under a summary in the conversation as shown, or -1. */
export function newestCoveredSeq(db: AppDatabase, conversationId: string): number {
  const row = db
    .select({ seq: sql<number | null>`max(${messages.seq})` })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.onLivePath, 1),
        ne(messages.kind, 'summary'),
        sql`${messages.compactedInto} IS NOT NULL`,
      ),
    )
    .get();
  return row?.seq ?? -1;
}

/** The newest row of the live path at or below `throughSeq`: the last a span ending there covers. */
export function newestRowThrough(db: AppDatabase, conversationId: string, throughSeq: number): { id: string; text: string } | null {
  return (
    db
      .select({ id: messages.id, text: messages.text })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.onLivePath, 1), ne(messages.kind, 'summary'), lte(messages.seq, throughSeq)))
      .orderBy(sql`${messages.seq} DESC`)
      .limit(1)
      .get() ?? null
  );
}

/** The window a summary is made for: its request must fit that brain's input budget. */
export interface SummaryWindow {
  readonly brain: BrainId;
  readonly model: string;
  readonly contextWindow: number;
  readonly inputBudget: number;
  /** The person asked for it (Compact now): that brain's requests hold it even while every row would fit. */
  readonly requested: boolean;
}

export interface NewSummary {
  readonly conversationId: string;
  /** The compaction's turn: its requests' usage rows carry it (a new id when absent). */
  readonly turnId?: string;
  readonly text: string;
  /** The brain and model that wrote it. */
  readonly brain: BrainId;
  readonly model: string;
  readonly madeFor: SummaryWindow;
  readonly span: CompactionSpan;
  readonly now: string;
}

export class CompactionConflictError extends Error {
  constructor() {
    super('The conversation changed while it was being summarised, so the summary was not stored. Compact again.');
    this.name = 'CompactionConflictError';
  }
}

const insertSummaryWindow = statementCacheFor(
  'INSERT INTO summary_windows (summary_id, brain, model, context_window, input_budget, requested) VALUES (?, ?, ?, ?, ?, ?)',
);

/**
 * Writes the summary and the window it was made for, in one transaction, and folds it into the conversation as shown:
 * a summary reaching further than any before folds the rows it covers and the summary shown before it; one covering
 * less (made for a larger window) is folded under the summary shown, beside the rows it covers. Which history a
 * request holds is chosen each turn for its brain's window (store/live-path.ts). Refuses if the span changed.
 */
/** `covered`: the rows the summary summarised (the span's). */
export function storeSummary(db: AppDatabase, summary: NewSummary): { row: MessageRow; covered: number } {
  const { conversationId, span, now, madeFor } = summary;
  return inTransaction(db, () => {
    const current = measureSpan(db, conversationId, span.afterSeq, span.throughSeq);
    const previousKept = span.previousSummary === null || getMessage(db, span.previousSummary.id) !== null;
    if (current.rows !== span.rows || !previousKept) throw new CompactionConflictError();
    const through = newestRowThrough(db, conversationId, span.throughSeq);
    const shown = liveSummary(db, conversationId);
    const shownThroughSeq = newestCoveredSeq(db, conversationId);
    const row = insertMessage(db, {
      id: newId(),
      conversationId,
      seq: nextSeq(db, conversationId),
      turnId: summary.turnId ?? newId(),
      role: 'system',
      kind: 'summary',
      text: summary.text,
      status: 'complete',
      brain: summary.brain,
      modelRequested: summary.model,
      tokenEstimate: estimateMessageTokens(summary.text),
      coversThroughId: through?.id ?? null,
      createdAt: now,
    });
    insertSummaryWindow(db).run(row.id, madeFor.brain, madeFor.model, madeFor.contextWindow, madeFor.inputBudget, madeFor.requested ? 1 : 0);
    clearFullFlags(db, conversationId, now);
    if (shown !== null && span.throughSeq <= shownThroughSeq) {
      db.update(messages).set({ compactedInto: shown.id, updatedAt: now }).where(eq(messages.id, row.id)).run();
      return { row: { ...row, compactedInto: shown.id }, covered: span.rows };
    }
    db.update(messages)
      .set({ compactedInto: row.id, updatedAt: now })
      .where(
        and(
          eq(messages.conversationId, conversationId),
          isNull(messages.compactedInto),
          ne(messages.id, row.id),
          or(
            and(eq(messages.onLivePath, 1), ne(messages.kind, 'summary'), lte(messages.seq, span.throughSeq)),
            shown === null ? sql`0` : inArray(messages.id, [shown.id]),
          ),
        ),
      )
      .run();
    return { row, covered: span.rows };
  });
}

/**
 * An imported summary's fold: the rows through `coversThroughId` and any earlier summary no summary covers yet get
 * `compacted_into` the summary, as a compaction did when the summary was written.
 */
export function foldIntoSummary(db: AppDatabase, conversationId: string, summaryId: string, coversThroughId: string): void {
  const summary = getMessage(db, summaryId);
  const through = getMessage(db, coversThroughId);
  if (summary === null || through === null) return;
  db.update(messages)
    .set({ compactedInto: summaryId })
    .where(
      and(
        eq(messages.conversationId, conversationId),
        isNull(messages.compactedInto),
        ne(messages.id, summaryId),
        or(
          and(eq(messages.onLivePath, 1), ne(messages.kind, 'summary'), lte(messages.seq, through.seq)),
          and(eq(messages.kind, 'summary'), sql`${messages.seq} < ${summary.seq}`),
        ),
      ),
    )
    .run();
}
