import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getConversation, insertConversation, listConversations } from './conversations';
import { closeDatabase, DatabaseFromFutureError, openDatabase, openReadOnlyDatabase, type AppDatabase } from './open';
import { SCHEMA_VERSION } from './migrations';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function opened(): { writer: AppDatabase; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-read-only-'));
  const path = join(folder, 'anybrain.db');
  const writer = openDatabase(path);
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }), () => closeDatabase(writer));
  return { writer, path };
}

describe('a read-only connection beside the writing one', () => {
  it('sees what was committed, keeps one snapshot inside a transaction, and cannot write', () => {
    const { writer, path } = opened();
    insertConversation(writer, { id: 'c1', title: 'First', brain: null, model: null, now: '2026-01-01T00:00:00.000Z' });
    const reader = openReadOnlyDatabase(path);
    cleanups.push(() => closeDatabase(reader));
    expect(getConversation(reader, 'c1')?.title).toBe('First');
    reader.$client.transaction(() => {
      expect(listConversations(reader).map((conversation) => conversation.id)).toEqual(['c1']);
      insertConversation(writer, { id: 'c2', title: 'Second', brain: null, model: null, now: '2026-01-02T00:00:00.000Z' });
      expect(listConversations(reader).map((conversation) => conversation.id)).toEqual(['c1']);
    })();
    expect(listConversations(reader).map((conversation) => conversation.id)).toEqual(['c2', 'c1']);
    expect(() => insertConversation(reader, { id: 'c3', title: 'Third', brain: null, model: null, now: '2026-01-03T00:00:00.000Z' })).toThrow(
      /readonly database/,
    );
  });

  it('refuses a database from a newer version, and a missing file', () => {
    const { writer, path } = opened();
    writer.$client.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => openReadOnlyDatabase(path)).toThrow(DatabaseFromFutureError);
    expect(() => openReadOnlyDatabase(join(path, '..', 'missing.db'))).toThrow(/unable to open database file/);
  });
});
