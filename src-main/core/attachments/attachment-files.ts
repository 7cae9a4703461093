/**
 * Attachment bytes in the data folder, one file per content: `<dataDir>/attachments/<sha256>`. The same bytes
 * attached twice (or in two conversations) are one file; the rows in `attachments` say who uses it, and a file goes
 * only when no row names its sha256 any more (store/attachments.ts `unusedAttachmentFiles`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateFolder, writePrivateFileAtomically } from '../store/permissions';

export const ATTACHMENTS_FOLDER = 'attachments';

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file's path; only a well-formed sha256 names one, so no name can reach outside the folder. */
export function attachmentFilePath(dataDir: string, sha256: string): string {
  if (!SHA256_PATTERN.test(sha256)) throw new Error(`Not an attachment's sha256: ${sha256}`);
  return join(dataDir, ATTACHMENTS_FOLDER, sha256);
}

/**
 * Stores the bytes under their sha256 and answers it. Owner-only from creation, written to a temporary file and
 * renamed, so a crash leaves the whole file or none; bytes already stored are not written again.
 */
export function writeAttachmentFile(dataDir: string, bytes: Uint8Array): string {
  const sha256 = sha256Of(bytes);
  const filePath = attachmentFilePath(dataDir, sha256);
  if (existsSync(filePath)) return sha256;
  ensurePrivateFolder(join(dataDir, ATTACHMENTS_FOLDER));
  writePrivateFileAtomically(filePath, bytes);
  return sha256;
}

export function readAttachmentFile(dataDir: string, sha256: string): Buffer {
  return readFileSync(attachmentFilePath(dataDir, sha256));
}

/** Removes the files; one already gone is no error. */
export function removeAttachmentFiles(dataDir: string, sha256s: readonly string[]): void {
  for (const sha256 of sha256s) rmSync(attachmentFilePath(dataDir, sha256), { force: true });
}
