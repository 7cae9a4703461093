import type Database from 'better-sqlite3';
import type { AppDatabase } from './open';

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
