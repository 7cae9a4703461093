import { describe, expect, it } from 'vitest';
import { insertConversation } from '../store/conversations';
import { insertMessage, listAllMessages } from '../store/messages';
import { readCounters } from '../store/settings';
import { openTestDatabase } from '../store/test-database';
import { applyRepair, measureTextHealth, planRepair, undoLastRepair } from './repair';

function seeded() {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c', title: 'x', brain: null, model: null, now: 't' });
  const rows: Array<[string, 'user' | 'assistant' | 'system', 'chat' | 'summary', string]> = [
    ['u', 'user', 'chat', 'the user wrote \\"this\\"'],
    ['a1', 'assistant', 'chat', 'He said \\"hi\\". `code \\"kept\\"`'],
    ['a2', 'assistant', 'chat', 'Answer.\n\n<details><summary>tool</summary>out</details>\n\n2 memories · 1 tool'],
    ['s', 'system', 'summary', 'Summary: \\"quoted\\"'],
    ['a3', 'assistant', 'chat', 'Clean.'],
  ];
  rows.forEach(([id, role, kind, text], seq) => insertMessage(db, { id, conversationId: 'c', seq, turnId: 't', role, kind, text, status: 'complete', createdAt: 't' }));
  return db;
}

const texts = (db: ReturnType<typeof openTestDatabase>) => Object.fromEntries(listAllMessages(db, 'c').map((row) => [row.id, row.text]));

describe('repair', () => {
  it('measures, plans without changing anything, applies, and undoes exactly', () => {
    const db = seeded();
    const original = texts(db);
    expect(measureTextHealth(db)).toEqual({ chromeRows: 1, quoteEscapeRows: 2 });

    const plan = planRepair(db, 'quote-escapes');
    expect(plan.map((change) => [change.messageId, change.after, change.count])).toEqual([
      ['a1', 'He said "hi". `code \\"kept\\"`', 2],
      ['s', 'Summary: "quoted"', 2],
    ]);
    expect(texts(db)).toEqual(original);

    expect(applyRepair(db, 'quote-escapes', plan).changed).toBe(2);
    expect(texts(db)).toMatchObject({ u: 'the user wrote \\"this\\"', a1: 'He said "hi". `code \\"kept\\"`', s: 'Summary: "quoted"' });
    expect(readCounters(db)).toEqual({ quote_escape_normalizations: 4 });

    applyRepair(db, 'chrome', planRepair(db, 'chrome'));
    expect(texts(db).a2).toBe('Answer.');
    expect(measureTextHealth(db)).toEqual({ chromeRows: 0, quoteEscapeRows: 0 });

    expect(undoLastRepair(db)).toEqual({ kind: 'chrome', restored: 1, skipped: 0 });
    expect(texts(db).a2).toBe(original.a2);
    expect(undoLastRepair(db)).toEqual({ kind: 'quote-escapes', restored: 2, skipped: 0 });
    expect(texts(db)).toEqual(original);
    expect(undoLastRepair(db)).toEqual({ kind: null, restored: 0, skipped: 0 });
  });
});
