import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { flushPendingDeltas, hasPendingDeltas, resetDeltaBuffer, setRowRendering } from './delta-buffer';
import { handleApiEvent } from './events';
import { openConversationState } from './messages-slice';
import { resetAppStore, useAppStore } from './store';
import { approvalFixture, conversationFixture, invocationFixture, messageFixture, replyFixture } from './test-fixtures';
import { manualFrames } from './test-store';
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

/** The test decides when the next frame comes. */
let frames = manualFrames();
const runFrame = (): void => frames.runFrame();

/** Counts store updates from now on. */
function countStoreUpdates(): { readonly count: () => number } {
  let updates = 0;
  const unsubscribe = useAppStore.subscribe(() => {
    updates += 1;
  });
  onTestFinished(unsubscribe);
  return { count: () => updates };
}

function delta(messageId: string, textDelta: string, conversationId = 'c1') {
  return { type: 'message-delta', conversationId, turnId: 't1', messageId, textDelta } as const;
}

beforeEach(() => {
  resetAppStore();
  frames = manualFrames();
  resetDeltaBuffer(frames.schedule);
});

describe('turn-started', () => {
  /** u1 → a1 → u2 → a2 → u3 → a3, one straight path. */
  function openPath(): void {
    openWith(
      'c1',
      messageFixture({ id: 'u1', seq: 1, turnId: 't1' }),
      replyFixture({ id: 'a1', seq: 2, turnId: 't1', parentId: 'u1' }),
      messageFixture({ id: 'u2', seq: 3, turnId: 't2', parentId: 'a1', text: 'second' }),
      replyFixture({ id: 'a2', seq: 4, turnId: 't2', parentId: 'u2' }),
      messageFixture({ id: 'u3', seq: 5, turnId: 't3', parentId: 'a2', text: 'third' }),
      replyFixture({ id: 'a3', seq: 6, turnId: 't3', parentId: 'u3' }),
    );
  }

  it('keeps the rows down to the parent of an edit in the middle, drops the branch below it, then adds the new rows', () => {
    openPath();
    useAppStore.setState({ streamingText: { a3: 'left behind' }, editingMessageId: 'u2' });
    const userMessage = messageFixture({ id: 'u2b', seq: 7, turnId: 't4', parentId: 'a1', text: 'second, again', siblings: { index: 2, count: 2, previousId: 'u2', nextId: null } });
    const assistantMessage = replyFixture({ id: 'a2b', seq: 8, turnId: 't4', parentId: 'u2b', text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't4', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(Object.keys(getState().messagesById).sort()).toEqual(['a1', 'a2b', 'u1', 'u2b']);
    expect(getState().streamingText).toEqual({});
    expect(getState().editingMessageId).toBeNull();
    expect(getState().messagesById.u2b?.siblings).toEqual({ index: 2, count: 2, previousId: 'u2', nextId: null });
  });

  it('puts a regenerated reply in place of the replies below its user message', () => {
    openPath();
    const assistantMessage = replyFixture({ id: 'a2b', seq: 7, turnId: 't4', parentId: 'u2', text: '', status: 'streaming', brain: 'gemini' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't4', userMessage: null, assistantMessage });
    expect(getState().messageIds).toEqual(['u1', 'a1', 'u2', 'a2b']);
    expect(getState().hasOlder).toBe(false);
  });

  it('appends a plain send below the last row, keeping everything shown', () => {
    openPath();
    const userMessage = messageFixture({ id: 'u4', seq: 7, turnId: 't4', parentId: 'a3' });
    const assistantMessage = replyFixture({ id: 'a4', seq: 8, turnId: 't4', parentId: 'u4', text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't4', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4']);
  });

  it('starts the list again for an edit of the first message', () => {
    openPath();
    const userMessage = messageFixture({ id: 'u1b', seq: 7, turnId: 't4', parentId: null });
    const assistantMessage = replyFixture({ id: 'a1b', seq: 8, turnId: 't4', parentId: 'u1b', text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't4', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['u1b', 'a1b']);
    expect(getState().hasOlder).toBe(false);
  });

  it('replaces the message an edit stands beside when the parent is under a summary, keeping the summary', () => {
    openWith(
      'c1',
      messageFixture({ id: 's1', seq: 9, role: 'system', kind: 'summary', coversThroughId: 'a1' }),
      messageFixture({ id: 'u2', seq: 3, turnId: 't2', parentId: 'a1' }),
      replyFixture({ id: 'a2', seq: 4, turnId: 't2', parentId: 'u2' }),
    );
    const userMessage = messageFixture({ id: 'u2b', seq: 10, turnId: 't4', parentId: 'a1' });
    const assistantMessage = replyFixture({ id: 'a2b', seq: 11, turnId: 't4', parentId: 'u2b', text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't4', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['s1', 'u2b', 'a2b']);
  });

  it('shows only the new rows, with older ones to load, when the fork is above the loaded rows', () => {
    openWith(
      'c1',
      messageFixture({ id: 'u5', seq: 9, turnId: 't5', parentId: 'a4' }),
      replyFixture({ id: 'a5', seq: 10, turnId: 't5', parentId: 'u5' }),
    );
    const userMessage = messageFixture({ id: 'u2b', seq: 11, turnId: 't6', parentId: 'a1' });
    const assistantMessage = replyFixture({ id: 'a2b', seq: 12, turnId: 't6', parentId: 'u2b', text: '', status: 'streaming' });
    handleApiEvent({ type: 'turn-started', conversationId: 'c1', turnId: 't6', userMessage, assistantMessage });
    expect(getState().messageIds).toEqual(['u2b', 'a2b']);
    expect(getState().hasOlder).toBe(true);
  });

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
  it('appends to one reply at the next frame without copying the loaded messages', () => {
    openWith('c1', messageFixture(), replyFixture({ text: 'Hel', status: 'streaming' }));
    const messagesBefore = getState().messagesById;
    handleApiEvent(delta('m2', 'lo'));
    handleApiEvent(delta('m2', ' you'));
    expect(getState().streamingText).toEqual({});
    expect(frames.requested()).toBe(1);
    runFrame();
    expect(getState().streamingText).toEqual({ m2: 'Hello you' });
    expect(getState().messagesById).toBe(messagesBefore);
    expect(hasPendingDeltas()).toBe(false);
  });

  it('applies 100 deltas of one task in one store update showing their concatenation', () => {
    openWith('c1', messageFixture(), replyFixture({ text: '', status: 'streaming' }));
    const updates = countStoreUpdates();
    const pieces = Array.from({ length: 100 }, (_, index) => `w${index} `);
    for (const piece of pieces) handleApiEvent(delta('m2', piece));
    expect(updates.count()).toBe(0);
    runFrame();
    expect(updates.count()).toBe(1);
    expect(getState().streamingText).toEqual({ m2: pieces.join('') });
    expect(frames.requested()).toBe(0);
  });

  it('asks for one frame per burst, and a new one for deltas after it ran', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    handleApiEvent(delta('m2', 'a'));
    handleApiEvent(delta('m2', 'b'));
    runFrame();
    handleApiEvent(delta('m2', 'c'));
    expect(frames.requested()).toBe(1);
    runFrame();
    expect(getState().streamingText).toEqual({ m2: 'abc' });
  });

  it('holds deltas back while a row still renders the last ones, then applies them all in one update', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    handleApiEvent(delta('m2', 'a'));
    runFrame();
    setRowRendering('m2', true);
    const updates = countStoreUpdates();
    handleApiEvent(delta('m2', 'b'));
    runFrame();
    handleApiEvent(delta('m2', 'c'));
    runFrame();
    expect(updates.count()).toBe(0);
    expect(getState().streamingText).toEqual({ m2: 'a' });
    // The held deltas keep a frame asked for, so they apply once the row has caught up, without a new delta.
    expect(frames.requested()).toBe(1);
    setRowRendering('m2', false);
    runFrame();
    expect(updates.count()).toBe(1);
    expect(getState().streamingText).toEqual({ m2: 'abc' });
    expect(frames.requested()).toBe(0);
  });

  it('applies held deltas at once when something must end the row, however its render stands', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    setRowRendering('m2', true);
    handleApiEvent(delta('m2', 'last words'));
    runFrame();
    expect(getState().streamingText).toEqual({});
    flushPendingDeltas();
    expect(getState().streamingText).toEqual({ m2: 'last words' });
  });

  it('keeps interleaved deltas of two replies apart, each in arrival order', () => {
    openWith(
      'c1',
      replyFixture({ id: 'a1', seq: 1, text: 'A:', status: 'streaming' }),
      replyFixture({ id: 'a2', seq: 2, text: 'B:', status: 'streaming' }),
    );
    const updates = countStoreUpdates();
    handleApiEvent(delta('a1', '1'));
    handleApiEvent(delta('a2', 'x'));
    handleApiEvent(delta('a1', '2'));
    handleApiEvent(delta('a2', 'y'));
    handleApiEvent(delta('a1', '3'));
    runFrame();
    expect(updates.count()).toBe(1);
    expect(getState().streamingText).toEqual({ a1: 'A:123', a2: 'B:xy' });
  });

  it('applies waiting deltas before a tool event, so events keep their order', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    handleApiEvent(delta('m2', 'Let me check. '));
    handleApiEvent({
      type: 'tool-call-started',
      conversationId: 'c1',
      turnId: 't1',
      messageId: 'm2',
      tool: 'current_time',
      server: null,
      input: {},
    });
    expect(getState().streamingText).toEqual({ m2: 'Let me check. ' });
    expect(hasPendingDeltas()).toBe(false);
  });

  it('drops waiting deltas of a conversation closed before the frame', () => {
    openWith('c1', replyFixture({ text: 'Hi', status: 'streaming' }));
    handleApiEvent(delta('m2', ' there'));
    openWith('c2', replyFixture({ conversationId: 'c2', text: 'Hi', status: 'streaming' }));
    const updates = countStoreUpdates();
    runFrame();
    expect(updates.count()).toBe(0);
    expect(getState().streamingText).toEqual({});
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

  it('asks for no resync when the reply is among the newer rows the window let go of', () => {
    openWith('c1', messageFixture());
    setState({ hasNewer: true });
    const outcome = handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'unknown', textDelta: 'x' });
    expect(outcome).toEqual({ needsResync: false, closedOpenConversation: false, refreshContextOf: null, reloadNewestPageOf: null });
  });

  it('ignores deltas of conversations that are not open', () => {
    openWith('c1', messageFixture());
    const outcome = handleApiEvent({ type: 'message-delta', conversationId: 'c2', turnId: 't', messageId: 'm1', textDelta: 'x' });
    expect(outcome.needsResync).toBe(false);
    expect(hasPendingDeltas()).toBe(false);
    runFrame();
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

  it('ends with exactly the final text when it arrives in the same task as waiting deltas', () => {
    openWith('c1', messageFixture(), replyFixture({ text: '', status: 'streaming' }));
    setState((state) => startTurn(state, 'c1', { turnId: 't1', assistantMessageId: 'm2' }));
    handleApiEvent(delta('m2', 'Hello'));
    handleApiEvent(delta('m2', ' world'));
    const final = replyFixture({ text: 'Hello world.', status: 'complete' });
    handleApiEvent({ type: 'turn-done', conversationId: 'c1', turnId: 't1', message: final });
    expect(hasPendingDeltas()).toBe(false);
    runFrame();
    expect(getState().messagesById.m2).toBe(final);
    expect(getState().streamingText).toEqual({});
  });

  it('keeps the stopped text when a stop arrives with deltas waiting, and drops deltas that come after it', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    handleApiEvent(delta('m2', 'Partial'));
    const stopped = replyFixture({ text: 'Partial', status: 'stopped' });
    handleApiEvent({ type: 'turn-failed', conversationId: 'c1', turnId: 't1', message: stopped });
    handleApiEvent(delta('m2', ' late'));
    runFrame();
    expect(getState().messagesById.m2).toBe(stopped);
    expect(getState().streamingText).toEqual({});
  });

  it('applies waiting deltas before a new turn of the open conversation starts', () => {
    openWith('c1', replyFixture({ text: '', status: 'streaming' }));
    handleApiEvent(delta('m2', 'First reply'));
    handleApiEvent({
      type: 'turn-started',
      conversationId: 'c1',
      turnId: 't2',
      userMessage: null,
      assistantMessage: replyFixture({ id: 'm3', seq: 3, turnId: 't2', parentId: 'm2', text: '', status: 'streaming' }),
    });
    expect(getState().streamingText).toEqual({ m2: 'First reply' });
    expect(hasPendingDeltas()).toBe(false);
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

  it('drops the deleted conversation from the search results', () => {
    const hit = { conversationTitle: 'T', messageId: 'm1', role: 'assistant', brain: null, snippet: 's', createdAt: '2026-01-01T00:00:00.000Z', offBranch: false } as const;
    setState({ searchResults: { hits: [{ ...hit, conversationId: 'c1' }, { ...hit, conversationId: 'c2', messageId: 'm2' }], indexing: null } });
    handleApiEvent({ type: 'conversation-deleted', conversationId: 'c1' });
    expect(getState().searchResults).toEqual({ hits: [{ ...hit, conversationId: 'c2', messageId: 'm2' }], indexing: null });
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
