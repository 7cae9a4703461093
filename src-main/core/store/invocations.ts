import type { InvocationView } from '../../../src-shared/api';
import { toolInvocations } from '../../../db/schema';
import { imageFacts } from '../../../src-shared/tool-images';
import { handMappedQuery, parseJsonColumn } from './messages';
import type { AppDatabase } from './open';
import { committedRow } from './statements';

export type InvocationRow = typeof toolInvocations.$inferSelect;
export type NewInvocation = typeof toolInvocations.$inferInsert;

export function insertInvocation(db: AppDatabase, invocation: NewInvocation): InvocationRow {
  return committedRow(db, () => db.insert(toolInvocations).values(invocation).returning().get());
}

/** The ids come as one JSON array parameter, so one prepared statement serves every batch size. */
const selectInvocationsOfMessages = handMappedQuery(
  toolInvocations,
  'WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, seq',
  (values): InvocationRow => ({
    id: values[0] as string,
    turnId: values[1] as string,
    messageId: values[2] as string,
    seq: values[3] as number,
    kind: values[4] as InvocationRow['kind'],
    server: values[5] as string | null,
    tool: values[6] as string,
    providerCallId: values[7] as string | null,
    input: parseJsonColumn(values[8]),
    output: values[9] as string | null,
    status: values[10] as InvocationRow['status'],
    opaque: parseJsonColumn(values[11]),
    startedAt: values[12] as string,
    endedAt: values[13] as string | null,
    images: parseJsonColumn(values[14]) as InvocationRow['images'],
  }),
);
/** Batches of a few hundred ids read a long conversation's invocations faster than one statement over all of them. */
const MESSAGE_IDS_PER_QUERY = 500;

/** The invocations of these messages, grouped by message id, in call order. Two queries beat a JOIN. */
export function listInvocationsByMessage(db: AppDatabase, messageIds: readonly string[]): Map<string, InvocationRow[]> {
  const grouped = new Map<string, InvocationRow[]>();
  for (let start = 0; start < messageIds.length; start += MESSAGE_IDS_PER_QUERY) {
    const batch = messageIds.slice(start, start + MESSAGE_IDS_PER_QUERY);
    const rows = selectInvocationsOfMessages(db, JSON.stringify(batch));
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
    // The view names the images; their bytes stay in the store.
    ...(row.images && row.images.length > 0 ? { images: row.images.map(imageFacts) } : {}),
  };
}
