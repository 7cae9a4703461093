import { describe, expect, it } from 'vitest';
import {
  appendConversationPage,
  conversationListCursor,
  initialConversationsSlice,
  replaceConversationList,
  upsertConversation,
} from './conversations-slice';
import {
  applyOlderPage,
  applyOpeningPage,
  applyReceipt,
  applyResyncPage,
  mergeInvocations,
  mergeMessages,
  openConversationState,
} from './messages-slice';
import { endToolCall, initialTurnsSlice, reconcileActiveTurn, startToolCall } from './turns-slice';
import { conversationFixture, invocationFixture, messageFixture, replyFixture } from './test-fixtures';

function loaded(...seqs: number[]) {
  const messages = seqs.map((seq) => messageFixture({ id: `m${seq}`, seq }));
  return {
    ...openConversationState('c1'),
    pageStatus: 'ready' as const,
    hasOlder: true,
    messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
    messageIds: messages.map((message) => message.id),
  };
}

const page = (seqs: number[], hasOlder: boolean) => ({
  messages: seqs.map((seq) => messageFixture({ id: `m${seq}`, seq })),
  invocations: [],
  hasOlder,
});

describe('conversations slice', () => {
  it('lists conversations newest first, ties broken by id', () => {
    const change = replaceConversationList(initialConversationsSlice, '', [
      conversationFixture({ id: 'a', updatedAt: '2026-01-01T00:00:00.000Z' }),
      conversationFixture({ id: 'c', updatedAt: '2026-01-03T00:00:00.000Z' }),
      conversationFixture({ id: 'b', updatedAt: '2026-01-01T00:00:00.000Z' }),
      conversationFixture({ id: 'hidden', archived: true }),
    ]);
    expect(change.conversationOrder).toEqual(['c', 'b', 'a']);
  });

  it('lists a new conversation only when its title matches the search', () => {
    const searching = { ...initialConversationsSlice, conversationQuery: 'Plan' };
    expect(upsertConversation(searching, conversationFixture({ id: 'x', title: 'Trip plans' })).conversationOrder).toEqual([
      'x',
    ]);
    expect(upsertConversation(searching, conversationFixture({ id: 'y', title: 'Other' })).conversationOrder).toEqual([]);
  });
});

describe('conversations slice pages', () => {
  const first = replaceConversationList(
    initialConversationsSlice,
    '',
    [conversationFixture({ id: 'c', updatedAt: '2026-01-03T00:00:00.000Z' }), conversationFixture({ id: 'b', updatedAt: '2026-01-02T00:00:00.000Z' })],
    true,
  );
  const paged = { ...initialConversationsSlice, ...first };

  it('pages after the last conversation shown and appends the next page', () => {
    expect(conversationListCursor(paged)).toEqual({ updatedAt: '2026-01-02T00:00:00.000Z', id: 'b' });
    const change = appendConversationPage(paged, [conversationFixture({ id: 'a', updatedAt: '2026-01-01T00:00:00.000Z' })], false);
    expect([change.conversationOrder, change.conversationsHaveMore]).toEqual([['c', 'b', 'a'], false]);
  });

  it('leaves a changed conversation past the pages loaded to come with its page', () => {
    const older = conversationFixture({ id: 'a', title: 'Renamed elsewhere', updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(upsertConversation(paged, older).conversationOrder).toEqual(['c', 'b']);
    const newer = { ...older, updatedAt: '2026-01-04T00:00:00.000Z' };
    expect(upsertConversation(paged, newer).conversationOrder).toEqual(['a', 'c', 'b']);
    expect(upsertConversation({ ...paged, conversationsHaveMore: false }, older).conversationOrder).toEqual(['c', 'b', 'a']);
  });
});

describe('messages slice', () => {
  it('keeps ids in seq order when an event brings messages out of order', () => {
    const merged = mergeMessages(loaded(1, 2, 5), [messageFixture({ id: 'm3', seq: 3 }), messageFixture({ id: 'm6', seq: 6 })]);
    expect(merged.messageIds).toEqual(['m1', 'm2', 'm3', 'm5', 'm6']);
  });

  it('ignores messages of another conversation', () => {
    const state = loaded(1);
    expect(mergeMessages(state, [messageFixture({ id: 'x', conversationId: 'c2' })]).messageIds).toBe(state.messageIds);
  });

  it('keeps streamed text that extends the stored text and drops it once the reply is final', () => {
    const streaming = replyFixture({ id: 'r', seq: 3, text: 'Hel', status: 'streaming' });
    const state = { ...loaded(1), ...mergeMessages(loaded(1), [streaming]), streamingText: { r: 'Hello' } };
    expect(mergeMessages(state, [streaming]).streamingText).toEqual({ r: 'Hello' });
    expect(mergeMessages(state, [{ ...streaming, text: 'Jumbled' }]).streamingText).toEqual({});
    expect(mergeMessages(state, [{ ...streaming, text: 'Hello.', status: 'complete' }]).streamingText).toEqual({});
  });

  it('merges the opening page with messages that arrived meanwhile', () => {
    const state = { ...loaded(5), pageStatus: 'loading' as const };
    const change = applyOpeningPage(state, page([3, 4], true));
    expect(change.messageIds).toEqual(['m3', 'm4', 'm5']);
    expect(change.hasOlder).toBe(true);
    expect(change.pageStatus).toBe('ready');
  });

  it('prepends an older page and records whether more exist', () => {
    const change = applyOlderPage({ ...loaded(3, 4), loadingOlder: true }, page([1, 2], false));
    expect(change.messageIds).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(change.hasOlder).toBe(false);
    expect(change.loadingOlder).toBe(false);
  });

  it('merges a resync page that overlaps the loaded messages, keeping older pages', () => {
    const change = applyResyncPage(loaded(1, 2, 3), page([3, 4, 5], true));
    expect(change.messageIds).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(change.hasOlder).toBe(true);
  });

  it('replaces the loaded messages with a resync page that leaves a gap', () => {
    const change = applyResyncPage(loaded(1, 2), page([60, 61], true));
    expect(change.messageIds).toEqual(['m60', 'm61']);
    expect(change.hasOlder).toBe(true);
  });
});

describe('reconcileActiveTurn', () => {
  it('finds a running turn from a streaming last reply', () => {
    const messages = [messageFixture(), replyFixture({ status: 'streaming', turnId: 't7' })];
    expect(reconcileActiveTurn(initialTurnsSlice, 'c1', messages)).toEqual({
      activeTurns: { c1: { turnId: 't7', assistantMessageId: 'm2' } },
    });
  });

  it('ends a remembered turn whose reply finished while its events were missed', () => {
    const running = { ...initialTurnsSlice, activeTurns: { c1: { turnId: 't1', assistantMessageId: 'm2' } } };
    const change = reconcileActiveTurn(running, 'c1', [messageFixture(), replyFixture({ status: 'complete' })]);
    expect(change.activeTurns).toEqual({});
  });

  it('keeps a remembered turn whose reply is not in the page yet', () => {
    const running = { ...initialTurnsSlice, activeTurns: { c1: { turnId: 't1', assistantMessageId: 'later' } } };
    expect(reconcileActiveTurn(running, 'c1', [messageFixture()])).toEqual({});
  });
});

describe('invocations in the messages slice', () => {
  it('keeps page invocations by message, in the order they ran', () => {
    const change = applyOpeningPage(
      { ...openConversationState('c1') },
      {
        messages: [replyFixture({ id: 'r1', seq: 1 }), replyFixture({ id: 'r2', seq: 2 })],
        invocations: [
          invocationFixture({ id: 'b', messageId: 'r1', seq: 1 }),
          invocationFixture({ id: 'a', messageId: 'r1', seq: 0 }),
          invocationFixture({ id: 'c', messageId: 'r2', seq: 0 }),
        ],
        hasOlder: false,
      },
    );
    expect(change.invocationsByMessage?.r1?.map((invocation) => invocation.id)).toEqual(['a', 'b']);
    expect(change.invocationsByMessage?.r2?.map((invocation) => invocation.id)).toEqual(['c']);
  });

  it('appends a new invocation and replaces a known one by id, leaving other messages untouched', () => {
    const other = [invocationFixture({ id: 'x', messageId: 'r9' })];
    const state = {
      invocationsByMessage: { r1: [invocationFixture({ id: 'a', messageId: 'r1', status: 'error' })], r9: other },
    };
    const change = mergeInvocations(state, [
      invocationFixture({ id: 'a', messageId: 'r1', status: 'ok' }),
      invocationFixture({ id: 'b', messageId: 'r1', seq: 1 }),
    ]);
    expect(change.invocationsByMessage.r1?.map((invocation) => [invocation.id, invocation.status])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
    ]);
    expect(change.invocationsByMessage.r9).toBe(other);
    expect(mergeInvocations(state, []).invocationsByMessage).toBe(state.invocationsByMessage);
  });

  it('keeps invocations of older pages and resync pages, and forgets them with the conversation', () => {
    const state = { ...loaded(3), invocationsByMessage: { m3: [invocationFixture({ messageId: 'm3' })] } };
    const older = applyOlderPage(state, {
      messages: [messageFixture({ id: 'm2', seq: 2 })],
      invocations: [invocationFixture({ id: 'i2', messageId: 'm2' })],
      hasOlder: false,
    });
    expect(Object.keys(older.invocationsByMessage ?? {})).toEqual(['m3', 'm2']);
    const resynced = applyResyncPage(state, {
      messages: [messageFixture({ id: 'm3', seq: 3 })],
      invocations: [invocationFixture({ id: 'i9', messageId: 'm3', seq: 1 })],
      hasOlder: true,
    });
    expect(resynced.invocationsByMessage?.m3?.map((invocation) => invocation.id)).toEqual(['i1', 'i9']);
    expect(openConversationState('c2').invocationsByMessage).toEqual({});
  });

  it('records a receipt the host sent for one reply', () => {
    const receipt = { counts: { memory: 0, tool: 1, skill: 0 }, summary: '1 tool', chips: [] };
    const other = { counts: { memory: 1, tool: 0, skill: 0 }, summary: '1 memory', chips: [] };
    expect(applyReceipt({ receiptsByMessage: { r9: other } }, 'r1', receipt).receiptsByMessage).toEqual({ r9: other, r1: receipt });
  });
});

describe('running tools', () => {
  it('remembers the tool a reply waits on until it finishes', () => {
    const started = { ...initialTurnsSlice, ...startToolCall(initialTurnsSlice, 'r1', { tool: 'current_time', server: null }) };
    expect(started.runningTools).toEqual({ r1: { tool: 'current_time', server: null } });
    expect(endToolCall(started, 'r1')).toEqual({ runningTools: {} });
    expect(endToolCall(started, 'other')).toEqual({});
  });
});
