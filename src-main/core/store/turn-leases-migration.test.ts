/**
 * Migration 0009 (turn leases): a database seeded at the schema before it opens with every row kept and an empty
 * `turn_leases` table, whose leases go with their conversation.
 */
import { describe, expect, it } from 'vitest';
import { migrateOneConversationPast } from './testing/migration-step';

describe('migration 0009_turn_leases', () => {
  it('adds an empty turn_leases table to a database of the version before it, keeping every row', () => {
    const migrated = migrateOneConversationPast('0009_turn_leases');
    expect(migrated.columnsOf('turn_leases')).toEqual([
      ['conversation_id', 1, 1],
      ['turn_id', 1, 0],
      ['owner', 1, 0],
      ['token', 1, 0],
      ['expires_at', 1, 0],
    ]);
    migrated.db.$client.prepare("INSERT INTO turn_leases (conversation_id, turn_id, owner, token, expires_at) VALUES ('c1', 't1', '42@host', 'k', 1)").run();
    migrated.db.$client.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(migrated.db.$client.prepare('SELECT count(*) FROM turn_leases').pluck().get()).toBe(0);
    migrated.close();
  });
});
