import { beforeEach, describe, expect, it } from 'vitest';
import { handleApiEvent } from './events';
import { openConversationState } from './messages-slice';
import { resetAppStore, useAppStore } from './store';
import { approvalFixture, conversationFixture, invocationFixture, messageFixture, replyFixture } from './test-fixtures';
import { startTurn } from './turns-slice';

const { getState, setState } = useAppStore;

function openWith(conversationId: string, ...messages: ReturnType<typeof messageFixture>[]): void {
  setState({
    ...openConversationState(conversationId),
    pageStatus: 'ready',
    messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
    messageIds: messages.map((message) => message.id),
  });
}

beforeEach(resetAppStore);

describe('turn-started', () => {
  it('adds the user message and the reply to the open conversation and marks the turn running', () => {
    openWith('c1');
    const userMessage = messageFixture({ id: 'u1', seq: 1 });
    const assistantMessage = replyFixture({ id: 'a1', seq: 2, text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't1', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['u1', 'a1']);
    expect(getState().messagesById.a1).toBe(assistantMessage);
    expect(getState().activeTurns).toEqual({ c1: { turnId: 't1', assistantMessageId: 'a1' } });
  });

  it('marks a turn of another conversation running without touching the open messages', () => {
    openWith('c1', messageFixture());
    const before = getState().messagesById;
    handleApiEvent({
      type: 'turn-started',
      conversationId: 'c2',
      turnId: 't9',
      userMessage: null,
      assistantMessage: replyFixture({ id: 'a9', conversationId: 'c2', status: 'streaming' }),
    });
    expect(getState().messagesById).toBe(before);
    expect(getState().activeTurns).toEqual({ c2: { turnId: 't9', assistantMessageId: 'a9' } });
  });
});

describe('message-delta', () => {
  it('appends to one reply without copying the loaded messages', () => {
    openWith('c1', messageFixture(), replyFixture({ text: 'Hel', status: 'streaming' }));
    const messagesBefore = getState().messagesById;
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'lo' });
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: ' you' });
    expect(getState().streamingText).toEqual({ m2: 'Hello you' });
    expect(getState().messagesById).toBe(messagesBefore);
  });

  it('asks for a resync when the reply is not loaded', () => {
    openWith('c1', messageFixture());
    const outcome = handleApiEvent({
      type: 'message-delta',
      conversationId: 'c1',
      turnId: 't1',
      messageId: 'unknown',
      textDelta: 'x',
    });
    expect(outcome).toEqual({ needsResync: true, closedOpenConversation: false, refreshContextOf: null, reloadNewestPageOf: null });
    expect(getState().streamingText).toEqual({});
  });

  it('ignores deltas of conversations that are not open', () => {
    openWith('c1', messageFixture());
    const outcome = handleApiEvent({ type: 'message-delta', conversationId: 'c2', turnId: 't', messageId: 'm1', textDelta: 'x' });
    expect(outcome.needsResync).toBe(false);
    expect(getState().streamingText).toEqual({});
  });
});

describe('turn-done and turn-failed', () => {
  it('stores the final reply, drops the streamed text and ends the turn', () => {
    openWith('c1', messageFixture(), replyFixture({ text: 'Hel', status: 'streaming' }));
    setState((state) => ({
      ...startTurn(state, 'c1', { turnId: 't1', assistantMessageId: 'm2' }),
      streamingText: { m2: 'Hello' },
    }));
    const final = replyFixture({ text: 'Hello!', status: 'complete' });
    handleApiEvent({ type: 'turn-done', conversationId: 'c1', turnId: 't1', message: final });
    expect(getState().messagesById.m2).toBe(final);
    expect(getState().streamingText).toEqual({});
    expect(getState().activeTurns).toEqual({});
    expect(getState().finishedTurnIds).toEqual(['t1']);
  });

  it('keeps a late send answer from reviving a turn that already failed', () => {
    openWith('c1');
    const failed = replyFixture({ status: 'failed', error: { code: 'missing-key', message: 'No key.', retryable: false } });
    handleApiEvent({ type: 'turn-failed', conversationId: 'c1', turnId: 't1', message: failed });
    setState((state) => startTurn(state, 'c1', { turnId: 't1', assistantMessageId: 'm2' }));
    expect(getState().activeTurns).toEqual({});
    expect(getState().messageIds).toEqual(['m2']);
  });
});

describe('tool events and receipts', () => {
  const started = {
    type: 'tool-call-started',
    conversationId: 'c1',
    turnId: 't1',
    messageId: 'm2',
    tool: 'current_time',
    server: null,
    input: {},
  } as const;

  it('marks the tool a reply waits on until its finish event, and keeps the finished row', () => {
    openWith('c1', messageFixture(), replyFixture({ status: 'streaming', text: '' }));
    handleApiEvent(started);
    expect(getState().runningTools).toEqual({ m2: { tool: 'current_time', server: null } });
    const invocation = invocationFixture();
    handleApiEvent({ type: 'tool-call-finished', conversationId: 'c1', invocation });
    expect(getState().runningTools).toEqual({});
    expect(getState().invocationsByMessage).toEqual({ m2: [invocation] });
  });

  it('replaces a finished row that arrives again with the same id', () => {
    openWith('c1', replyFixture({ status: 'streaming' }));
    handleApiEvent({ type: 'tool-call-finished', conversationId: 'c1', invocation: invocationFixture({ status: 'error' }) });
    handleApiEvent({ type: 'tool-call-finished', conversationId: 'c1', invocation: invocationFixture({ id: 'i2', seq: 1 }) });
    handleApiEvent({ type: 'tool-call-finished', conversationId: 'c1', invocation: invocationFixture({ status: 'ok' }) });
    expect(getState().invocationsByMessage.m2?.map((invocation) => [invocation.id, invocation.status])).toEqual([
      ['i1', 'ok'],
      ['i2', 'ok'],
    ]);
  });

  it('keeps the receipt the host sent for a reply of the open conversation only', () => {
    openWith('c1', replyFixture());
    const receipt = { counts: { memory: 0, tool: 1, skill: 0 }, summary: '1 tool', chips: [] };
    handleApiEvent({ type: 'turn-receipt', conversationId: 'c1', turnId: 't1', messageId: 'm2', receipt });
    handleApiEvent({ type: 'turn-receipt', conversationId: 'c2', turnId: 't9', messageId: 'x9', receipt });
    expect(getState().receiptsByMessage).toEqual({ m2: receipt });
  });

  it('ignores rows of another conversation but still ends its running tool', () => {
    openWith('c1', replyFixture());
    handleApiEvent({ ...started, conversationId: 'c2', messageId: 'x9' });
    handleApiEvent({ type: 'tool-call-finished', conversationId: 'c2', invocation: invocationFixture({ messageId: 'x9' }) });
    expect(getState().invocationsByMessage).toEqual({});
    expect(getState().runningTools).toEqual({});
  });

  it('ends a running tool when its reply ends', () => {
    openWith('c1', messageFixture(), replyFixture({ status: 'streaming', text: '' }));
    handleApiEvent(started);
    handleApiEvent({ type: 'turn-failed', conversationId: 'c1', turnId: 't1', message: replyFixture({ status: 'stopped' }) });
    expect(getState().runningTools).toEqual({});
  });
});

describe('conversation events', () => {
  it('moves an updated conversation to the top of the list', () => {
    setState({
      conversationsById: {
        old: conversationFixture({ id: 'old', updatedAt: '2026-01-01T00:00:00.000Z' }),
        new: conversationFixture({ id: 'new', updatedAt: '2026-01-02T00:00:00.000Z' }),
      },
      conversationOrder: ['new', 'old'],
    });
    handleApiEvent({
      type: 'conversation-updated',
      conversation: conversationFixture({ id: 'old', title: 'Renamed', updatedAt: '2026-01-03T00:00:00.000Z' }),
    });
    expect(getState().conversationOrder).toEqual(['old', 'new']);
    expect(getState().conversationsById.old?.title).toBe('Renamed');
  });

  it('closes the open conversation when it is deleted', () => {
    setState({ conversationsById: { c1: conversationFixture() }, conversationOrder: ['c1'] });
    openWith('c1', messageFixture());
    expect(handleApiEvent({ type: 'conversation-deleted', conversationId: 'c1' })).toEqual({
      needsResync: false,
      closedOpenConversation: true,
      refreshContextOf: null,
      reloadNewestPageOf: null,
    });
    expect(getState().openConversationId).toBeNull();
    expect(getState().messageIds).toEqual([]);
    expect(getState().conversationOrder).toEqual([]);
  });

  it('closes the request view with the deleted open conversation', () => {
    openWith('c1', messageFixture());
    setState({ requestPreviewOpen: true });
    handleApiEvent({ type: 'conversation-deleted', conversationId: 'c1' });
    expect(getState().requestPreviewOpen).toBe(false);
  });
});

describe('approval events', () => {
  it('keeps a requested approval of any conversation until it is resolved', () => {
    openWith('c1');
    const approval = approvalFixture({ conversationId: 'c2' });
    handleApiEvent({ type: 'approval-requested', approval });
    expect(getState().pendingApprovals).toEqual({ ap1: approval });
    handleApiEvent({ type: 'approval-resolved', approvalId: 'ap1', conversationId: 'c2', outcome: 'cancelled' });
    expect(getState().pendingApprovals).toEqual({});
  });

  it('drops the approvals of a turn that ended', () => {
    openWith('c1', messageFixture(), replyFixture({ status: 'streaming', text: '' }));
    handleApiEvent({ type: 'approval-requested', approval: approvalFixture() });
    handleApiEvent({ type: 'turn-failed', conversationId: 'c1', turnId: 't1', message: replyFixture({ status: 'stopped' }) });
    expect(getState().pendingApprovals).toEqual({});
  });
});
