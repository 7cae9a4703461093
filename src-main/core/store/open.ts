/**
 * Opening the store: WAL, foreign keys, durable commits, and all pending migrations in one transaction.
 */
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
    // FULL: a reply checkpointed before a power cut is still there afterwards.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // The command line and the app may share one data folder.
    sqlite.pragma('busy_timeout = 5000');
    migrate(sqlite, path, options.migrations ?? MIGRATIONS);
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
  sqlite.transaction(() => {
    for (const migration of pending) {
      for (const statement of migration.statements) sqlite.exec(statement);
    }
    sqlite.pragma(`user_version = ${known}`);
  })();
}

export function schemaVersion(db: AppDatabase): number {
  return db.$client.pragma('user_version', { simple: true }) as number;
}

/** Runs `work` in one SQLite transaction (better-sqlite3 is synchronous, so the repositories' calls join it). */
export function inTransaction<T>(db: AppDatabase, work: () => T): T {
  return db.$client.transaction(work)();
}
