/**
 * Files an export writes, all or none: each is written under a temporary name beside its target and renamed into
 * place only once every one of them is on the disk, so a full disk, a refused name or a failed rename leaves nothing
 * partial, and a killed process leaves each file old or new, never half written (and temporary files the next
 * export's writer ignores).
 */
import { closeSync, copyFileSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MAX_NAME_BYTES } from '../core/transcripts/export-file-names';

export interface FileToWrite {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/** What went wrong, in words, for the refusals a person can act on. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'the folder cannot be written to';
  if (code === 'ENAMETOOLONG') return 'a file name is too long for this disk';
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return 'a file or folder of that name is in the way';
  return error instanceof Error ? error.message : String(error);
}

export class ExportWriteError extends Error {
  constructor(path: string, cause: unknown) {
    super(`Could not write ${path}: ${reasonOf(cause)}. Nothing was written.`, { cause });
    this.name = 'ExportWriteError';
  }
}

/**
 * Writes every file or none, the last one last: a caller lists an index or the document that links the others at the
 * end, so a reader finding it finds the rest. Each file is on the disk before any is renamed into place, and each
 * folder that took a rename is synced after, so a power cut leaves the old files or the new ones. A rename that fails
 * puts back what the earlier renames replaced.
 */
export function writeFilesAtomically(files: readonly FileToWrite[]): void {
  // Short temporary names: the target's name plus a suffix would pass 255 bytes where the target alone does not.
  const staged = files.map((file, index) => ({
    ...file,
    temporary: join(dirname(file.path), `.anybrain-${process.pid}-${index}.tmp`),
    previous: join(dirname(file.path), `.anybrain-${process.pid}-${index}.old`),
  }));
  const long = staged.find((file) => Buffer.byteLength(basename(file.path)) > MAX_NAME_BYTES);
  if (long !== undefined) throw new ExportWriteError(long.path, Object.assign(new Error('name too long'), { code: 'ENAMETOOLONG' }));
  const createdFolders: string[] = [];
  /** Renamed into place, each with whether an earlier file at its path was kept. */
  const placed: { readonly file: (typeof staged)[number]; readonly replaced: boolean }[] = [];
  let current = staged[0]?.path ?? '';
  try {
    for (const file of staged) {
      current = file.path;
      const created = mkdirSync(dirname(file.path), { recursive: true });
      if (created !== undefined) createdFolders.push(created);
      writeSynced(file.temporary, file.content);
    }
    for (const file of staged) {
      current = file.path;
      const replaced = keepEarlier(file.path, file.previous);
      try {
        renameSync(file.temporary, file.path);
      } catch (error) {
        if (replaced) removeQuietly(file.previous);
        throw error;
      }
      placed.push({ file, replaced });
    }
    for (const folder of new Set(staged.map((file) => dirname(file.path)))) syncFolder(folder);
  } catch (error) {
    for (const { file, replaced } of placed.reverse()) {
      if (replaced) renameQuietly(file.previous, file.path);
      else removeQuietly(file.path);
    }
    for (const file of staged) removeQuietly(file.temporary);
    // Only folders this call made, which held nothing but its temporary files.
    for (const folder of createdFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw new ExportWriteError(current, error);
  }
  for (const { file, replaced } of placed) if (replaced) removeQuietly(file.previous);
}

function writeSynced(path: string, content: string | Uint8Array): void {
  const descriptor = openSync(path, 'w');
  try {
    writeFileSync(descriptor, content);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Keeps a file already at `path` under `kept` too, so a later failure can put it back; false when there was none. A
 * second link, not a move: the rename into place then replaces the file in one step, and a process killed in between
 * leaves the earlier file where it was. A disk without hard links (FAT) gets a copy.
 */
function keepEarlier(path: string, kept: string): boolean {
  try {
    linkSync(path, kept);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
  }
  copyFileSync(path, kept);
  return true;
}

/** Makes the folder's new entries durable. Windows cannot open a folder to sync it, and needs no such step. */
function syncFolder(folder: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(folder, 'r');
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    fsyncSync(descriptor);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Some file systems (and Windows) refuse to sync a folder; their renames are as durable as they get.
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR' && code !== 'EBADF') throw error;
  } finally {
    closeSync(descriptor);
  }
}

function renameQuietly(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // The earlier file stays beside its place under the kept name, not lost.
  }
}

/** Clean-up after a failed write must not hide its cause: a temporary file whose folder could not be made is not there. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written at that path.
  }
}

