import type Database from 'better-sqlite3';
import { inTransaction, type AppDatabase } from './open';

/** One prepared statement per database connection, prepared on first use. */
export function statementCacheFor(sqlText: string): (db: AppDatabase) => Database.Statement<unknown[], unknown> {
  const statements = new WeakMap<Database.Database, Database.Statement<unknown[], unknown>>();
  return (db) => {
    let statement = statements.get(db.$client);
    if (!statement) {
      statement = db.$client.prepare<unknown[], unknown>(sqlText);
      statements.set(db.$client, statement);
    }
    return statement;
  };
}

/**
 * Runs a write that hands back its own row (`RETURNING`) so that the row comes back only once it is committed.
 * better-sqlite3's `get()` reads the first row and then resets the statement; outside a transaction that reset is the
 * commit, and an error there (SQLITE_FULL when the disk cannot take the log) is dropped, so the row would come back
 * though nothing was stored. In a transaction the commit is a step of its own and throws.
 */
export function committedRow<Row>(db: AppDatabase, write: () => Row): Row {
  return inTransaction(db, write);
}
