/**
 * Migration 0007 (branches) with data in it: a database seeded at the schema before it, opened at the current one,
 * reads every conversation as one straight path, exactly as a database written by the current code reads it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnEngine } from './turn-engine';
import { storeSummary } from '../store/compaction';
import { insertConversation } from '../store/conversations';
import { insertInvocation } from '../store/invocations';
import { scanLivePath } from '../store/live-path';
import { getMessage, insertMessage, listMessagePage, type MessageRow } from '../store/messages';
import { migrationsBefore } from '../store/migrations';
import { openDatabase, type AppDatabase } from '../store/open';
import { openTestDatabase } from '../store/test-database';

const NOW = '2026-12-01T10:00:00.000Z';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function add(db: AppDatabase, conversationId: string, id: string, role: 'user' | 'assistant', status: 'complete' | 'failed' = 'complete'): MessageRow {
  const seq = (db.$client.prepare('SELECT coalesce(max(seq), -1) + 1 AS seq FROM messages WHERE conversation_id = ?').get(conversationId) as { seq: number }).seq;
  return insertMessage(db, {
    id,
    conversationId,
    seq,
    turnId: `t-${id}`,
    role,
    text: `${role} words of ${id}`,
    status,
    ...(role === 'assistant' ? { brain: 'kimi' as const, modelRequested: 'kimi-k2.6', modelResponded: 'kimi-k2.6' } : {}),
    ...(status === 'failed' ? { error: { code: 'provider-error', message: 'It broke.', retryable: true } } : {}),
    createdAt: NOW,
  });
}

/**
 * Written by the current code, one straight path each: `empty`; `summarised`, eight rows of which a summary covers the
 * first four, then three more; `failed`, a failed reply answered again, with a tool call on the good reply.
 */
function currentTwin(): AppDatabase {
  const db = openTestDatabase();
  for (const id of ['empty', 'summarised', 'failed']) insertConversation(db, { id, title: id, brain: 'kimi', model: null, now: NOW });
  for (let index = 0; index < 8; index += 1) add(db, 'summarised', `s${index}`, index % 2 === 0 ? 'user' : 'assistant');
  storeSummary(db, {
    conversationId: 'summarised',
    text: 'The first four rows, summarised.',
    brain: 'kimi',
    model: 'kimi-k2.6',
    madeFor: { brain: 'kimi', model: 'kimi-k2.6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
    span: { previousSummary: null, afterSeq: -1, throughSeq: 3, rows: 4, tokens: 0 },
    now: NOW,
  });
  for (let index = 9; index < 12; index += 1) add(db, 'summarised', `s${index}`, index % 2 === 0 ? 'assistant' : 'user');
  add(db, 'failed', 'f0', 'user');
  add(db, 'failed', 'f1', 'assistant', 'failed');
  const reply = add(db, 'failed', 'f2', 'assistant');
  insertInvocation(db, {
    id: 'call-1', turnId: reply.turnId, messageId: reply.id, seq: 0, kind: 'tool', server: null, tool: 'current_time', providerCallId: 'call_1',
    input: {}, output: '2026-12-01T10:00:00Z', status: 'ok', opaque: null, startedAt: NOW, endedAt: NOW,
  });
  add(db, 'failed', 'f3', 'user');
  add(db, 'failed', 'f4', 'assistant');
  return db;
}

/** The same rows in a database at the schema before 0007: every column that schema had, copied from the twin. */
function seedOlderDatabase(path: string, twin: AppDatabase): void {
  const older = openDatabase(path, { migrations: migrationsBefore('0007_branches') });
  for (const table of ['conversations', 'messages', 'tool_invocations']) {
    const columns = (older.$client.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
    const insert = older.$client.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
    for (const row of twin.$client.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY rowid`).all()) insert.run(row);
  }
  older.$client.close();
}

function previewEngine(db: AppDatabase): TurnEngine {
  return new TurnEngine({
    db,
    emit: () => {},
    stream: () => {
      throw new Error('A preview sends nothing.');
    },
    connectionFor: () => ({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'test-key' }),
  });
}

describe('migration 0007_branches', () => {
  it('links every conversation as one straight path that reads exactly as before', async () => {
    const twin = currentTwin();
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-branches-'));
    folders.push(folder);
    const path = join(folder, 'anybrain.db');
    seedOlderDatabase(path, twin);
    const migrated = openDatabase(path);

    const links = (db: AppDatabase) =>
      db.$client.prepare('SELECT conversation_id, id, parent_id, on_live_path FROM messages ORDER BY conversation_id, seq').all() as {
        conversation_id: string; id: string; parent_id: string | null; on_live_path: number;
      }[];
    const summaryId = links(migrated).find((row) => row.conversation_id === 'summarised' && row.id.length > 4)!.id;
    expect(links(migrated).map((row) => [row.id, row.parent_id, row.on_live_path])).toEqual([
      ['f0', null, 1],
      ['f1', 'f0', 1],
      ['f2', 'f1', 1],
      ['f3', 'f2', 1],
      ['f4', 'f3', 1],
      ['s0', null, 1],
      ['s1', 's0', 1],
      ['s2', 's1', 1],
      ['s3', 's2', 1],
      ['s4', 's3', 1],
      ['s5', 's4', 1],
      ['s6', 's5', 1],
      ['s7', 's6', 1],
      // The summary follows nothing and is on no path; the row after it follows the row before it.
      [summaryId, null, 0],
      ['s9', 's7', 1],
      ['s10', 's9', 1],
      ['s11', 's10', 1],
    ]);
    expect(links(migrated)).toEqual(links(twin));
    const leaves = (db: AppDatabase) => db.$client.prepare('SELECT id, current_leaf_id AS leafId FROM conversations ORDER BY id').all();
    expect(leaves(migrated)).toEqual([
      { id: 'empty', leafId: null },
      { id: 'failed', leafId: 'f4' },
      { id: 'summarised', leafId: 's11' },
    ]);
    expect(leaves(migrated)).toEqual(leaves(twin));
    // The running totals the window guard subtracts are the ones the current code writes.
    const totals = (db: AppDatabase) => db.$client.prepare('SELECT id, replayed_tokens_through, replayed_rows_through FROM messages ORDER BY id').all();
    expect(totals(migrated)).toEqual(totals(twin));

    for (const conversationId of ['empty', 'summarised', 'failed']) {
      const ids = (db: AppDatabase, limit: number, beforeSeq?: number) => {
        const page = listMessagePage(db, conversationId, limit, beforeSeq);
        return { ids: page.rows.map((row) => row.id), hasOlder: page.hasOlder };
      };
      expect(ids(migrated, 100)).toEqual(ids(twin, 100));
      expect(ids(migrated, 2)).toEqual(ids(twin, 2));
      expect(scanLivePath(migrated, conversationId)).toEqual(scanLivePath(twin, conversationId));
      expect(scanLivePath(migrated, conversationId, 25, 3)).toEqual(scanLivePath(twin, conversationId, 25, 3));
    }
    expect(listMessagePage(migrated, 'summarised', 100).rows.map((row) => row.id)).toEqual([summaryId, 's4', 's5', 's6', 's7', 's9', 's10', 's11']);
    expect(listMessagePage(migrated, 'failed', 100).rows.map((row) => row.id)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(getMessage(migrated, 'f1')?.status).toBe('failed');

    for (const conversationId of ['summarised', 'failed']) {
      for (const brain of ['kimi', 'claude', 'gemini'] as const) {
        const request = (db: AppDatabase) => previewEngine(db).previewRequest(conversationId, { brain, message: 'And now?' });
        const [fromMigrated, fromTwin] = [await request(migrated), await request(twin)];
        expect(fromMigrated).toEqual(fromTwin);
      }
    }
    const replayed = JSON.parse((await previewEngine(migrated).previewRequest('failed', { brain: 'kimi', message: 'And now?' })).body) as {
      messages: { role: string; content?: unknown }[];
    };
    // The failed reply never replays; the good one does, with its call.
    expect(replayed.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);
    migrated.$client.close();
  });
});
