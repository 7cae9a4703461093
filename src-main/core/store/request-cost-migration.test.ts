/**
 * Migration 0012 (request cost): each request's dollars, kept beside its tokens. Requests counted before it keep their
 * tokens and have no price, so a reply or conversation that includes one shows no total rather than a wrong one.
 */
import { describe, expect, it } from 'vitest';
import { migrationsBefore } from './migrations';
import { openDatabase } from './open';
import { recordRequestUsage, replyUsageByTurn, usageOfConversation } from './request-usage';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('migration 0012_request_cost', () => {
  it('adds an empty cost to every request counted before it, and sums only what is priced', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-migration-'));
    const path = join(folder, 'anybrain.db');
    const older = openDatabase(path, { migrations: migrationsBefore('0012_request_cost') });
    older.$client.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at) VALUES ('c1', 'Tea', 'claude', 't0', 't1')").run();
    older.$client
      .prepare(
        `INSERT INTO request_usage (id, conversation_id, turn_id, purpose, round, brain, model, input_tokens, cache_read_tokens,
           cache_write_tokens, output_tokens, reasoning_tokens, created_at) VALUES ('u1', 'c1', 't1', 'reply', 0, 'claude', 'claude-sonnet-5-5', 1000, 900, 0, 50, 0, 't2')`,
      )
      .run();
    older.$client.close();

    const db = openDatabase(path);
    try {
      expect(db.$client.prepare("SELECT input_tokens, cache_read_tokens, output_tokens, cost_usd FROM request_usage WHERE id = 'u1'").get()).toEqual({
        input_tokens: 1000, cache_read_tokens: 900, output_tokens: 50, cost_usd: null,
      });
      recordRequestUsage(db, { conversationId: 'c1', turnId: 't2', purpose: 'reply', round: 0, brain: 'claude', model: 'claude-sonnet-5-5', usage: { inputTokens: 10, outputTokens: 5 }, costUsd: 0.00011, now: 't3' });
      recordRequestUsage(db, { conversationId: 'c1', turnId: 't2', purpose: 'reply', round: 1, brain: 'claude', model: 'claude-sonnet-5-5', usage: { inputTokens: 20, outputTokens: 5 }, costUsd: 0.00014, now: 't4' });
      expect(replyUsageByTurn(db, ['t1', 't2', 'none'])).toEqual(
        new Map([
          ['t1', { requests: 1, inputTokens: 1000, cacheReadTokens: 900, cacheWriteTokens: 0, outputTokens: 50, reasoningTokens: 0, costUsd: null }],
          ['t2', { requests: 2, inputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 0, costUsd: 0.00025 }],
        ]),
      );
      // The conversation holds a request of unknown price: its total is unknown, never the priced part alone.
      expect(usageOfConversation(db, 'c1')).toMatchObject({ requests: 3, costUsd: null });
    } finally {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
