/**
 * Migration 0013 (reply rounds): a reply that ran tools keeps where each of its rounds ended, so it can replay in the
 * rounds it was written in. Replies stored before it have none and replay as one message, as they did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishMessage, getMessage, insertMessage, newestReplyWithRounds } from './messages';
import { migrationsBefore } from './migrations';
import { openDatabase } from './open';

const ROUNDS = [{ textLength: 7, reasoningTextLength: 12, reasoningBlockCount: 1, callCount: 2 }];

describe('migration 0013_reply_rounds', () => {
  it('leaves earlier replies without rounds, and keeps the rounds a reply ends with', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-migration-'));
    const path = join(folder, 'anybrain.db');
    const older = openDatabase(path, { migrations: migrationsBefore('0013_reply_rounds') });
    older.$client.prepare("INSERT INTO conversations (id, title, brain, created_at, updated_at) VALUES ('c1', 'Tea', 'claude', 't0', 't1')").run();
    older.$client
      .prepare(
        `INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, brain, model_requested, created_at, updated_at)
         VALUES ('a0', 'c1', 1, 't0', 'assistant', 'Earlier.', 'complete', 'claude', 'claude-sonnet-5-5', 't0', 't0')`,
      )
      .run();
    older.$client.close();

    const db = openDatabase(path);
    try {
      expect(getMessage(db, 'a0')?.rounds).toBeNull();
      expect(newestReplyWithRounds(db, 'c1')).toBeNull();
      const base = { conversationId: 'c1', turnId: 't1', role: 'assistant', brain: 'claude', modelRequested: 'claude-sonnet-5-5', createdAt: 't2' } as const;
      insertMessage(db, { ...base, id: 'a1', seq: 2, text: '', status: 'streaming' });
      const finished = { text: 'Seoul: noon.', status: 'complete', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 5, now: 't3' } as const;
      expect(finishMessage(db, 'a1', { ...finished, rounds: ROUNDS }).rounds).toEqual(ROUNDS);
      expect(getMessage(db, 'a1')?.rounds).toEqual(ROUNDS);
      expect(newestReplyWithRounds(db, 'c1')).toBe('a1');

      // A newer reply without tools is the newest now: nothing replays as written.
      insertMessage(db, { ...base, id: 'a2', seq: 3, text: '', status: 'streaming', turnId: 't2' });
      expect(finishMessage(db, 'a2', { ...finished, rounds: [] }).rounds).toBeNull();
      expect(newestReplyWithRounds(db, 'c1')).toBeNull();
    } finally {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
