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
import { getMessage, insertMessage, nextSeq, type MessageRow } from './messages';
import { inTransaction, type AppDatabase } from './open';
import { clearFullFlags } from './settings';

/** The rows a compaction summarises: after the path's start, through `throughSeq`. */
export interface CompactionSpan {
  /** The summary that stands for everything before the span, summarised again with it; null on a first compaction. */
  readonly previousSummary: MessageRow | null;
  /** Rows at or below this seq are already covered. */
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
        isNull(messages.compactedInto),
      ),
    )
    .orderBy(messages.seq)
    .limit(1)
    .get();
  return (firstUser?.seq ?? limit) - 1;
}

/** Count and tokens of the live rows with `afterSeq < seq ≤ throughSeq`. */
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
        isNull(messages.compactedInto),
        ne(messages.kind, 'summary'),
      ),
    )
    .get();
  return { rows: row?.rows ?? 0, tokens: row?.tokens ?? 0 };
}

/** The newest row of the live path a summary already covers, or -1. */
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

export interface NewSummary {
  readonly conversationId: string;
  readonly text: string;
  readonly brain: BrainId;
  readonly model: string;
  readonly span: CompactionSpan;
  readonly now: string;
}

export class CompactionConflictError extends Error {
  constructor() {
    super('The conversation changed while it was being summarised, so the summary was not stored. Compact again.');
    this.name = 'CompactionConflictError';
  }
}

/**
 * Writes the summary and folds the span into it, in one transaction: the summary row, `compacted_into` on every live
 * row of the span and on the previous summary, and no brain marked full any more. Refuses if the span changed.
 */
export function storeSummary(db: AppDatabase, summary: NewSummary): { row: MessageRow; covered: number } {
  const { conversationId, span, now } = summary;
  return inTransaction(db, () => {
    const current = measureSpan(db, conversationId, span.afterSeq, span.throughSeq);
    const previousStillLive = span.previousSummary === null || getMessage(db, span.previousSummary.id)?.compactedInto === null;
    if (current.rows !== span.rows || !previousStillLive || newestCoveredSeq(db, conversationId) > span.afterSeq) {
      throw new CompactionConflictError();
    }
    const through = db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(eq(messages.conversationId, conversationId), eq(messages.onLivePath, 1), ne(messages.kind, 'summary'), lte(messages.seq, span.throughSeq)),
      )
      .orderBy(sql`${messages.seq} DESC`)
      .limit(1)
      .get();
    const row = insertMessage(db, {
      id: newId(),
      conversationId,
      seq: nextSeq(db, conversationId),
      turnId: newId(),
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
    const folded = db
      .update(messages)
      .set({ compactedInto: row.id, updatedAt: now })
      .where(
        and(
          eq(messages.conversationId, conversationId),
          isNull(messages.compactedInto),
          ne(messages.id, row.id),
          or(
            and(eq(messages.onLivePath, 1), ne(messages.kind, 'summary'), gt(messages.seq, span.afterSeq), lte(messages.seq, span.throughSeq)),
            span.previousSummary === null ? sql`0` : inArray(messages.id, [span.previousSummary.id]),
          ),
        ),
      )
      .run().changes;
    clearFullFlags(db, conversationId, now);
    return { row, covered: folded };
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
