import { describe, expect, it } from 'vitest';
import type { MessagePage, MessageView } from '../../src-shared/api';
import {
  applyNewerPage,
  applyOlderPage,
  applyStartedTurn,
  MAX_LOADED_ROWS,
  mergeMessages,
  newestRowSeq,
  openConversationState,
  pagingCursor,
  type MessagesSlice,
} from './messages-slice';
import { invocationFixture, messageFixture, replyFixture, summaryFixture } from './test-fixtures';

function rows(...seqs: number[]): MessageView[] {
  return seqs.map((seq) => messageFixture({ id: `m${seq}`, seq }));
}

function windowOf(messages: readonly MessageView[], change: Partial<MessagesSlice> = {}): MessagesSlice {
  return {
    ...openConversationState('c1'),
    pageStatus: 'ready',
    hasOlder: true,
    messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
    messageIds: messages.map((message) => message.id),
    ...change,
  };
}

function pageOf(messages: readonly MessageView[], flags: { hasOlder: boolean; hasNewer?: boolean }): MessagePage {
  return { messages, invocations: [], ...flags };
}

describe('the window of loaded pages', () => {
  it('keeps at most 400 rows', () => {
    expect(MAX_LOADED_ROWS).toBe(400);
  });

  it('puts an older page before the loaded rows and lets go of the newest past the bound', () => {
    const state = windowOf(rows(5, 6, 7, 8), { loadingOlder: true });
    const change = applyOlderPage(state, pageOf(rows(3, 4), { hasOlder: true }), 4);
    expect(change).toMatchObject({ messageIds: ['m3', 'm4', 'm5', 'm6'], hasOlder: true, hasNewer: true, loadingOlder: false });
    expect(Object.keys(change.messagesById ?? {})).toEqual(['m3', 'm4', 'm5', 'm6']);
  });

  it('puts the page that reaches the start, summary first, before the loaded rows', () => {
    const summary = summaryFixture({ id: 's', seq: 90 });
    const change = applyOlderPage(windowOf(rows(3, 4)), pageOf([summary, ...rows(1, 2)], { hasOlder: false }), 10);
    expect(change).toMatchObject({ messageIds: ['s', 'm1', 'm2', 'm3', 'm4'], hasOlder: false, hasNewer: false });
  });

  it('keeps the rows past the bound while a reply among them still streams', () => {
    const streaming = replyFixture({ id: 'r8', seq: 8, status: 'streaming' });
    const change = applyOlderPage(windowOf([...rows(5, 6, 7), streaming]), pageOf(rows(3, 4), { hasOlder: true }), 4);
    expect(change).toMatchObject({ messageIds: ['m3', 'm4', 'm5', 'm6', 'm7', 'r8'], hasNewer: false });
  });

  it('keeps a page longer than the bound whole', () => {
    const change = applyOlderPage(windowOf(rows(7, 8)), pageOf(rows(1, 2, 3, 4, 5, 6), { hasOlder: true }), 4);
    expect(change).toMatchObject({ messageIds: ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'], hasNewer: true });
  });

  it('lets what a dropped row carries go with it', () => {
    const state = windowOf(rows(5, 6, 7, 8), {
      invocationsByMessage: { m5: [invocationFixture({ id: 'i5', messageId: 'm5' })], m8: [invocationFixture({ id: 'i8', messageId: 'm8' })] },
      editingMessageId: 'm8',
      streamingReasoning: { m7: 'thinking' },
    });
    const change = applyOlderPage(state, pageOf(rows(3, 4), { hasOlder: true }), 4);
    expect(Object.keys(change.invocationsByMessage ?? {})).toEqual(['m5']);
    expect(change.editingMessageId).toBeNull();
    expect(change.streamingReasoning).toEqual({});
  });

  it('puts a newer page after the loaded rows and lets go of the oldest past the bound', () => {
    const state = windowOf(rows(3, 4, 5, 6), { hasOlder: false, hasNewer: true, loadingNewer: true });
    expect(newestRowSeq(state.messageIds.map((id) => state.messagesById[id]))).toBe(6);
    const change = applyNewerPage(state, pageOf(rows(7, 8), { hasOlder: true, hasNewer: true }), 4);
    expect(change).toMatchObject({ messageIds: ['m5', 'm6', 'm7', 'm8'], hasOlder: true, hasNewer: true, loadingNewer: false });
    const next = windowOf(rows(5, 6, 7, 8), { hasNewer: true });
    expect(applyNewerPage(next, pageOf(rows(9), { hasOlder: true, hasNewer: false }), 4)).toMatchObject({
      messageIds: ['m6', 'm7', 'm8', 'm9'],
      hasNewer: false,
    });
    expect(pagingCursor(rows(6, 7, 8, 9))).toBe(6);
  });

  it('holds back rows after the window while newer pages are let go of, and still updates loaded rows', () => {
    const state = windowOf(rows(3, 4), { hasNewer: true });
    const merged = mergeMessages(state, [messageFixture({ id: 'm9', seq: 9 }), messageFixture({ id: 'm4', seq: 4, text: 'Edited', updatedAt: '2026-01-02T00:00:00.000Z' })]);
    expect(merged.messageIds).toEqual(['m3', 'm4']);
    expect(merged.messagesById.m4?.text).toBe('Edited');
    expect(mergeMessages(windowOf(rows(3, 4)), rows(9)).messageIds).toEqual(['m3', 'm4', 'm9']);
  });

  it('shows a turn sent from far up as the newest rows, with nothing newer to fetch', () => {
    const state = windowOf(rows(3, 4), { hasNewer: true });
    const user = messageFixture({ id: 'u', seq: 100, parentId: 'm99' });
    const reply = replyFixture({ id: 'a', seq: 101, parentId: 'u', status: 'streaming' });
    expect(applyStartedTurn(state, [user, reply])).toMatchObject({ messageIds: ['u', 'a'], hasOlder: true, hasNewer: false });
  });
});
