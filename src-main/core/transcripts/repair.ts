/**
 * `anybrain doctor` counts and `anybrain repair`: dry run by default, apply in one transaction with every changed
 * text logged, and undo that restores exactly what the last apply changed.
 */
import { and, desc, eq } from 'drizzle-orm';
import { messages, repairChanges } from '../../../db/schema';
import { REPAIR_KINDS, type RepairKind } from '../../../src-shared/api';
import { newId, nowIso } from '../store/clock';
import { estimateTokens } from '../context/token-estimate';
import { inTransaction, type AppDatabase } from '../store/open';
import { incrementCounter } from '../store/settings';
import { hasChrome, stripChrome } from './chrome';
import { normalizeQuoteEscapes } from './quote-escapes';

export { REPAIR_KINDS, type RepairKind };
export const QUOTE_ESCAPE_COUNTER = 'quote_escape_normalizations';

export interface RepairChange {
  readonly messageId: string;
  readonly conversationId: string;
  readonly before: string;
  readonly after: string;
  /** Quote escapes normalised in this text (quote-escapes only). */
  readonly count: number;
}

/** Replies and summaries: the rows a model wrote, where chrome and escapes come from. */
function modelWrittenRows(db: AppDatabase): IterableIterator<{ id: string; conversationId: string; text: string; role: string }> {
  // Streamed row by row: a large history never sits in memory at once.
  return db.$client
    .prepare(
      "SELECT id, conversation_id AS conversationId, text, role FROM messages WHERE role = 'assistant' OR kind = 'summary' ORDER BY conversation_id, seq",
    )
    .iterate() as IterableIterator<{ id: string; conversationId: string; text: string; role: string }>;
}

export function planRepair(db: AppDatabase, kind: RepairKind): RepairChange[] {
  const changes: RepairChange[] = [];
  for (const row of modelWrittenRows(db)) {
    if (kind === 'quote-escapes') {
      const { text, normalized } = normalizeQuoteEscapes(row.text);
      if (normalized > 0) changes.push({ messageId: row.id, conversationId: row.conversationId, before: row.text, after: text, count: normalized });
    } else if (row.role === 'assistant' && hasChrome(row.text)) {
      changes.push({ messageId: row.id, conversationId: row.conversationId, before: row.text, after: stripChrome(row.text), count: 1 });
    }
  }
  return changes;
}

export function applyRepair(db: AppDatabase, kind: RepairKind, changes: readonly RepairChange[]): { repairId: string; changed: number } {
  const repairId = newId();
  const now = nowIso();
  inTransaction(db, () => {
    for (const change of changes) {
      const updated = db
        .update(messages)
        .set({ text: change.after, tokenEstimate: estimateTokens(change.after), updatedAt: now })
        .where(and(eq(messages.id, change.messageId), eq(messages.text, change.before)))
        .run();
      if (updated.changes !== 1) throw new Error(`Message ${change.messageId} changed while the repair ran; nothing was changed. Run it again.`);
      db.insert(repairChanges)
        .values({ repairId, kind, messageId: change.messageId, beforeText: change.before, afterText: change.after, appliedAt: now })
        .run();
    }
    if (kind === 'quote-escapes') {
      const total = changes.reduce((sum, change) => sum + change.count, 0);
      if (total > 0) incrementCounter(db, QUOTE_ESCAPE_COUNTER, total);
    }
  });
  return { repairId, changed: changes.length };
}

/** Restores every text the last apply changed, unless it was edited since (those are skipped and counted). */
export function undoLastRepair(db: AppDatabase): { kind: RepairKind | null; restored: number; skipped: number } {
  const latest = db.select({ repairId: repairChanges.repairId, kind: repairChanges.kind }).from(repairChanges).orderBy(desc(repairChanges.appliedAt), desc(repairChanges.repairId)).get();
  if (!latest) return { kind: null, restored: 0, skipped: 0 };
  return inTransaction(db, () => {
    let restored = 0;
    let skipped = 0;
    const rows = db.select().from(repairChanges).where(eq(repairChanges.repairId, latest.repairId)).all();
    for (const row of rows) {
      const updated = db
        .update(messages)
        .set({ text: row.beforeText, tokenEstimate: estimateTokens(row.beforeText), updatedAt: nowIso() })
        .where(and(eq(messages.id, row.messageId), eq(messages.text, row.afterText)))
        .run();
      if (updated.changes === 1) restored += 1;
      else skipped += 1;
    }
    db.delete(repairChanges).where(eq(repairChanges.repairId, latest.repairId)).run();
    return { kind: latest.kind, restored, skipped };
  });
}

export interface TextHealth {
  /** Assistant rows whose text carries renderer chrome. */
  readonly chromeRows: number;
  /** Reply or summary rows that still hold a lone `\"` outside code. */
  readonly quoteEscapeRows: number;
}

export function measureTextHealth(db: AppDatabase): TextHealth {
  let chromeRows = 0;
  let quoteEscapeRows = 0;
  for (const row of modelWrittenRows(db)) {
    if (row.role === 'assistant' && hasChrome(row.text)) chromeRows += 1;
    if (normalizeQuoteEscapes(row.text).normalized > 0) quoteEscapeRows += 1;
  }
  return { chromeRows, quoteEscapeRows };
}
