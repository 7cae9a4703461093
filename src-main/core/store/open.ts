/**
 * Opening the store: WAL, foreign keys, durable commits, and all pending migrations in one transaction.
 */
import { closeSync, openSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from '../../../db/schema';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations';

export type AppDatabase = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** A database written by a newer Anybrain. Opening it would risk showing it as empty or damaging it. */
export class DatabaseFromFutureError extends Error {
  constructor(
    readonly databaseVersion: number,
    readonly appVersion: number,
    readonly path: string,
  ) {
    super(
      `The data in ${path} was written by a newer version of Anybrain (schema ${databaseVersion}; this version knows ` +
        `${appVersion}). Nothing was changed. Update Anybrain to open it, or point this version at another data folder.`,
    );
    this.name = 'DatabaseFromFutureError';
  }
}

/** A migration failed: nothing was changed (one transaction), and a copy from before the attempt is named. */
export class MigrationFailedError extends Error {
  constructor(
    readonly fromVersion: number,
    readonly toVersion: number,
    readonly path: string,
    readonly backupPath: string | null,
    override readonly cause: unknown,
  ) {
    super(
      `Updating the data in ${path} from schema ${fromVersion} to ${toVersion} failed: ` +
        `${cause instanceof Error ? cause.message : String(cause)}. Nothing was changed.` +
        (backupPath === null ? '' : ` A copy taken just before the update is at ${backupPath}.`),
    );
    this.name = 'MigrationFailedError';
  }
}

/** How many pre-migration copies stay in the data folder; older ones are removed when a new one is taken. */
export const KEPT_MIGRATION_BACKUPS = 3;

export interface OpenDatabaseOptions {
  /** A better-sqlite3 binary built for this runtime's ABI (the Electron shell's own build). */
  readonly nativeBinding?: string;
  /** Migrations to apply; tests pass a prefix to build an older schema. */
  readonly migrations?: readonly Migration[];
}

export function openDatabase(path: string, options: OpenDatabaseOptions = {}): AppDatabase {
  const sqlite = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    // The command line and the app may share one data folder.
    sqlite.pragma('busy_timeout = 5000');
    // An upgrade is on the disk before the app goes on: it runs once, before any window waits on it.
    sqlite.pragma('synchronous = FULL');
    migrate(sqlite, path, options.migrations ?? MIGRATIONS);
    // Then NORMAL: a commit never waits for the disk on this thread; whoever says "saved" waits for a sync of the log
    // on the thread pool (log-sync.ts), which makes it as durable as FULL would have.
    sqlite.pragma('synchronous = NORMAL');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return drizzle(sqlite, { schema }) as AppDatabase;
}

/**
 * A second, read-only connection to a database another connection keeps open and migrated: for work that reads much
 * (exporting every conversation) on a worker thread. WAL lets it read one snapshot while the main connection keeps
 * writing. It never migrates, so a schema other than this version's is refused.
 */
export function openReadOnlyDatabase(path: string, options: Pick<OpenDatabaseOptions, 'nativeBinding'> = {}): AppDatabase {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const version = sqlite.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new DatabaseFromFutureError(version, SCHEMA_VERSION, path);
    if (version < SCHEMA_VERSION) throw new Error(`The data in ${path} is at schema ${version}, not yet updated to ${SCHEMA_VERSION}: open it for writing first.`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return drizzle(sqlite, { schema }) as AppDatabase;
}

export function migrate(sqlite: Database.Database, path: string, migrations: readonly Migration[]): void {
  const known = migrations.length;
  const current = sqlite.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION || current > known) {
    throw new DatabaseFromFutureError(current, known, path);
  }
  const pending = migrations.slice(current);
  if (pending.length === 0) return;
  // A brand-new file (schema 0) holds nothing worth a copy.
  const backupPath = current > 0 && isFileDatabase(path) ? backupBeforeMigration(sqlite, path, current) : null;
  try {
    sqlite.transaction(() => {
      for (const migration of pending) {
        for (const statement of migration.statements) sqlite.exec(statement);
      }
      sqlite.pragma(`user_version = ${known}`);
    })();
  } catch (error) {
    throw new MigrationFailedError(current, known, path, backupPath, error);
  }
}

function isFileDatabase(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file:');
}

/** `anybrain.db.backup-v3-2026-12-01T13-15-37-123Z`: the schema version the copy holds, then when it was taken. */
export function migrationBackupName(databaseFile: string, version: number, takenAt: Date): string {
  return `${databaseFile}.backup-v${version}-${takenAt.toISOString().replace(/:/g, '-').replace('.', '-')}`;
}

/**
 * Copies the database, as one consistent snapshot (WAL included), before migrations change it. The copy is created
 * empty with mode 0600 first: it holds every conversation, so it must never be readable by other users, not even for
 * the moment between VACUUM INTO writing it and a chmod. Keeps the newest KEPT_MIGRATION_BACKUPS copies.
 */
export function backupBeforeMigration(sqlite: Database.Database, path: string, version: number, takenAt = new Date()): string {
  const folder = dirname(path);
  const databaseFile = basename(path);
  const backupPath = join(folder, migrationBackupName(databaseFile, version, takenAt));
  // VACUUM INTO writes only into a file that does not exist or is empty.
  closeSync(openSync(backupPath, 'wx', 0o600));
  try {
    sqlite.prepare('VACUUM INTO ?').run(backupPath);
  } catch (error) {
    rmSync(backupPath, { force: true });
    throw error;
  }
  const prefix = `${databaseFile}.backup-v`;
  const takenTimes = (name: string) => name.slice(name.indexOf('-', prefix.length) + 1);
  const backups = readdirSync(folder)
    .filter((name) => name.startsWith(prefix))
    .sort((left, right) => takenTimes(right).localeCompare(takenTimes(left)));
  for (const stale of backups.slice(KEPT_MIGRATION_BACKUPS)) rmSync(join(folder, stale), { force: true });
  return backupPath;
}

export function schemaVersion(db: AppDatabase): number {
  return db.$client.pragma('user_version', { simple: true }) as number;
}

/**
 * Runs `work` in one SQLite transaction (better-sqlite3 is synchronous, so the repositories' calls join it). It takes
 * the write lock first (BEGIN IMMEDIATE): a transaction that reads before it writes cannot wait for another process's
 * writer (SQLite answers SQLITE_BUSY at once rather than risk a deadlock), where a BEGIN IMMEDIATE waits out the busy
 * timeout, and one that finds the folder busy past it fails before anything is written, so it can be tried again
 * (busy-retry.ts). Inside a transaction already open, `work` joins it.
 */
export function inTransaction<T>(db: AppDatabase, work: () => T): T {
  return db.$client.transaction(work).immediate();
}

/**
 * Runs `work`, which only reads, against one snapshot of the database: a deferred transaction takes no lock to begin
 * and, in WAL, reads the last commit without waiting for any writer.
 */
export function inReadTransaction<T>(db: AppDatabase, work: () => T): T {
  return db.$client.transaction(work).deferred();
}

export function closeDatabase(db: AppDatabase): void {
  db.$client.close();
}
