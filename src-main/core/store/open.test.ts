import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backupBeforeMigration,
  DatabaseFromFutureError,
  KEPT_MIGRATION_BACKUPS,
  MigrationFailedError,
  migrationBackupName,
  openDatabase,
  schemaVersion,
} from './open';
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
    // NORMAL: commits leave their wait for the disk to the thread pool (log-sync.ts).
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(1);
    const tables = db.$client
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'memories_fts_*' AND name NOT GLOB 'messages_fts_*' AND name NOT GLOB 'messages_cjk_fts_*' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'attachments',
      'brain_state',
      'conversations',
      'counters',
      'memories',
      'memories_fts',
      'messages',
      'messages_cjk_fts',
      'messages_fts',
      'provider_models',
      'repair_changes',
      'request_usage',
      'search_backfill',
      'settings',
      'summary_windows',
      'tool_invocations',
      'turn_leases',
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
    // A conversation without messages has no leaf (see engine/branches-migration.test.ts for the paths migration 0007 links).
    expect(current.$client.prepare('SELECT * FROM conversations').all()).toEqual(before.map((row) => ({ ...(row as object), current_leaf_id: null })));
    // The memories index covers rows written before the upgrade.
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

type SeedRow = Readonly<Record<string, string | number | null>>;

/** Representative rows for every table a user's data lives in, every column set, JSON columns as stored. */
const SEED: ReadonlyArray<{ readonly table: string; readonly rows: readonly SeedRow[] }> = [
  {
    table: 'conversations',
    rows: [
      { id: 'c1', title: 'Whales and tides 🐋', brain: 'claude', model: 'claude-sonnet-4-6', reasoning_level: 'high', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z', archived: 0, current_leaf_id: 'm3' },
      { id: 'c2', title: '안녕 archived', brain: null, model: null, reasoning_level: null, created_at: '2026-01-03T00:00:00.000Z', updated_at: '2026-01-03T00:00:00.000Z', archived: 1, current_leaf_id: null },
    ],
  },
  {
    table: 'messages',
    rows: [
      {
        id: 'm1', conversation_id: 'c1', seq: 0, turn_id: 't1', role: 'user', kind: 'chat', text: 'Tell me about "whales"\nplease',
        token_estimate: 7, status: 'complete', error: null, brain: null, model_requested: null, model_responded: null,
        reasoning_level: null, reasoning: null, usage: null, compacted_into: null, stream_owner: null,
        created_at: '2026-01-01T00:00:01.000Z', updated_at: '2026-01-01T00:00:01.000Z', parent_id: null, on_live_path: 1,
      },
      {
        id: 'm2', conversation_id: 'c1', seq: 1, turn_id: 't1', role: 'assistant', kind: 'chat', text: 'Whales sing.',
        token_estimate: 3, status: 'complete', error: null, brain: 'claude', model_requested: 'claude-sonnet-4-6',
        model_responded: 'claude-sonnet-4-6-20260101', reasoning_level: 'high',
        reasoning: JSON.stringify({ brain: 'claude', model: 'claude-sonnet-4-6', text: 'They ask about whales.', opaque: { blocks: [{ type: 'thinking', thinking: 'They ask about whales.', signature: 'c2lnbmF0dXJl' }] } }),
        usage: JSON.stringify({ inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1000 }), compacted_into: 'm4', stream_owner: null,
        created_at: '2026-01-01T00:00:02.000Z', updated_at: '2026-01-01T00:00:03.000Z', parent_id: 'm1', on_live_path: 1,
      },
      {
        id: 'm3', conversation_id: 'c1', seq: 2, turn_id: 't2', role: 'assistant', kind: 'chat', text: 'Half a rep',
        token_estimate: 3, status: 'interrupted',
        error: JSON.stringify({ code: 'interrupted', message: 'Anybrain closed while this reply was being written.', retryable: true }),
        brain: 'kimi', model_requested: 'kimi-k2.6', model_responded: null, reasoning_level: 'off', reasoning: null, usage: null,
        compacted_into: null, stream_owner: '4242@builder', created_at: '2026-01-01T00:00:04.000Z', updated_at: '2026-01-01T00:00:05.000Z',
        parent_id: 'm2', on_live_path: 1,
      },
      {
        id: 'm4', conversation_id: 'c1', seq: 3, turn_id: 't3', role: 'system', kind: 'summary', text: 'The user asked about whales.',
        token_estimate: 6, status: 'complete', error: null, brain: 'claude', model_requested: null, model_responded: null,
        reasoning_level: null, reasoning: null, usage: null, compacted_into: null, stream_owner: null,
        created_at: '2026-01-01T00:00:06.000Z', updated_at: '2026-01-01T00:00:06.000Z', parent_id: null, on_live_path: 0,
      },
    ],
  },
  {
    table: 'tool_invocations',
    rows: [
      {
        id: 'i1', turn_id: 't1', message_id: 'm2', seq: 0, kind: 'tool', server: 'files', tool: 'read_file', provider_call_id: 'toolu_01',
        input: JSON.stringify({ path: '/notes/whales.md' }), output: 'Blue whales are the largest animals.', status: 'ok',
        opaque: JSON.stringify({ thoughtSignature: 'dGhvdWdodA==' }), started_at: '2026-01-01T00:00:02.100Z', ended_at: '2026-01-01T00:00:02.200Z',
        images: JSON.stringify([{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]),
      },
      {
        id: 'i2', turn_id: 't1', message_id: 'm2', seq: 1, kind: 'memory', server: null, tool: 'memory', provider_call_id: null,
        input: JSON.stringify({ id: 'mem1' }), output: null, status: 'denied', opaque: null, started_at: '2026-01-01T00:00:02.300Z', ended_at: null,
      },
    ],
  },
  {
    table: 'memories',
    rows: [
      { id: 'mem1', text: 'The user likes blue whales.', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
      { id: 'mem2', text: 'Café opening hours: 9 to 5.', created_at: '2026-01-02T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' },
    ],
  },
  { table: 'settings', rows: [{ key: 'defaultBrain', value: '"kimi"' }, { key: 'baseUrls', value: JSON.stringify({ ollama: 'http://127.0.0.1:11434' }) }] },
  { table: 'counters', rows: [{ name: 'quote-escape-normalizations', value: 3 }] },
  { table: 'brain_state', rows: [{ conversation_id: 'c1', brain: 'claude', usage: JSON.stringify({ inputTokens: 1200 }), full: 1, updated_at: '2026-01-01T00:00:03.000Z' }] },
  {
    table: 'repair_changes',
    rows: [{ repair_id: 'r1', kind: 'quote-escapes', message_id: 'm2', before_text: 'Whales \\"sing\\".', after_text: 'Whales sing.', applied_at: '2026-01-01T00:00:07.000Z' }],
  },
];

/** Columns a later migration added to a table that already had rows, and the value those rows get. */
const ADDED_COLUMNS: Readonly<Record<string, SeedRow>> = {
  messages: { stream_owner: null, covers_through_id: null, replayed_tokens_through: null, replayed_rows_through: null, rounds: null },
  brain_state: { refused_tokens: null, refused_model: null, trim_from_seq: null, trim_window: null },
  tool_invocations: { images: null },
};

/**
 * Migration 0004 adds to each row's estimate what it replays beyond its words: 4 tokens of framing, and on m2 its one
 * tool call (40 of framing, the 27-character input and the 36-character answer at four characters a token, 7 + 9).
 * Its memory invocation has no output, so adds nothing. Then it writes the running totals of the rows that are not
 * summaries: m1, m2, m3 in order (the summary m4 has none).
 */
const MESSAGES_AFTER_0004: Readonly<Record<string, SeedRow>> = {
  m1: { token_estimate: 7 + 4, replayed_tokens_through: 11, replayed_rows_through: 1 },
  m2: { token_estimate: 3 + 4 + 40 + 7 + 9, replayed_tokens_through: 11 + 63, replayed_rows_through: 2 },
  m3: { token_estimate: 3 + 4, replayed_tokens_through: 74 + 7, replayed_rows_through: 3 },
  m4: { token_estimate: 6 + 4 },
};

/**
 * Migration 0007 links each conversation as one straight path: each message follows the one before it (the summary m4
 * follows nothing and is on no path), and the newest message is the leaf. The seed rows hold those values already.
 */
const BRANCH_COLUMNS = ['parent_id', 'on_live_path', 'current_leaf_id'];

function linkedAsOnePath(table: string, row: SeedRow): SeedRow {
  const seedRow = SEED.find((entry) => entry.table === table)?.rows.find((candidate) => candidate.id === row.id) ?? {};
  return Object.fromEntries(BRANCH_COLUMNS.filter((column) => column in seedRow && !(column in row)).map((column) => [column, seedRow[column] ?? null]));
}

/** A row seeded at schema `version` as it reads after every later migration ran. */
function upgradedRow(table: string, row: SeedRow, version: number): SeedRow {
  const added = Object.fromEntries(Object.entries(ADDED_COLUMNS[table] ?? {}).filter(([column]) => !(column in row)));
  const backfilled = table === 'messages' && version < 5 ? MESSAGES_AFTER_0004[String(row.id)] : {};
  return { ...row, ...added, ...backfilled, ...linkedAsOnePath(table, row) };
}

function columnsOf(sqlite: Database.Database, table: string): string[] {
  return (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
}

/** Inserts the seed rows into the tables and columns this older schema has; returns what each table now holds. */
function seedOlderSchema(sqlite: Database.Database): Map<string, SeedRow[]> {
  const seeded = new Map<string, SeedRow[]>();
  for (const { table, rows } of SEED) {
    const columns = columnsOf(sqlite, table);
    if (columns.length === 0) continue;
    const kept = rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));
    const insert = sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
    for (const row of kept) insert.run(row);
    seeded.set(table, kept);
  }
  return seeded;
}

function tableRows(sqlite: Database.Database, table: string): unknown[] {
  return sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
}

describe('upgrading every earlier schema', () => {
  for (let version = 0; version < SCHEMA_VERSION; version += 1) {
    it(`keeps every row of a schema ${version} database, and leaves a copy that opens at schema ${version}`, () => {
      const path = tempDatabasePath();
      const older = openDatabase(path, { migrations: MIGRATIONS.slice(0, version) });
      expect(schemaVersion(older)).toBe(version);
      const seeded = seedOlderSchema(older.$client);
      older.$client.close();

      const upgraded = openDatabase(path);
      expect(schemaVersion(upgraded)).toBe(SCHEMA_VERSION);
      expect(upgraded.$client.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const { table } of SEED) {
        const expected = (seeded.get(table) ?? []).map((row) => upgradedRow(table, row, version));
        expect({ table, rows: tableRows(upgraded.$client, table) }).toEqual({ table, rows: expected });
      }
      // Memories saved before the search index existed are found too.
      const found = upgraded.$client
        .prepare("SELECT m.id FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH 'whales' ORDER BY m.id")
        .pluck()
        .all();
      expect(found).toEqual(version === 0 ? [] : ['mem1']);
      upgraded.$client.close();

      const folder = join(path, '..');
      const backups = readdirSync(folder).filter((name) => name.startsWith('anybrain.db.backup-'));
      if (version === 0) {
        // A brand-new file holds nothing to copy.
        expect(backups).toEqual([]);
        return;
      }
      expect(backups).toHaveLength(1);
      expect(backups[0]).toMatch(new RegExp(`^anybrain\\.db\\.backup-v${version}-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z$`));
      const backupPath = join(folder, backups[0] ?? '');
      expect(statSync(backupPath).mode & 0o777).toBe(0o600);
      const copy = new Database(backupPath, { readonly: true });
      expect(copy.pragma('user_version', { simple: true })).toBe(version);
      for (const [table, rows] of seeded) expect({ table, rows: tableRows(copy, table) }).toEqual({ table, rows });
      copy.close();
    });
  }

  it('names the copy in the error when a migration fails, and changes nothing', () => {
    const path = tempDatabasePath();
    const current = openDatabase(path);
    const seeded = seedOlderSchema(current.$client);
    current.$client.close();
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, tag: 'broken', statements: ['ALTER TABLE messages ADD pinned integer', 'NOT SQL'] }];

    let failure: unknown = null;
    try {
      openDatabase(path, { migrations: broken });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(MigrationFailedError);
    const backupPath = (failure as MigrationFailedError).backupPath ?? '';
    expect((failure as Error).message).toBe(
      `Updating the data in ${path} from schema ${SCHEMA_VERSION} to ${SCHEMA_VERSION + 1} failed: near "NOT": syntax error. ` +
        `Nothing was changed. A copy taken just before the update is at ${backupPath}.`,
    );
    const copy = new Database(backupPath, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    copy.close();
    const unchanged = openDatabase(path);
    expect(columnsOf(unchanged.$client, 'messages')).not.toContain('pinned');
    for (const [table, rows] of seeded) expect({ table, rows: tableRows(unchanged.$client, table) }).toEqual({ table, rows });
    unchanged.$client.close();
  });

  it(`keeps the newest ${KEPT_MIGRATION_BACKUPS} copies`, () => {
    const path = tempDatabasePath();
    const folder = join(path, '..');
    const database = openDatabase(path);
    writeFileSync(join(folder, 'anybrain.db.notes'), 'not a copy');
    const takenAt = [5, 1, 4, 2, 3].map((day) => new Date(Date.UTC(2026, 0, day, 12)));
    for (const [index, when] of takenAt.entries()) backupBeforeMigration(database.$client, path, index + 1, when);
    database.$client.close();
    expect(readdirSync(folder).filter((name) => name.startsWith('anybrain.db.')).sort()).toEqual(
      [
        'anybrain.db.notes',
        migrationBackupName('anybrain.db', 1, new Date(Date.UTC(2026, 0, 5, 12))),
        migrationBackupName('anybrain.db', 3, new Date(Date.UTC(2026, 0, 4, 12))),
        migrationBackupName('anybrain.db', 5, new Date(Date.UTC(2026, 0, 3, 12))),
      ].sort(),
    );
    expect(migrationBackupName('anybrain.db', 3, new Date(Date.UTC(2026, 0, 4, 12)))).toBe('anybrain.db.backup-v3-2026-01-04T12-00-00-000Z');
  });
});
