/**
 * Owner locks: whether the process that wrote a `streaming` row still runs, asked of the operating system's file
 * locks instead of the process table.
 *
 * The rule this module keeps: a process holds an exclusive lock on `locks/<owner>.db` in the data folder for as long
 * as it may write streaming rows under that owner, and a row's owner is alive exactly while that lock is held.
 *
 * Why a lock and not `kill(pid, 0)`: a process killed while its parent has not reaped it yet is a zombie, and a
 * zombie still answers `kill(pid, 0)`, so its rows would wait for the next start. The kernel closes every file of a
 * process when it exits, before it becomes a zombie, and closing the file releases its locks; Windows releases them
 * at exit too. Node has no flock, so the lock is SQLite's own: a small database kept open in exclusive locking mode
 * after one write holds its lock until the connection closes, and another process probing it with `BEGIN IMMEDIATE`
 * gets SQLITE_BUSY while the owner lives.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const LOCKS_FOLDER = 'locks';

/** `pid@host`: the value streaming rows carry in `messages.stream_owner` (migration 0003). */
export function ownerIdOf(pid: number, host: string): string {
  return `${pid}@${host}`;
}

export const THIS_PROCESS_OWNER = ownerIdOf(process.pid, hostname());

/** A host name may hold characters a file name cannot: keep letters, digits, dot, dash and underscore. */
export function ownerLockPath(dataDir: string, owner: string): string {
  return join(dataDir, LOCKS_FOLDER, `${owner.replace(/[^A-Za-z0-9._@-]/g, '_')}.db`);
}

export interface OwnerLock {
  readonly owner: string;
  readonly path: string;
  /** Lets go of the lock and removes its file; the last holder in this process does it. */
  release(): void;
}

interface HeldLock {
  readonly connection: Database.Database;
  holders: number;
}

/**
 * POSIX record locks belong to a process, not to a connection: a second connection of the same process cannot take
 * the lock it already holds. Several cores opened on one data folder in one process (tests, a re-opened window)
 * share one connection.
 */
const heldByPath = new Map<string, HeldLock>();

export interface HoldOwnerLockOptions {
  /** A better-sqlite3 binary built for this runtime's ABI (the Electron shell's own build). */
  readonly nativeBinding?: string;
}

/** Takes this process's owner lock in `dataDir`; held until every holder has released it, or the process ends. */
export function holdOwnerLock(dataDir: string, owner: string = THIS_PROCESS_OWNER, options: HoldOwnerLockOptions = {}): OwnerLock {
  const path = ownerLockPath(dataDir, owner);
  let held = heldByPath.get(path);
  if (held === undefined) {
    mkdirSync(join(dataDir, LOCKS_FOLDER), { recursive: true, mode: 0o700 });
    // A file left by a dead process of the same pid (pids are reused) is stale: start afresh.
    removeLockFiles(path);
    const connection = lockFile(path, options);
    held = { connection, holders: 0 };
    heldByPath.set(path, held);
    sweepDeadOwnerLocks(dataDir, options);
  }
  held.holders += 1;
  const lock = held;
  let released = false;
  return {
    owner,
    path,
    release() {
      if (released) return;
      released = true;
      lock.holders -= 1;
      if (lock.holders > 0) return;
      heldByPath.delete(path);
      lock.connection.close();
      removeLockFiles(path);
    },
  };
}

/** How many times a new lock file is made when a sweeper removed the one just created (see probeLockFile). */
const LOCK_ATTEMPTS = 5;
/** A sweeper holds a lock file for the moment it takes to remove it. */
const LOCK_WAIT_MS = 2_000;

/**
 * Creates the lock file and takes its lock. Another process starting at the same moment may probe the new file
 * before its lock is taken, find it free and remove it; its removal happens while it holds the file's lock, so once
 * the lock is ours, a file still at the path is ours. Otherwise the lock is on a removed file: start again.
 */
function lockFile(path: string, options: HoldOwnerLockOptions): Database.Database {
  for (let attempt = 1; ; attempt += 1) {
    const connection = new Database(path, { timeout: LOCK_WAIT_MS, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    try {
      connection.pragma('locking_mode = EXCLUSIVE');
      // Its contents do not matter, so no journal file beside it.
      connection.pragma('journal_mode = MEMORY');
      // In exclusive locking mode the first write takes the EXCLUSIVE lock and keeps it until the connection closes.
      connection.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)');
      connection.prepare('INSERT INTO owner (pid, host, since) VALUES (?, ?, ?)').run(process.pid, hostname(), new Date().toISOString());
    } catch (error) {
      connection.close();
      throw error;
    }
    if (existsSync(path)) return connection;
    connection.close();
    if (attempt === LOCK_ATTEMPTS) throw new Error(`Could not keep a lock file at ${path}: another process kept removing it.`);
  }
}

export type OwnerState = 'alive' | 'gone';

/**
 * Probes another process's owner lock. `gone` when no lock file exists (the owner never took one, or released it
 * when it closed) or when the lock can be taken (the owner died: the kernel let go of its lock); a dead owner's file
 * is removed then. Never blocks.
 */
export function probeOwnerLock(dataDir: string, owner: string, options: HoldOwnerLockOptions = {}): OwnerState {
  return probeLockFile(ownerLockPath(dataDir, owner), options);
}

/**
 * Whether a process other than this one has the data folder open now (the app beside an `anybrain chat`, a web host):
 * such a process may be between writing a file and storing the row that names it.
 */
export function anotherOwnerAlive(dataDir: string, options: HoldOwnerLockOptions = {}): boolean {
  const folder = join(dataDir, LOCKS_FOLDER);
  if (!existsSync(folder)) return false;
  const ours = ownerLockPath(dataDir, THIS_PROCESS_OWNER);
  return readdirSync(folder).some((name) => name.endsWith('.db') && join(folder, name) !== ours && probeLockFile(join(folder, name), options) === 'alive');
}

/** Removes the lock files of owners that died holding no streaming row, which no later start would probe. */
function sweepDeadOwnerLocks(dataDir: string, options: HoldOwnerLockOptions): void {
  const folder = join(dataDir, LOCKS_FOLDER);
  for (const name of readdirSync(folder)) {
    if (name.endsWith('.db')) probeLockFile(join(folder, name), options);
  }
}

function probeLockFile(path: string, options: HoldOwnerLockOptions): OwnerState {
  if (heldByPath.has(path)) return 'alive';
  if (!existsSync(path)) return 'gone';
  let connection: Database.Database;
  try {
    connection = new Database(path, { fileMustExist: true, timeout: 0, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  } catch (error) {
    // Its owner closed and removed it between the two looks.
    if (!existsSync(path)) return 'gone';
    throw error;
  }
  try {
    connection.exec('BEGIN IMMEDIATE');
  } catch (error) {
    connection.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return 'alive';
    throw error;
  }
  // Removed while this probe holds the lock, so an owner that creates the file anew can tell (see lockFile).
  try {
    removeLockFiles(path);
  } catch {
    // Windows keeps an open file: the owner's next start or the next sweep removes it.
  }
  connection.exec('ROLLBACK');
  connection.close();
  return 'gone';
}

function removeLockFiles(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Whether the process that owns a streaming row still runs, asked at start-up. The command line and the app may
 * share a data folder: opening it must never mark another live process's reply as interrupted. This process's own
 * owner id at start-up names a dead process whose pid was reused. A writer on another host cannot be checked: keep it.
 */
export function isStreamOwnerAlive(dataDir: string, owner: string, options: HoldOwnerLockOptions = {}): boolean {
  const match = /^(\d+)@(.*)$/.exec(owner);
  if (!match) return false;
  if (match[2] !== hostname()) return true;
  if (owner === THIS_PROCESS_OWNER) return false;
  return probeOwnerLock(dataDir, owner, options) === 'alive';
}
