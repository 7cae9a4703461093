import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseFromFutureError, openDatabase, schemaVersion } from './open';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

const folders: string[] = [];
function tempDatabasePath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-store-'));
  folders.push(folder);
  return join(folder, 'anybrain.db');
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('applies every migration and turns on WAL and foreign keys', () => {
    const db = openDatabase(tempDatabasePath());
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.$client.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(2);
    const tables = db.$client
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'memories_fts_%' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'brain_state',
      'conversations',
      'counters',
      'memories',
      'memories_fts',
      'messages',
      'repair_changes',
      'settings',
      'tool_invocations',
    ]);
    db.$client.close();
  });

  it('is idempotent on reopen', () => {
    const path = tempDatabasePath();
    openDatabase(path).$client.close();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    db.$client.close();
  });

  it('migrates a database of version N-1 with data in it to version N, keeping the data', () => {
    const path = tempDatabasePath();
    const older = openDatabase(path, { migrations: MIGRATIONS.slice(0, SCHEMA_VERSION - 1) });
    expect(schemaVersion(older)).toBe(SCHEMA_VERSION - 1);
    older.$client
      .prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Kept', 't0', 't0')")
      .run();
    older.$client.prepare("INSERT INTO memories (id, text, created_at, updated_at) VALUES ('m1', 'blue whales sing', 't0', 't0')").run();
    const before = older.$client.prepare('SELECT * FROM conversations').all();
    older.$client.close();

    const current = openDatabase(path);
    expect(schemaVersion(current)).toBe(SCHEMA_VERSION);
    expect(current.$client.prepare('SELECT * FROM conversations').all()).toEqual(before);
    // The memories index built by the newest migration also covers rows written before it.
    current.$client.exec("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')");
    expect(current.$client.prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'whales'").all()).toHaveLength(1);
    current.$client.close();
  });

  it('refuses a database written by a newer version, without touching it', () => {
    const path = tempDatabasePath();
    openDatabase(path).$client.close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();

    expect(() => openDatabase(path)).toThrow(DatabaseFromFutureError);
    expect(() => openDatabase(path)).toThrow(/written by a newer version of Anybrain/);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('rolls back every pending migration when one fails', () => {
    const path = tempDatabasePath();
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, tag: 'broken', statements: ['CREATE TABLE ok_table (id)', 'NOT SQL'] }];
    expect(() => openDatabase(path, { migrations: broken })).toThrow();
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    expect(check.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0);
    check.close();
  });
});
