/**
 * Migration 0009 (turn leases): a database seeded at the schema before it opens with every row kept and an empty
 * `turn_leases` table, whose leases go with their conversation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsBefore } from './migrations';
import { openDatabase, schemaVersion } from './open';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('migration 0009_turn_leases', () => {
  it('adds an empty turn_leases table to a database of the version before it, keeping every row', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-turn-leases-'));
    folders.push(folder);
    const path = join(folder, 'anybrain.db');
    const before = migrationsBefore('0009_turn_leases');
    const older = openDatabase(path, { migrations: before });
    expect(schemaVersion(older)).toBe(before.length);
    older.$client.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at) VALUES ('c1', 'Tea', 'claude', 't0', 't1')").run();
    const conversations = older.$client.prepare('SELECT * FROM conversations').all();
    older.$client.close();

    const migrated = openDatabase(path);
    expect(schemaVersion(migrated)).toBe(before.length + 1);
    expect(migrated.$client.prepare('SELECT * FROM conversations').all()).toEqual(conversations);
    expect((migrated.$client.pragma('table_info(turn_leases)') as { name: string; notnull: number; pk: number }[]).map((column) => [column.name, column.notnull, column.pk])).toEqual([
      ['conversation_id', 1, 1],
      ['turn_id', 1, 0],
      ['owner', 1, 0],
      ['token', 1, 0],
      ['expires_at', 1, 0],
    ]);
    migrated.$client.prepare("INSERT INTO turn_leases (conversation_id, turn_id, owner, token, expires_at) VALUES ('c1', 't1', '42@host', 'k', 1)").run();
    migrated.$client.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(migrated.$client.prepare('SELECT count(*) FROM turn_leases').pluck().get()).toBe(0);
    migrated.$client.close();
  });
});
