/**
 * Owner-only access to the data folder and the database. The folder holds every conversation, memory and MCP secret:
 * under the usual umask 022 a plain mkdir and SQLite's own open would leave them readable by every local user
 * (0755 and 0644). Windows has no POSIX modes (its ACLs already keep a profile's AppData private), so it is skipped.
 */
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** SQLite's companion files in WAL mode: written beside the database, holding the same data. */
const DATABASE_COMPANION_SUFFIXES = ['', '-wal', '-shm'] as const;

/** Creates the folder owner-only, or tightens an existing one (a folder made by an older version was 0755). */
export function ensurePrivateFolder(folder: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (platform !== 'win32') chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/**
 * Tightens the database and its WAL companions to 0600. Called after opening, when SQLite has created them:
 * better-sqlite3 offers no mode at creation, and SQLite gives the -wal and -shm files the database file's mode.
 */
export function tightenDatabaseFiles(databasePath: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  for (const suffix of DATABASE_COMPANION_SUFFIXES) {
    const path = `${databasePath}${suffix}`;
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/**
 * Writes the whole file through a temporary file and a rename, owner-only from creation on (its contents are never
 * readable by other users, even for a moment): a crash leaves the old file or the new one, never half of one.
 */
export function writePrivateFileAtomically(filePath: string, contents: string | Uint8Array, platform: NodeJS.Platform = process.platform): void {
  const temporaryPath = `${filePath}.${process.pid}.${Date.now()}.tmp`;
  const descriptor = openSync(temporaryPath, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(descriptor, typeof contents === 'string' ? Buffer.from(contents, 'utf8') : contents);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporaryPath, { force: true });
    throw error;
  }
  closeSync(descriptor);
  renameSync(temporaryPath, filePath);
  // A file an earlier version wrote with a wider mode is replaced, and the rename keeps the new file's 0600; this
  // covers file systems that ignore the mode given at creation.
  if (platform !== 'win32') chmodSync(filePath, PRIVATE_FILE_MODE);
}
