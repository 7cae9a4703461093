/**
 * Attachments before they are sent: add (sniffed, stored once per content), remove, and read back for showing.
 */
import { ApiError } from '../../../src-shared/api';
import { attachmentFilePath, readAttachmentFile, removeAttachmentFiles, writeAttachmentFile } from '../attachments/attachment-files';
import { sniffAttachment } from '../attachments/sniff';
import { deletePendingAttachment, getAttachment, insertAttachment, toAttachmentView, unusedAttachmentFiles } from '../store/attachments';
import { newId, nowIso } from '../store/clock';
import type { AppDatabase } from '../store/open';
import type { CommandDependencies, HandlerGroup } from './handlers';

const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 text; a text that is not base64 is refused rather than decoded to something else. */
function decodeBase64(name: string, dataBase64: string): Buffer {
  const compact = dataBase64.replace(/\s/g, '');
  if (compact.length % 4 !== 0 || !BASE64_PATTERN.test(compact)) {
    throw new ApiError('invalid-input', `${name} did not arrive whole (its data is not base64). Attach it again.`);
  }
  return Buffer.from(compact, 'base64');
}

/** Removes the files of these sha256s that no row uses any more. */
export function releaseAttachmentFiles(db: AppDatabase, dataDir: string, sha256s: readonly string[]): void {
  removeAttachmentFiles(dataDir, unusedAttachmentFiles(db, sha256s));
}

export function attachmentCommands({ db, dataDir }: Pick<CommandDependencies, 'db' | 'dataDir'>) {
  return {
    addAttachment: ({ name, dataBase64 }) => {
      const bytes = decodeBase64(name, dataBase64);
      const sniffed = sniffAttachment(name, bytes);
      if (!sniffed.ok) throw new ApiError(sniffed.refusal.code, sniffed.refusal.message);
      const sha256 = writeAttachmentFile(dataDir, bytes);
      const row = {
        id: newId(),
        messageId: null,
        name,
        mediaType: sniffed.attachment.mediaType,
        kind: sniffed.attachment.kind,
        size: bytes.length,
        sha256,
        width: sniffed.attachment.width,
        height: sniffed.attachment.height,
        pages: sniffed.attachment.pages,
        createdAt: nowIso(),
      };
      try {
        insertAttachment(db, row);
      } catch (error) {
        // The row is what keeps the file: without it, the file is nobody's.
        releaseAttachmentFiles(db, dataDir, [sha256]);
        throw error;
      }
      return toAttachmentView(row);
    },
    removeAttachment: ({ id }) => {
      const sha256 = deletePendingAttachment(db, id);
      if (sha256 === null) {
        if (getAttachment(db, id) !== null) throw new ApiError('attachment-sent', 'That file was sent with a message; it stays with the message.');
        throw new ApiError('not-found', 'That attachment no longer exists.');
      }
      releaseAttachmentFiles(db, dataDir, [sha256]);
      return null;
    },
    readAttachment: ({ id }) => {
      const row = getAttachment(db, id);
      if (row === null) throw new ApiError('not-found', 'That attachment no longer exists.');
      let bytes: Buffer;
      try {
        bytes = readAttachmentFile(dataDir, row.sha256);
      } catch {
        throw new ApiError('attachment-missing', `The file ${row.name} is missing from the data folder (${attachmentFilePath(dataDir, row.sha256)}).`);
      }
      return { mediaType: row.mediaType, dataBase64: bytes.toString('base64') };
    },
  } satisfies HandlerGroup;
}
