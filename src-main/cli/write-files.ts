/**
 * Files an export writes, all or none: each is written under a temporary name beside its target and renamed into
 * place only once every one of them is on the disk, so a full disk or a refused name leaves nothing partial and a
 * killed process leaves the previous files (and a temporary file the next export's writer ignores).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 * end, so a reader finding it finds the rest.
 */
export function writeFilesAtomically(files: readonly FileToWrite[]): void {
  // A short temporary name: the target's name plus a suffix would pass 255 bytes where the target alone does not.
  const staged = files.map((file, index) => ({ ...file, temporary: join(dirname(file.path), `.anybrain-${process.pid}-${index}.tmp`) }));
  const long = staged.find((file) => Buffer.byteLength(basename(file.path)) > MAX_NAME_BYTES);
  if (long !== undefined) throw new ExportWriteError(long.path, Object.assign(new Error('name too long'), { code: 'ENAMETOOLONG' }));
  const createdFolders: string[] = [];
  let current = staged[0]?.path ?? '';
  try {
    for (const file of staged) {
      current = file.path;
      const created = mkdirSync(dirname(file.path), { recursive: true });
      if (created !== undefined) createdFolders.push(created);
      writeFileSync(file.temporary, file.content);
    }
  } catch (error) {
    for (const file of staged) removeQuietly(file.temporary);
    // Only folders this call made, which held nothing but its temporary files.
    for (const folder of createdFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw new ExportWriteError(current, error);
  }
  for (const file of staged) renameSync(file.temporary, file.path);
}

/** Clean-up after a failed write must not hide its cause: a temporary file whose folder could not be made is not there. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written at that path.
  }
}

