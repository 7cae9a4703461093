/**
 * Migration 0008 (attachments) with data in it: a database seeded at the schema before it (version N-1) opens at
 * version N with every earlier table exactly as it was, an empty `attachments` table beside them, and attachments that
 * follow their messages out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsBefore } from './migrations';
import { openDatabase, schemaVersion, type AppDatabase } from './open';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const TABLES = ['conversations', 'messages', 'tool_invocations', 'memories', 'settings', 'brain_state'] as const;

function wholeTables(db: AppDatabase): Record<string, unknown[]> {
  return Object.fromEntries(TABLES.map((table) => [table, db.$client.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()]));
}

describe('migration 0008_attachments', () => {
  it('adds the attachments table to a database of the version before it, keeping every row', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-attachments-'));
    folders.push(folder);
    const path = join(folder, 'anybrain.db');
    const older = openDatabase(path, { migrations: migrationsBefore('0008_attachments') });
    expect(schemaVersion(older)).toBe(migrationsBefore('0008_attachments').length);
    const sql = older.$client;
    sql.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at, current_leaf_id) VALUES ('c1', 'Photos', 'gemini', 't0', 't1', 'm2')").run();
    sql.prepare("INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, token_estimate, created_at, updated_at, parent_id) VALUES ('m1', 'c1', 0, 't1', 'user', 'Look at this', 7, 't0', 't0', NULL)").run();
    sql.prepare("INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, brain, created_at, updated_at, parent_id) VALUES ('m2', 'c1', 1, 't1', 'assistant', 'A cat.', 'complete', 'gemini', 't1', 't1', 'm1')").run();
    sql.prepare("INSERT INTO tool_invocations (id, turn_id, message_id, seq, kind, tool, status, started_at) VALUES ('i1', 't1', 'm2', 0, 'memory', 'memory', 'ok', 't1')").run();
    sql.prepare("INSERT INTO memories (id, text, created_at, updated_at) VALUES ('r1', 'likes cats', 't0', 't0')").run();
    sql.prepare("INSERT INTO settings (key, value) VALUES ('theme', '\"dark\"')").run();
    sql.prepare("INSERT INTO brain_state (conversation_id, brain, full, updated_at) VALUES ('c1', 'gemini', 0, 't1')").run();
    const before = wholeTables(older);
    older.$client.close();

    // Opened at the schema just after 0008, so columns later migrations add do not show here.
    const migrated = openDatabase(path, { migrations: migrationsBefore('0009_turn_leases') });
    expect(schemaVersion(migrated)).toBe(migrationsBefore('0009_turn_leases').length);
    expect(wholeTables(migrated)).toEqual(before);
    expect(migrated.$client.prepare('SELECT count(*) AS count FROM attachments').get()).toEqual({ count: 0 });
    expect((migrated.$client.pragma('table_info(attachments)') as { name: string; notnull: number }[]).map((column) => [column.name, column.notnull])).toEqual([
      ['id', 1],
      ['message_id', 0],
      ['name', 1],
      ['media_type', 1],
      ['kind', 1],
      ['size', 1],
      ['sha256', 1],
      ['width', 0],
      ['height', 0],
      ['pages', 0],
      ['created_at', 1],
    ]);
    expect(migrated.$client.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attachments' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all()).toEqual([
      'attachments_message',
      'attachments_sha256',
    ]);

    // A message's attachments go with it; a pending one (no message) stays.
    const insert = migrated.$client.prepare(
      "INSERT INTO attachments (id, message_id, name, media_type, kind, size, sha256, width, height, created_at) VALUES (?, ?, 'cat.png', 'image/png', 'image', 10, ?, 2, 2, 't2')",
    );
    insert.run('a1', 'm1', 'a'.repeat(64));
    insert.run('a2', null, 'a'.repeat(64));
    migrated.$client.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(migrated.$client.prepare('SELECT id FROM attachments').pluck().all()).toEqual(['a2']);
    migrated.$client.close();
  });
});
