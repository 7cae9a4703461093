/**
 * SQLite's own checks of the database file, for `anybrain doctor`.
 */
import type { AppDatabase } from './open';

export interface DatabaseIntegrity {
  /** `integrity_check`: `ok`, or the first problem SQLite names. */
  readonly integrity: string;
  /** Rows whose foreign key names a row that does not exist. */
  readonly foreignKeyProblems: number;
}

export function checkIntegrity(db: AppDatabase): DatabaseIntegrity {
  const integrity = db.$client.pragma('integrity_check', { simple: true }) as string;
  const foreignKeyProblems = (db.$client.pragma('foreign_key_check') as unknown[]).length;
  return { integrity, foreignKeyProblems };
}
