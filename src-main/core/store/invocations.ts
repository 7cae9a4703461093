import { inArray } from 'drizzle-orm';
import type { InvocationView } from '../../../src-shared/api';
import { toolInvocations } from '../../../db/schema';
import type { AppDatabase } from './open';

export type InvocationRow = typeof toolInvocations.$inferSelect;
export type NewInvocation = typeof toolInvocations.$inferInsert;

export function insertInvocation(db: AppDatabase, invocation: NewInvocation): InvocationRow {
  return db.insert(toolInvocations).values(invocation).returning().get();
}

/** The invocations of these messages, grouped by message id, in call order. Two queries beat a JOIN. */
export function listInvocationsByMessage(db: AppDatabase, messageIds: readonly string[]): Map<string, InvocationRow[]> {
  const grouped = new Map<string, InvocationRow[]>();
  // SQLite caps bound parameters per statement; ask in batches.
  for (let start = 0; start < messageIds.length; start += 500) {
    const batch = messageIds.slice(start, start + 500);
    const rows = db
      .select()
      .from(toolInvocations)
      .where(inArray(toolInvocations.messageId, batch))
      .orderBy(toolInvocations.messageId, toolInvocations.seq)
      .all();
    for (const row of rows) {
      const list = grouped.get(row.messageId);
      if (list) list.push(row);
      else grouped.set(row.messageId, [row]);
    }
  }
  return grouped;
}

export function toInvocationView(row: InvocationRow): InvocationView {
  return {
    id: row.id,
    turnId: row.turnId,
    messageId: row.messageId,
    seq: row.seq,
    kind: row.kind,
    server: row.server,
    tool: row.tool,
    input: row.input ?? {},
    output: row.output,
    status: row.status,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
  };
}
