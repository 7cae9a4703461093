/**
 * The rows `anybrain repair` reads and writes: model-written texts, the log of what an apply changed, and the
 * guarded text replacement both apply and undo use.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { messages, repairChanges } from '../../../db/schema';
import { estimateTokens } from '../context/token-estimate';
import { recomputeReplayedTotals } from './messages';
import type { AppDatabase } from './open';

export type RepairKind = (typeof repairChanges.$inferSelect)['kind'];
export type RepairChangeRow = typeof repairChanges.$inferSelect;

export interface ModelWrittenRow {
  readonly id: string;
  readonly conversationId: string;
  readonly text: string;
  readonly role: string;
}

/** Replies and summaries: the rows a model wrote, where chrome and escapes come from. */
export function iterateModelWrittenRows(db: AppDatabase): IterableIterator<ModelWrittenRow> {
  // Streamed row by row: a large history never sits in memory at once.
  return db.$client
    .prepare(
      "SELECT id, conversation_id AS conversationId, text, role FROM messages WHERE role = 'assistant' OR kind = 'summary' ORDER BY conversation_id, seq",
    )
    .iterate() as IterableIterator<ModelWrittenRow>;
}

/**
 * Replaces a message's text only if it still reads `expected`; says whether it did. The row's estimate moves by what
 * its words changed (its calls and framing stay counted); the conversation's running totals are rebuilt once after a
 * whole repair, with `recomputeTotalsOfMessages`.
 */
export function replaceMessageTextIfUnchanged(db: AppDatabase, messageId: string, expected: string, replacement: string, now: string): boolean {
  const difference = estimateTokens(replacement) - estimateTokens(expected);
  const updated = db
    .update(messages)
    .set({ text: replacement, tokenEstimate: sql`${messages.tokenEstimate} + ${difference}`, updatedAt: now })
    .where(and(eq(messages.id, messageId), eq(messages.text, expected)))
    .run();
  return updated.changes === 1;
}

/** Rebuilds the running totals of the conversations these messages belong to. */
export function recomputeTotalsOfMessages(db: AppDatabase, messageIds: readonly string[]): void {
  const conversations = new Set<string>();
  for (const id of messageIds) {
    const row = db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, id)).get();
    if (row) conversations.add(row.conversationId);
  }
  for (const conversationId of conversations) recomputeReplayedTotals(db, conversationId);
}

export function insertRepairChange(db: AppDatabase, change: RepairChangeRow): void {
  db.insert(repairChanges).values(change).run();
}

/** The last apply's id and kind, or null when no apply is on record. */
export function latestRepair(db: AppDatabase): { repairId: string; kind: RepairKind } | null {
  return (
    db
      .select({ repairId: repairChanges.repairId, kind: repairChanges.kind })
      .from(repairChanges)
      .orderBy(desc(repairChanges.appliedAt), desc(repairChanges.repairId))
      .get() ?? null
  );
}

export function listRepairChanges(db: AppDatabase, repairId: string): RepairChangeRow[] {
  return db.select().from(repairChanges).where(eq(repairChanges.repairId, repairId)).all();
}

export function deleteRepair(db: AppDatabase, repairId: string): void {
  db.delete(repairChanges).where(eq(repairChanges.repairId, repairId)).run();
}
