/**
 * Start-up housekeeping of the attachments folder: files the user added and never sent (a closed window, a refused
 * send long ago), and files a crash left without a row (between writing the bytes and storing the row).
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deleteStalePendingAttachments, unusedAttachmentFiles } from '../store/attachments';
import type { AppDatabase } from '../store/open';
import { ATTACHMENTS_FOLDER, removeAttachmentFiles } from './attachment-files';

/** How long an attachment may wait to be sent: a draft the window still shows after a night is kept. */
export const PENDING_ATTACHMENT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Another process on the same data folder (the app and an `anybrain chat`) may be between writing a file and storing
 * its row: only files older than this are taken for leftovers.
 */
const LEFTOVER_AGE_MS = 60 * 60 * 1000;

const SHA256_NAME = /^[0-9a-f]{64}$/;
const TEMPORARY_NAME = /^[0-9a-f]{64}\.\d+\.\d+\.tmp$/;

/** Removes pending attachments older than their lifetime, and every file (an hour old or more) no row names. */
export function sweepAttachments(db: AppDatabase, dataDir: string, now: Date): void {
  const stale = deleteStalePendingAttachments(db, new Date(now.getTime() - PENDING_ATTACHMENT_LIFETIME_MS).toISOString());
  removeAttachmentFiles(dataDir, unusedAttachmentFiles(db, stale));
  const folder = join(dataDir, ATTACHMENTS_FOLDER);
  if (!existsSync(folder)) return;
  const names = readdirSync(folder).filter((name) => {
    try {
      return statSync(join(folder, name)).mtimeMs < now.getTime() - LEFTOVER_AGE_MS;
    } catch {
      return false;
    }
  });
  // An old temporary file is a write that never finished.
  for (const name of names.filter((candidate) => TEMPORARY_NAME.test(candidate))) rmSync(join(folder, name), { force: true });
  removeAttachmentFiles(dataDir, unusedAttachmentFiles(db, names.filter((name) => SHA256_NAME.test(name))));
}
