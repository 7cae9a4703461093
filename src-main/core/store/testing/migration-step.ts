/**
 * A migration's test in one call: a database file seeded at the schema before `tag` with one conversation, then
 * opened by the app at the newest schema. The caller checks what the migration added; this checks what it kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { migrationsBefore, SCHEMA_VERSION } from '../migrations';
import { openDatabase, schemaVersion, type AppDatabase } from '../open';

export interface MigratedDatabase {
  readonly db: AppDatabase;
  /** `[name, notnull, pk]` of each column of `table`, in order. */
  columnsOf(table: string): Array<[string, number, number]>;
  /** Closes the database and removes its folder. */
  close(): void;
}

export function migrateOneConversationPast(tag: string): MigratedDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-migration-'));
  const path = join(folder, 'anybrain.db');
  const before = migrationsBefore(tag);
  const older = openDatabase(path, { migrations: before });
  expect(schemaVersion(older)).toBe(before.length);
  older.$client.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at) VALUES ('c1', 'Tea', 'claude', 't0', 't1')").run();
  const conversations = older.$client.prepare('SELECT * FROM conversations').all();
  older.$client.close();

  const db = openDatabase(path);
  expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
  expect(db.$client.prepare('SELECT * FROM conversations').all()).toEqual(conversations);
  return {
    db,
    columnsOf: (table) => (db.$client.pragma(`table_info(${table})`) as { name: string; notnull: number; pk: number }[]).map((column) => [column.name, column.notnull, column.pk]),
    close: () => {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
