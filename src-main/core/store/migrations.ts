/**
 * The SQL migrations drizzle-kit generated into `db/migrations`, bundled into every build so the app, the command
 * line and the tests apply exactly the same files.
 */
import journal from '../../../db/migrations/meta/_journal.json';

const sqlByPath = import.meta.glob('../../../db/migrations/*.sql', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

export interface Migration {
  /** 1-based: after applying it, `PRAGMA user_version` equals this. */
  readonly version: number;
  readonly tag: string;
  readonly statements: readonly string[];
}

function loadMigrations(): Migration[] {
  return journal.entries.map((entry, index) => {
    const sqlText = sqlByPath[`../../../db/migrations/${entry.tag}.sql`];
    if (sqlText === undefined) throw new Error(`Migration ${entry.tag}.sql is listed in the journal but missing.`);
    if (entry.idx !== index) throw new Error(`Migration journal out of order at ${entry.tag}.`);
    const statements = sqlText
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => statement.replace(/^--.*$/gm, '').trim().length > 0);
    return { version: index + 1, tag: entry.tag, statements };
  });
}

export const MIGRATIONS: readonly Migration[] = loadMigrations();
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The migrations before the one tagged `tag`: the schema a database had just before it (what migration tests seed). */
export function migrationsBefore(tag: string): readonly Migration[] {
  const index = MIGRATIONS.findIndex((migration) => migration.tag === tag);
  if (index < 0) throw new Error(`No migration is tagged ${tag}.`);
  return MIGRATIONS.slice(0, index);
}
