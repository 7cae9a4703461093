/**
 * `anybrain doctor` counts and `anybrain repair`: dry run by default, apply in one transaction with every changed
 * text logged, and undo that restores exactly what the last apply changed.
 */
import { REPAIR_KINDS, type RepairKind } from '../../../src-shared/api';
import { newId, nowIso } from '../store/clock';
import { inTransaction, type AppDatabase } from '../store/open';
import {
  deleteRepair,
  insertRepairChange,
  iterateModelWrittenRows,
  latestRepair,
  listRepairChanges,
  recomputeTotalsOfMessages,
  replaceMessageTextIfUnchanged,
} from '../store/repairs';
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

export function planRepair(db: AppDatabase, kind: RepairKind): RepairChange[] {
  const changes: RepairChange[] = [];
  for (const row of iterateModelWrittenRows(db)) {
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
      if (!replaceMessageTextIfUnchanged(db, change.messageId, change.before, change.after, now)) throw new Error(`Message ${change.messageId} changed while the repair ran; nothing was changed. Run it again.`);
      insertRepairChange(db, { repairId, kind, messageId: change.messageId, beforeText: change.before, afterText: change.after, appliedAt: now });
    }
    recomputeTotalsOfMessages(db, changes.map((change) => change.messageId));
    if (kind === 'quote-escapes') {
      const total = changes.reduce((sum, change) => sum + change.count, 0);
      if (total > 0) incrementCounter(db, QUOTE_ESCAPE_COUNTER, total);
    }
  });
  return { repairId, changed: changes.length };
}

/** Restores every text the last apply changed, unless it was edited since (those are skipped and counted). */
export function undoLastRepair(db: AppDatabase): { kind: RepairKind | null; restored: number; skipped: number } {
  const latest = latestRepair(db);
  if (!latest) return { kind: null, restored: 0, skipped: 0 };
  return inTransaction(db, () => {
    let restored = 0;
    let skipped = 0;
    const changed = listRepairChanges(db, latest.repairId);
    for (const row of changed) {
      if (replaceMessageTextIfUnchanged(db, row.messageId, row.afterText, row.beforeText, nowIso())) restored += 1;
      else skipped += 1;
    }
    recomputeTotalsOfMessages(db, changed.map((row) => row.messageId));
    deleteRepair(db, latest.repairId);
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
  for (const row of iterateModelWrittenRows(db)) {
    if (row.role === 'assistant' && hasChrome(row.text)) chromeRows += 1;
    if (normalizeQuoteEscapes(row.text).normalized > 0) quoteEscapeRows += 1;
  }
  return { chromeRows, quoteEscapeRows };
}
