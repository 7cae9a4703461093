/**
 * Migration 0011 (windows per brain): a database seeded at the schema before it opens with every row kept, empty
 * `summary_windows` and `request_usage` tables, and brain state that gains where a request starts while rows are left out, empty on every
 * row it had. A summary written before it has no recorded window and still stands for its rows in any brain's request
 * that cannot hold them.
 */
import { describe, expect, it } from 'vitest';
import { insertMessage } from './messages';
import { recordRequestUsage, usageOfConversation } from './request-usage';
import { readBrainState, saveBrainState } from './settings';
import { scanLivePath } from './live-path';
import { migrateOneConversationPast } from './testing/migration-step';

describe('migration 0011_windows_per_brain', () => {
  it('adds an empty summary_windows table, whose rows go with their summary; older summaries suit every window', () => {
    const migrated = migrateOneConversationPast('0011_windows_per_brain');
    const { db } = migrated;
    expect(migrated.columnsOf('summary_windows')).toEqual([
      ['summary_id', 1, 1],
      ['brain', 1, 0],
      ['model', 1, 0],
      ['context_window', 1, 0],
      ['input_budget', 1, 0],
      ['requested', 1, 0],
    ]);
    for (let seq = 0; seq < 6; seq += 1) {
      insertMessage(db, { id: `m${seq}`, conversationId: 'c1', seq, turnId: `t${seq}`, role: seq % 2 === 0 ? 'user' : 'assistant', text: `row ${seq}`, status: 'complete', tokenEstimate: 10, createdAt: 't2' });
    }
    insertMessage(db, { id: 'old', conversationId: 'c1', seq: 6, turnId: 't-old', role: 'system', kind: 'summary', text: 'Rows 0 to 3.', status: 'complete', tokenEstimate: 5, coversThroughId: 'm3', createdAt: 't2' });
    expect(scanLivePath(db, 'c1', 30, 0, { target: { brain: 'claude', contextWindow: 1_000_000 } })).toMatchObject({ summary: { id: 'old', madeFor: null }, fittingTokens: 25, outsideRows: 0 });

    db.$client.prepare("INSERT INTO summary_windows VALUES ('old', 'ollama', 'qwen3', 4096, 3276, 0)").run();
    db.$client.prepare("DELETE FROM messages WHERE id = 'old'").run();
    expect(db.$client.prepare('SELECT count(*) FROM summary_windows').pluck().get()).toBe(0);
    migrated.close();
  });
});

describe('migration 0011_windows_per_brain, request usage', () => {
  it('adds an empty request_usage table, whose rows go with their conversation', () => {
    const migrated = migrateOneConversationPast('0011_windows_per_brain');
    const { db } = migrated;
    // The columns 0011 made; later migrations add more after them.
    expect(migrated.columnsOf('request_usage').map(([name]) => name).slice(0, 13)).toEqual([
      'id', 'conversation_id', 'turn_id', 'purpose', 'round', 'brain', 'model', 'input_tokens', 'cache_read_tokens', 'cache_write_tokens',
      'output_tokens', 'reasoning_tokens', 'created_at',
    ]);
    recordRequestUsage(db, { conversationId: 'c1', turnId: 't1', purpose: 'reply', round: 0, brain: 'claude', model: 'claude-sonnet-5-5', usage: { inputTokens: 10, cacheReadTokens: 90 }, costUsd: null, now: 't2' });
    expect(usageOfConversation(db, 'c1')).toMatchObject({ requests: 1, inputTokens: 100, cacheReadTokens: 90 });
    db.$client.prepare("DELETE FROM conversations WHERE id = 'c1'").run();
    expect(db.$client.prepare('SELECT count(*) FROM request_usage').pluck().get()).toBe(0);
    migrated.close();
  });
});

describe('migration 0011_windows_per_brain, brain state', () => {
  it("adds an empty cut point to each brain's state, keeping what the state held", () => {
    const migrated = migrateOneConversationPast('0011_windows_per_brain');
    const { db } = migrated;
    expect(migrated.columnsOf('brain_state').map(([name]) => name)).toEqual([
      'conversation_id', 'brain', 'usage', 'full', 'updated_at', 'refused_tokens', 'refused_model', 'trim_from_seq', 'trim_window',
    ]);
    saveBrainState(db, { conversationId: 'c1', brain: 'kimi', full: true, refused: { tokens: 100_000, model: 'kimi-k2.6' }, now: 't2' });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: true, refusedTokens: 100_000, trimFromSeq: null, trimWindow: null });
    saveBrainState(db, { conversationId: 'c1', brain: 'kimi', trim: { fromSeq: 42, window: 8_000 }, now: 't3' });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: true, refusedTokens: 100_000, trimFromSeq: 42, trimWindow: 8_000 });
    migrated.close();
  });
});
