import { MESSAGE_FRAMING_TOKENS } from '../context/token-estimate';
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TITLE,
  deleteConversation,
  getConversation,
  insertConversation,
  listConversations,
  updateConversation,
} from './conversations';
import {
  checkpointMessageText,
  listAllMessages,
  finishMessage,
  insertMessage,
  listLiveMessages,
  listMessagePage,
  listMessagePageAfter,
  markStreamingAsInterrupted,
  nextSeq,
  toMessageView,
} from './messages';
import { insertInvocation, listInvocationsByMessage, toInvocationView } from './invocations';
import { incrementCounter, readBrainState, readCounters, readSetting, saveBrainState, writeSetting } from './settings';
import { openTestDatabase } from './test-database';

function seedConversation(db: ReturnType<typeof openTestDatabase>, id: string, title: string, now: string) {
  return insertConversation(db, { id, title, brain: null, model: null, now });
}

describe('conversations', () => {
  it('lists newest first and searches titles literally', () => {
    const db = openTestDatabase();
    seedConversation(db, 'a', 'Rust lifetimes', '2026-01-01T00:00:00.000Z');
    seedConversation(db, 'b', '100% sure_thing', '2026-01-02T00:00:00.000Z');
    seedConversation(db, 'c', DEFAULT_TITLE, '2026-01-03T00:00:00.000Z');
    expect(listConversations(db).map((row) => row.id)).toEqual(['c', 'b', 'a']);
    expect(listConversations(db, 'rust').map((row) => row.id)).toEqual(['a']);
    expect(listConversations(db, '%').map((row) => row.id)).toEqual(['b']);
    expect(listConversations(db, '_').map((row) => row.id)).toEqual(['b']);
  });

  it('pages the list after the last conversation shown, ties on time broken by id', () => {
    const db = openTestDatabase();
    seedConversation(db, 'a', 'One', '2026-01-01T00:00:00.000Z');
    seedConversation(db, 'b', 'Two', '2026-01-02T00:00:00.000Z');
    seedConversation(db, 'c', 'Three', '2026-01-02T00:00:00.000Z');
    seedConversation(db, 'd', 'Four', '2026-01-03T00:00:00.000Z');
    expect(listConversations(db, undefined, { limit: 2 }).map((row) => row.id)).toEqual(['d', 'c']);
    expect(listConversations(db, undefined, { limit: 2, before: { updatedAt: '2026-01-02T00:00:00.000Z', id: 'c' } }).map((row) => row.id)).toEqual(['b', 'a']);
    expect(listConversations(db, undefined, { limit: 2, before: { updatedAt: '2026-01-01T00:00:00.000Z', id: 'a' } })).toEqual([]);
    expect(listConversations(db, 't', { limit: 1, before: { updatedAt: '2026-01-02T00:00:00.000Z', id: 'c' } }).map((row) => row.id)).toEqual(['b']);
    expect(listConversations(db, undefined, { before: { updatedAt: '2026-01-03T00:00:00.000Z', id: 'd' } }).map((row) => row.id)).toEqual(['c', 'b', 'a']);
  });

  it('renames, sets the brain and deletes with its messages', () => {
    const db = openTestDatabase();
    seedConversation(db, 'a', 'Old', 't0');
    expect(updateConversation(db, 'a', { title: 'New', brain: 'kimi', model: 'kimi-k2.6', updatedAt: 't1' })).toEqual({
      id: 'a',
      title: 'New',
      brain: 'kimi',
      model: 'kimi-k2.6',
      reasoningLevel: null,
      createdAt: 't0',
      updatedAt: 't1',
      archived: false,
    });
    insertMessage(db, { id: 'm1', conversationId: 'a', seq: 0, turnId: 't', role: 'user', text: 'hi', status: 'complete', createdAt: 't1' });
    expect(deleteConversation(db, 'a')).toBe(true);
    expect(getConversation(db, 'a')).toBeNull();
    expect(listLiveMessages(db, 'a')).toEqual([]);
    expect(deleteConversation(db, 'a')).toBe(false);
  });
});

describe('messages', () => {
  it('pages from the newest, oldest first within a page', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Paged', 't0');
    for (let seq = 0; seq < 7; seq += 1) {
      insertMessage(db, { id: `m${seq}`, conversationId: 'c', seq, turnId: `t${seq}`, role: 'user', text: `#${seq}`, status: 'complete', createdAt: 't0' });
    }
    expect(nextSeq(db, 'c')).toBe(7);
    const newest = listMessagePage(db, 'c', 3);
    expect(newest.rows.map((row) => row.seq)).toEqual([4, 5, 6]);
    expect(newest.hasOlder).toBe(true);
    const older = listMessagePage(db, 'c', 3, 4);
    expect(older.rows.map((row) => row.seq)).toEqual([1, 2, 3]);
    const oldest = listMessagePage(db, 'c', 3, 1);
    expect(oldest.rows.map((row) => row.seq)).toEqual([0]);
    expect(oldest.hasOlder).toBe(false);
  });

  it('pages forward after a seq, oldest first, saying whether newer rows exist', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Paged', 't0');
    for (let seq = 0; seq < 7; seq += 1) {
      insertMessage(db, { id: `m${seq}`, conversationId: 'c', seq, turnId: `t${seq}`, role: 'user', text: `#${seq}`, status: 'complete', createdAt: 't0' });
    }
    const middle = listMessagePageAfter(db, 'c', 3, 1);
    expect([middle.rows.map((row) => row.seq), middle.hasOlder, middle.hasNewer]).toEqual([[2, 3, 4], true, true]);
    const newest = listMessagePageAfter(db, 'c', 3, 4);
    expect([newest.rows.map((row) => row.seq), newest.hasOlder, newest.hasNewer]).toEqual([[5, 6], true, false]);
  });

  it('checkpoints a streaming reply, then finishes it with every field', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Stream', 't0');
    insertMessage(db, {
      id: 'a1', conversationId: 'c', seq: 0, turnId: 'turn', role: 'assistant', text: '', status: 'streaming',
      brain: 'kimi', modelRequested: 'kimi-k2.6', reasoningLevel: 'high', createdAt: 't0',
    });
    checkpointMessageText(db, 'a1', 'Hello 안녕', 't1');
    expect(listLiveMessages(db, 'c')[0]).toMatchObject({ text: 'Hello 안녕', status: 'streaming', tokenEstimate: 2 + 2 + MESSAGE_FRAMING_TOKENS });
    const finished = finishMessage(db, 'a1', {
      text: 'Hello 안녕!', status: 'complete', error: null, modelResponded: 'kimi-k2.6-0905',
      reasoning: { brain: 'kimi', model: 'kimi-k2.6-0905', text: 'thinking', opaque: { reasoning_content: 'thinking' }, durationMs: 2_500 },
      usage: { inputTokens: 10, outputTokens: 3 }, tokenEstimate: 7, now: 't2',
    });
    // The view carries the readable reasoning and its time only: the brain's opaque carriers stay in the store.
    expect(toMessageView(finished)).toEqual({
      id: 'a1', conversationId: 'c', seq: 0, turnId: 'turn', role: 'assistant', kind: 'chat', text: 'Hello 안녕!',
      status: 'complete', error: null, brain: 'kimi', modelRequested: 'kimi-k2.6', modelResponded: 'kimi-k2.6-0905',
      modelMismatch: false, reasoningLevel: 'high', usage: { inputTokens: 10, outputTokens: 3 }, compactedInto: null, coversThroughId: null,
      coveredMessages: 0, parentId: null, siblings: null, reasoning: { text: 'thinking', durationMs: 2_500 }, attachments: [], spend: null, createdAt: 't0', updatedAt: 't2',
    });
    expect(finished.tokenEstimate).toBe(7);
    // A checkpoint arriving after the finish never overwrites it.
    checkpointMessageText(db, 'a1', 'late', 't3');
    expect(listLiveMessages(db, 'c')[0]?.text).toBe('Hello 안녕!');
  });

  it('prepares no statement to store a message after the first: a turn stores two as it is admitted', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Stored', 't0');
    insertMessage(db, { id: 'u0', conversationId: 'c', seq: 0, turnId: 't', role: 'user', text: 'first', status: 'complete', createdAt: 't0' });
    insertMessage(db, { id: 'u1', conversationId: 'c', seq: 1, turnId: 't', role: 'user', text: 'second', status: 'complete', createdAt: 't0' });
    const prepare = vi.spyOn(db.$client, 'prepare');
    const reply = insertMessage(db, {
      id: 'a1', conversationId: 'c', seq: 2, turnId: 't', role: 'assistant', text: '', status: 'streaming', brain: 'kimi',
      modelRequested: 'kimi-k2.6', reasoningLevel: 'high', streamOwner: '1@host', usage: { inputTokens: 3 }, createdAt: 't1',
    });
    expect(prepare.mock.calls).toEqual([]);
    expect(reply).toEqual(listAllMessages(db, 'c')[2]);
    expect(reply).toMatchObject({ parentId: 'u1', onLivePath: 1, usage: { inputTokens: 3 }, error: null, reasoning: null, replayedRowsThrough: 3 });
  });

  it('prepares no statement to finish a reply after the first: every reply ends with it', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Stream', 't0');
    const finished = { error: null, modelResponded: 'kimi-k2.6', reasoning: null, tokenEstimate: 9, now: 't2' } as const;
    for (const id of ['a1', 'a2']) {
      insertMessage(db, {
        id, conversationId: 'c', seq: id === 'a1' ? 0 : 1, turnId: id, role: 'assistant', text: '', status: 'streaming',
        brain: 'kimi', modelRequested: 'kimi-k2.6', streamOwner: '1@host', createdAt: 't0',
      });
    }
    finishMessage(db, 'a1', { ...finished, text: 'One.', status: 'complete', usage: null });
    const prepare = vi.spyOn(db.$client, 'prepare');
    const error = { code: 'provider-error', message: 'Overloaded.', retryable: true } as const;
    const row = finishMessage(db, 'a2', { ...finished, text: 'Two 🙂', status: 'failed', error, usage: { inputTokens: 4, outputTokens: 2 } });
    expect(prepare.mock.calls).toEqual([]);
    expect(row).toEqual(listAllMessages(db, 'c')[1]);
    expect(row).toMatchObject({ text: 'Two 🙂', status: 'failed', error, usage: { inputTokens: 4, outputTokens: 2 }, streamOwner: null, updatedAt: 't2' });
  });

  it('prepares no statement for a checkpoint after the first: it runs four times a second while a reply streams', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Stream', 't0');
    insertMessage(db, {
      id: 'a1', conversationId: 'c', seq: 0, turnId: 'turn', role: 'assistant', text: '', status: 'streaming',
      brain: 'kimi', modelRequested: 'kimi-k2.6', reasoningLevel: 'high', createdAt: 't0',
    });
    checkpointMessageText(db, 'a1', 'Hello', 't1');
    const prepare = vi.spyOn(db.$client, 'prepare');
    checkpointMessageText(db, 'a1', 'Hello there', 't2');
    checkpointMessageText(db, 'a1', 'Hello there, again', 't3');
    expect(prepare).not.toHaveBeenCalled();
    expect(listLiveMessages(db, 'c')[0]).toMatchObject({ text: 'Hello there, again', status: 'streaming', updatedAt: 't3' });
  });

  it('shows reasoning stored before its time was measured with no time, and opaque-only reasoning as none', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Old', 't0');
    const reply = { conversationId: 'c', turnId: 't', role: 'assistant', status: 'complete', brain: 'codex', createdAt: 't0' } as const;
    insertMessage(db, { ...reply, id: 'a1', seq: 0, text: 'one', reasoning: { brain: 'codex', model: 'gpt-5.5', text: 'Plan.', opaque: { blocks: [] } } });
    insertMessage(db, { ...reply, id: 'a2', seq: 1, text: 'two', reasoning: { brain: 'codex', model: 'gpt-5.5', text: '', opaque: { blocks: [{ encrypted_content: 'gAAA' }] } } });
    expect(listLiveMessages(db, 'c').map((row) => toMessageView(row).reasoning)).toEqual([{ text: 'Plan.', durationMs: null }, null]);
  });

  it('marks replies left streaming by a dead process as interrupted, keeping their text', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Crash', 't0');
    insertMessage(db, { id: 'a1', conversationId: 'c', seq: 0, turnId: 't', role: 'assistant', text: 'partial', status: 'streaming', createdAt: 't0' });
    insertMessage(db, { id: 'a2', conversationId: 'c', seq: 1, turnId: 't2', role: 'assistant', text: 'done', status: 'complete', createdAt: 't0' });
    expect(markStreamingAsInterrupted(db, 't9')).toBe(1);
    const [first, second] = listLiveMessages(db, 'c');
    expect(first).toMatchObject({ text: 'partial', status: 'interrupted', updatedAt: 't9' });
    expect(first?.error).toMatchObject({ code: 'interrupted', retryable: true });
    expect(second).toMatchObject({ status: 'complete', error: null });
  });
});

describe('invocations', () => {
  it('keeps an image result\u2019s type and bytes, and its view names the image without its bytes', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'Images', 't0');
    insertMessage(db, { id: 'a1', conversationId: 'c', seq: 0, turnId: 't', role: 'assistant', text: 'A logo.', status: 'complete', createdAt: 't0' });
    const data = Buffer.alloc(1500, 9).toString('base64');
    insertInvocation(db, {
      id: 'i1', turnId: 't', messageId: 'a1', seq: 0, kind: 'tool', server: 'everything', tool: 'get-tiny-image', providerCallId: 'p1',
      input: {}, output: 'Here it is.', images: [{ mimeType: 'image/png', data }], status: 'ok', opaque: null, startedAt: 't0', endedAt: 't1',
    });
    const [row] = listInvocationsByMessage(db, ['a1']).get('a1') ?? [];
    expect(row?.images).toEqual([{ mimeType: 'image/png', data }]);
    expect(toInvocationView(row!)).toEqual({
      id: 'i1', turnId: 't', messageId: 'a1', seq: 0, kind: 'tool', server: 'everything', tool: 'get-tiny-image', input: {},
      output: 'Here it is.', status: 'ok', startedAt: 't0', endedAt: 't1', images: [{ mimeType: 'image/png', byteLength: 1500 }],
    });
  });
});

describe('settings, counters and brain state', () => {
  it('round-trips typed settings and counts', () => {
    const db = openTestDatabase();
    expect(readSetting(db, 'defaultBrain')).toBeUndefined();
    writeSetting(db, 'defaultBrain', 'kimi');
    writeSetting(db, 'defaultBrain', 'claude');
    writeSetting(db, 'baseUrls', { kimi: 'http://127.0.0.1:9/v1' });
    expect(readSetting(db, 'defaultBrain')).toBe('claude');
    expect(readSetting(db, 'baseUrls')).toEqual({ kimi: 'http://127.0.0.1:9/v1' });
    incrementCounter(db, 'quote_escape_normalizations');
    incrementCounter(db, 'quote_escape_normalizations', 2);
    expect(readCounters(db)).toEqual({ quote_escape_normalizations: 3 });
  });

  it('keeps the full flag when a later update only brings usage', () => {
    const db = openTestDatabase();
    seedConversation(db, 'c', 'x', 't0');
    saveBrainState(db, { conversationId: 'c', brain: 'claude', full: true, now: 't1' });
    saveBrainState(db, { conversationId: 'c', brain: 'claude', usage: { inputTokens: 5 }, now: 't2' });
    expect(readBrainState(db, 'c', 'claude')).toEqual({
      conversationId: 'c', brain: 'claude', usage: { inputTokens: 5 }, full: true, refusedTokens: null, refusedModel: null, trimFromSeq: null, trimWindow: null, updatedAt: 't2',
    });
  });
});
