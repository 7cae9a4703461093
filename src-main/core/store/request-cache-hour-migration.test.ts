/**
 * Migration 0014 (request cache hour): the part of a request's cache writes kept an hour, priced apart from
 * five-minute writes. Requests counted before it wrote nothing for an hour (Anybrain asked for none), so 0 is true.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsBefore } from './migrations';
import { openDatabase } from './open';
import { recordRequestUsage, repriceRequests } from './request-usage';

describe('migration 0014_request_cache_hour', () => {
  it('counts no hour-long writes for earlier requests, and keeps those a request reports', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-migration-'));
    const path = join(folder, 'anybrain.db');
    const older = openDatabase(path, { migrations: migrationsBefore('0014_request_cache_hour') });
    older.$client.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at) VALUES ('c1', 'Tea', 'claude', 't0', 't1')").run();
    older.$client
      .prepare(
        `INSERT INTO request_usage (id, conversation_id, turn_id, purpose, round, brain, model, input_tokens, cache_read_tokens,
           cache_write_tokens, output_tokens, reasoning_tokens, created_at, cost_usd)
         VALUES ('u1', 'c1', 't1', 'reply', 0, 'claude', 'claude-sonnet-4-6', 1000, 0, 900, 50, 0, '2026-12-06T10:00:00.000Z', 0.004)`,
      )
      .run();
    older.$client.close();

    const db = openDatabase(path);
    try {
      recordRequestUsage(db, {
        conversationId: 'c1', turnId: 't2', purpose: 'reply', round: 0, brain: 'claude', model: 'claude-sonnet-4-6',
        usage: { inputTokens: 10, cacheWriteTokens: 3000, cacheWriteHourTokens: 2000, outputTokens: 5 }, costUsd: 0.02, now: '2026-12-07T10:00:00.000Z',
      });
      const read = db.$client.prepare('SELECT id, cache_write_tokens, cache_write_hour_tokens FROM request_usage ORDER BY created_at');
      expect(read.all()).toEqual([
        { id: 'u1', cache_write_tokens: 900, cache_write_hour_tokens: 0 },
        { id: expect.any(String), cache_write_tokens: 3000, cache_write_hour_tokens: 2000 },
      ]);
      const seen: unknown[] = [];
      expect(repriceRequests(db, 'claude', 'claude-sonnet-4-6', (tokens) => (seen.push(tokens), 1))).toBe(2);
      expect(seen).toContainEqual({ inputTokens: 3010, cacheReadTokens: 0, cacheWriteTokens: 3000, cacheWriteHourTokens: 2000, outputTokens: 5, createdAt: '2026-12-07T10:00:00.000Z' });
      expect(db.$client.prepare('SELECT cost_usd FROM request_usage').all()).toEqual([{ cost_usd: 1 }, { cost_usd: 1 }]);
    } finally {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
