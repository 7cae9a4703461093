/**
 * Attachment rows: one per file attached to a user message, or waiting to be sent (`message_id` NULL). The bytes are
 * not here: `<dataDir>/attachments/<sha256>` holds them once per content (core/attachments/attachment-files.ts), and a
 * file stays while any row names its sha256.
 */
import type { AttachmentView } from '../../../src-shared/api';
import type { AttachmentKind } from '../../../src-shared/attachments';
import { ApiError } from '../../../src-shared/api';
import { attachments } from '../../../db/schema';
import { newId } from './clock';
import type { AppDatabase } from './open';
import { committedRow, statementCacheFor } from './statements';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;

const COLUMNS = 'id, message_id AS messageId, name, media_type AS mediaType, kind, size, sha256, width, height, pages, created_at AS createdAt';

export function toAttachmentView(row: AttachmentRow): AttachmentView {
  return {
    id: row.id,
    name: row.name,
    mediaType: row.mediaType,
    kind: row.kind as AttachmentKind,
    size: row.size,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
  };
}

export function insertAttachment(db: AppDatabase, row: NewAttachment): void {
  db.insert(attachments).values(row).run();
}

const selectAttachment = statementCacheFor(`SELECT ${COLUMNS} FROM attachments WHERE id = ?`);

export function getAttachment(db: AppDatabase, id: string): AttachmentRow | null {
  return (selectAttachment(db).get(id) as AttachmentRow | undefined) ?? null;
}

/** The ids come as one JSON array parameter, so one prepared statement serves every batch size. */
const selectOfMessages = statementCacheFor(
  `SELECT ${COLUMNS} FROM attachments WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, rowid`,
);
const MESSAGE_IDS_PER_QUERY = 500;

/** The rows of these messages, by message id, each message's in the order they were added. */
export function attachmentRowsOfMessages(db: AppDatabase, messageIds: readonly string[]): Map<string, AttachmentRow[]> {
  const grouped = new Map<string, AttachmentRow[]>();
  for (let start = 0; start < messageIds.length; start += MESSAGE_IDS_PER_QUERY) {
    const batch = messageIds.slice(start, start + MESSAGE_IDS_PER_QUERY);
    for (const row of selectOfMessages(db).all(JSON.stringify(batch)) as AttachmentRow[]) {
      const list = grouped.get(row.messageId!);
      if (list) list.push(row);
      else grouped.set(row.messageId!, [row]);
    }
  }
  return grouped;
}

/** The views of these messages' attachments, by message id, in insertion order; a message with none is absent. */
export function attachmentsOfMessages(db: AppDatabase, messageIds: readonly string[]): Map<string, AttachmentView[]> {
  const views = new Map<string, AttachmentView[]>();
  for (const [messageId, rows] of attachmentRowsOfMessages(db, messageIds)) views.set(messageId, rows.map(toAttachmentView));
  return views;
}

const selectPending = statementCacheFor(`SELECT ${COLUMNS} FROM attachments WHERE id = ? AND message_id IS NULL`);

/**
 * The pending rows `attachmentIds` name, in the order added; refused when one was removed or already sent (a second
 * send of the same ids, or two windows sending them at once).
 */
export function pendingAttachments(db: AppDatabase, attachmentIds: readonly string[]): AttachmentRow[] {
  const rows = [...new Set(attachmentIds)].map((id) => selectPending(db).get(id) as AttachmentRow | undefined);
  if (rows.some((row) => row === undefined)) {
    throw new ApiError('attachment-missing', 'An attached file was removed or already sent with another message. Attach it again.');
  }
  // Ids are ULIDs, minted in order: sorted, they are the order the files were added.
  return (rows as AttachmentRow[]).sort((left, right) => (left.id < right.id ? -1 : 1));
}

const linkOne = statementCacheFor('UPDATE attachments SET message_id = ? WHERE id = ? AND message_id IS NULL');

/** Gives pending attachments their message; call inside the transaction that stores the message. */
export function linkAttachments(db: AppDatabase, messageId: string, attachmentIds: readonly string[]): void {
  for (const id of attachmentIds) {
    if (linkOne(db).run(messageId, id).changes !== 1) {
      throw new ApiError('attachment-missing', 'An attached file was removed or already sent with another message. Attach it again.');
    }
  }
}

const copyOfMessage = statementCacheFor(
  `INSERT INTO attachments (id, message_id, name, media_type, kind, size, sha256, width, height, pages, created_at)
   SELECT ?, ?, name, media_type, kind, size, sha256, width, height, pages, ? FROM attachments WHERE id = ?`,
);

/** The attachments of `fromMessageId` again on `toMessageId` (an edited message keeps its files): new rows, same files. */
export function copyAttachments(db: AppDatabase, fromMessageId: string, toMessageId: string, now: string): void {
  const rows = attachmentRowsOfMessages(db, [fromMessageId]).get(fromMessageId) ?? [];
  for (const row of rows) copyOfMessage(db).run(newId(), toMessageId, now, row.id);
}

const deletePending = statementCacheFor('DELETE FROM attachments WHERE id = ? AND message_id IS NULL RETURNING sha256');

/** Deletes a pending attachment and answers its sha256; null when there is no pending attachment of that id. */
export function deletePendingAttachment(db: AppDatabase, id: string): string | null {
  return (committedRow(db, () => deletePending(db).get(id)) as { sha256: string } | undefined)?.sha256 ?? null;
}

const selectShasOfConversation = statementCacheFor(
  'SELECT DISTINCT attachments.sha256 FROM attachments JOIN messages ON messages.id = attachments.message_id WHERE messages.conversation_id = ?',
);

/** The files a conversation's messages use, before it is deleted (its rows go with it, by cascade). */
export function attachmentShasOfConversation(db: AppDatabase, conversationId: string): string[] {
  return (selectShasOfConversation(db).all(conversationId) as { sha256: string }[]).map((row) => row.sha256);
}

const deleteStale = statementCacheFor('DELETE FROM attachments WHERE message_id IS NULL AND created_at < ? RETURNING sha256');

/** Deletes the attachments added before `createdBefore` and never sent; answers their sha256s. */
export function deleteStalePendingAttachments(db: AppDatabase, createdBefore: string): string[] {
  return (deleteStale(db).all(createdBefore) as { sha256: string }[]).map((row) => row.sha256);
}

const isShaUsed = statementCacheFor('SELECT 1 FROM attachments WHERE sha256 = ? LIMIT 1');

/** Of these sha256s, those no row uses any more: their files may go. */
export function unusedAttachmentFiles(db: AppDatabase, sha256s: readonly string[]): string[] {
  return [...new Set(sha256s)].filter((sha256) => isShaUsed(db).get(sha256) === undefined);
}
