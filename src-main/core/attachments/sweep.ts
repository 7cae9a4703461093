/**
 * Start-up housekeeping of the data folder: attachments the user added and never sent (a closed window, a refused
 * send long ago), files a killed import or attach left without a row (between writing the bytes and storing the row),
 * and temporary files of writes that never finished.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { deleteStalePendingAttachments, unusedAttachmentFiles } from '../store/attachments';
import type { AppDatabase } from '../store/open';
import { anotherOwnerAlive, ownerIdOf, probeOwnerLock, type HoldOwnerLockOptions } from '../store/owner-lock';
import { ATTACHMENTS_FOLDER, removeAttachmentFiles } from './attachment-files';

/** How long an attachment may wait to be sent: a draft the window still shows after a night is kept. */
export const PENDING_ATTACHMENT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * While another process has the data folder open it may be between writing a file and storing its row: only files
 * older than this are taken for leftovers then. With no other process, every leftover goes at once.
 */
const LEFTOVER_AGE_MS = 60 * 60 * 1000;

const SHA256_NAME = /^[0-9a-f]{64}$/;
/** `<name>.<pid>.<ms>.tmp`, as `writePrivateFileAtomically` names the file it renames into place. */
const TEMPORARY_NAME = /^.+\.(\d+)\.\d+\.tmp$/;

export interface LeftoverCount {
  readonly files: number;
  readonly bytes: number;
}

export interface LeftoverSweep {
  /** Leftover files removed by this sweep. */
  readonly removed: LeftoverCount;
  /** Leftover files kept because another process may still store their rows; a later start removes them. */
  readonly kept: LeftoverCount;
}

interface FoundFile {
  readonly path: string;
  readonly name: string;
  readonly bytes: number;
  readonly old: boolean;
}

function filesIn(folder: string, now: Date): FoundFile[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    try {
      const stats = statSync(join(folder, name));
      return stats.isFile() ? [{ path: join(folder, name), name, bytes: stats.size, old: stats.mtimeMs < now.getTime() - LEFTOVER_AGE_MS }] : [];
    } catch {
      return [];
    }
  });
}

function counted(files: readonly FoundFile[]): LeftoverCount {
  return { files: files.length, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
}

/** Removes pending attachments older than their lifetime, files no row names, and unfinished writes of dead processes. */
export function sweepAttachments(db: AppDatabase, dataDir: string, now: Date, lockOptions: HoldOwnerLockOptions = {}): LeftoverSweep {
  const stale = deleteStalePendingAttachments(db, new Date(now.getTime() - PENDING_ATTACHMENT_LIFETIME_MS).toISOString());
  removeAttachmentFiles(dataDir, unusedAttachmentFiles(db, stale));
  const attachments = filesIn(join(dataDir, ATTACHMENTS_FOLDER), now);
  const othersAlive = anotherOwnerAlive(dataDir, lockOptions);
  // An unfinished write is a leftover once the process that made it has gone (its pid names its owner lock).
  const writerGone = (file: FoundFile) => {
    const pid = TEMPORARY_NAME.exec(file.name)?.[1];
    return pid !== undefined && Number(pid) !== process.pid && probeOwnerLock(dataDir, ownerIdOf(Number(pid), hostname()), lockOptions) === 'gone';
  };
  const temporary = [...attachments, ...filesIn(dataDir, now)].filter((file) => TEMPORARY_NAME.test(file.name));
  const unnamed = new Set(unusedAttachmentFiles(db, attachments.filter((file) => SHA256_NAME.test(file.name)).map((file) => file.name)));
  const orphans = attachments.filter((file) => unnamed.has(file.name));
  const removable = new Set([...temporary.filter((file) => file.old || writerGone(file)), ...orphans.filter((file) => file.old || !othersAlive)]);
  const kept = [...temporary, ...orphans].filter((file) => !removable.has(file));
  for (const file of removable) rmSync(file.path, { force: true });
  return { removed: counted([...removable]), kept: counted(kept) };
}

