// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, MessagePage, MessageView } from '../../src-shared/api';
import { installApi } from './api-client';
import {
  compactNow,
  forgetCompactionsAfterGap,
  loadContextStatus,
  loadCoveredMessages,
  loadOlderCoveredMessages,
  stopCompaction,
} from './context-actions';
import { loadOlderMessages, openConversation, reloadNewestPage } from './conversation-actions';
import { handleApiEvent } from './events';
import { applyOpeningPage, applyReloadedPage, mergeMessages, openConversationState, pagingCursor } from './messages-slice';
import { resetAppStore, useAppStore } from './store';
import {
  contextStatusFixture,
  conversationFixture,
  fakeApi,
  messageFixture,
  replyFixture,
  summaryFixture,
} from './test-fixtures';

const { getState, setState } = useAppStore;

function rows(...seqs: number[]): MessageView[] {
  return seqs.map((seq) => messageFixture({ id: `m${seq}`, seq }));
}

function pageOf(messages: MessageView[], hasOlder: boolean): MessagePage {
  return { messages, invocations: [], hasOlder };
}

function openWith(...messages: MessageView[]): void {
  setState({ ...openConversationState('c1'), ...applyOpeningPage(openConversationState('c1'), pageOf(messages, false)) });
}

beforeEach(() => {
  resetAppStore();
  window.history.replaceState(null, '', '/');
});

afterEach(() => vi.restoreAllMocks());

describe('summary rows in the list', () => {
  it('puts the live summary first although its seq is newer than the rows after it', () => {
    const state = openConversationState('c1');
    const merged = mergeMessages(state, [...rows(801, 899), summaryFixture({ seq: 900 }), ...rows(901)]);
    expect(merged.messageIds).toEqual(['s1', 'm801', 'm899', 'm901']);
  });

  it('never pages before a summary: the cursor is the oldest row that is not one', () => {
    expect(pagingCursor([summaryFixture({ seq: 900 }), ...rows(801, 899)])).toBe(801);
    expect(pagingCursor([summaryFixture({ seq: 900 })])).toBeUndefined();
  });

  it('asks for the page before the oldest ordinary row when a summary is loaded first', async () => {
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce(pageOf([summaryFixture({ seq: 900 }), ...rows(850, 851)], true))
      .mockResolvedValueOnce(pageOf(rows(849), false));
    installApi(fakeApi({ listMessages, getConversation: async () => conversationFixture() }));
    await openConversation('c1');
    await loadOlderMessages();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', beforeSeq: 850, limit: 50 });
    expect(getState().messageIds).toEqual(['s1', 'm849', 'm850', 'm851']);
  });
});

describe('reloading the newest page after a compaction', () => {
  it('replaces the window, dropping covered rows, and keeps rows that arrived while the page was read', () => {
    openWith(...rows(1, 2, 3, 4));
    const loadedBefore = new Set(getState().messageIds);
    const streaming = replyFixture({ id: 'm5', seq: 5, status: 'streaming', text: '' });
    setState((state) => ({ ...mergeMessages(state, [streaming]), streamingText: { m5: 'Hel' } }));
    const change = applyReloadedPage(getState(), pageOf([summaryFixture({ seq: 6, coveredMessages: 3 }), ...rows(4)], false), loadedBefore);
    expect(change.messageIds).toEqual(['s1', 'm4', 'm5']);
    expect(change.streamingText).toEqual({ m5: 'Hel' });
    expect(change.hasOlder).toBe(false);
  });

  it('keeps a reply that finished while the page was read, where the page still has it streaming', () => {
    const streaming = replyFixture({ id: 'm5', seq: 5, status: 'streaming', text: 'He', updatedAt: '2026-12-01T10:00:01.000Z' });
    openWith(...rows(1, 2, 3, 4), streaming);
    const loadedBefore = new Set(getState().messageIds);
    const finished = { ...streaming, status: 'complete' as const, text: 'Hello there.', updatedAt: '2026-12-01T10:00:02.000Z' };
    setState((state) => mergeMessages(state, [finished]));
    const change = applyReloadedPage(getState(), pageOf([summaryFixture({ seq: 6, coveredMessages: 3 }), ...rows(4), streaming], false), loadedBefore);
    expect(change.messageIds).toEqual(['s1', 'm4', 'm5']);
    expect(change.messagesById?.m5).toEqual(finished);
    // The same holds for any page merged over rows events already moved on.
    expect(mergeMessages(getState(), [streaming]).messagesById.m5).toEqual(finished);
  });

  it('drops every loaded row when the page holds only the summary', () => {
    openWith(...rows(1, 2));
    const change = applyReloadedPage(getState(), pageOf([summaryFixture({ coveredMessages: 2 })], false), new Set(getState().messageIds));
    expect(change.messageIds).toEqual(['s1']);
  });

  it('fetches the first page for the open conversation only', async () => {
    const listMessages = vi.fn<Api['listMessages']>().mockResolvedValue(pageOf([summaryFixture(), ...rows(801)], false));
    installApi(fakeApi({ listMessages }));
    openWith(...rows(1, 801));
    await reloadNewestPage('c2');
    expect(listMessages).not.toHaveBeenCalled();
    await reloadNewestPage('c1');
    expect(listMessages).toHaveBeenCalledWith({ conversationId: 'c1', limit: 50 });
    expect(getState().messageIds).toEqual(['s1', 'm801']);
  });
});

describe('context status', () => {
  it('keeps the status per conversation and drops an answer overtaken by a newer request', async () => {
    const answers: Array<(status: ReturnType<typeof contextStatusFixture>) => void> = [];
    installApi(fakeApi({ getContextStatus: () => new Promise((resolve) => answers.push(resolve)) }));
    const first = loadContextStatus('c1');
    const second = loadContextStatus('c1');
    answers[1]?.(contextStatusFixture({ brain: 'glm', description: "80 % of GLM's window" }));
    answers[0]?.(contextStatusFixture());
    await Promise.all([first, second]);
    expect(getState().contextStatus.c1?.description).toBe("80 % of GLM's window");
  });

  it('takes the status a context-pressure event carries', () => {
    const status = contextStatusFixture({ conversationId: 'c2', level: 'emergency' });
    handleApiEvent({ type: 'context-pressure', conversationId: 'c2', status });
    expect(getState().contextStatus).toEqual({ c2: status });
  });

  it('asks for the meter again when a turn of the open conversation ends', () => {
    openWith(...rows(1));
    const outcome = handleApiEvent({ type: 'turn-done', conversationId: 'c1', turnId: 't1', message: replyFixture() });
    expect(outcome.refreshContextOf).toBe('c1');
    const elsewhere = handleApiEvent({ type: 'turn-failed', conversationId: 'c9', turnId: 't9', message: replyFixture({ conversationId: 'c9' }) });
    expect(elsewhere.refreshContextOf).toBeNull();
  });
});

describe('compaction', () => {
  it('follows progress events and, when it finishes, asks for the newest page and the meter again', () => {
    openWith(...rows(1));
    handleApiEvent({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 812 });
    handleApiEvent({ type: 'compaction-progress', conversationId: 'c1', summarisedMessages: 240, totalMessages: 812, characters: 1200 });
    expect(getState().compactions).toEqual({
      c1: { brain: 'kimi', model: 'kimi-k2.6', totalMessages: 812, summarisedMessages: 240, characters: 1200 },
    });
    const outcome = handleApiEvent({ type: 'compaction-finished', conversationId: 'c1', summary: summaryFixture(), coveredMessages: 812 });
    expect(outcome).toEqual({ needsResync: false, closedOpenConversation: false, refreshContextOf: 'c1', reloadNewestPageOf: 'c1' });
    expect(getState().compactions).toEqual({});
    expect(getState().compactionOutcomes).toEqual({
      c1: { tone: 'done', text: 'Summarised 812 messages. They stay here, collapsed under the summary.' },
    });
  });

  it('tells a stop calmly, nothing to compact as information, and a failure as an error', () => {
    const cases = [
      ['stopped', 'calm'],
      ['nothing-to-compact', 'info'],
      ['failed', 'error'],
    ] as const;
    for (const [reason, tone] of cases) {
      handleApiEvent({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 3 });
      handleApiEvent({ type: 'compaction-failed', conversationId: 'c1', reason, message: `Ended: ${reason}.` });
      expect(getState().compactionOutcomes.c1).toEqual({ tone, text: `Ended: ${reason}.` });
    }
  });

  it('compacts on request, marked running at once, and ends with the answer when no event came', async () => {
    let answer: (result: Awaited<ReturnType<Api['compactConversation']>>) => void = () => undefined;
    const compactConversation = vi.fn<Api['compactConversation']>().mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const listMessages = vi.fn<Api['listMessages']>().mockResolvedValue(pageOf([summaryFixture({ coveredMessages: 2 }), ...rows(3)], false));
    const getContextStatus = vi.fn<Api['getContextStatus']>().mockResolvedValue(contextStatusFixture({ level: 'ok' }));
    installApi(fakeApi({ compactConversation, listMessages, getContextStatus }));
    openWith(...rows(1, 2, 3));
    const running = compactNow('c1');
    expect(getState().compactions.c1).toEqual({ brain: null, model: null, totalMessages: null, summarisedMessages: 0, characters: 0 });
    await compactNow('c1');
    expect(compactConversation).toHaveBeenCalledTimes(1);
    answer({ outcome: 'compacted', summary: summaryFixture({ coveredMessages: 2 }), coveredMessages: 2, message: 'Done.' });
    await running;
    await vi.waitFor(() => expect(getState().messageIds).toEqual(['s1', 'm3']));
    expect(getState().compactionOutcomes.c1?.text).toBe('Summarised 2 messages. They stay here, collapsed under the summary.');
    expect(getContextStatus).toHaveBeenCalledWith({ conversationId: 'c1' });
  });

  it('ignores the answer when the finished event already ended the compaction', async () => {
    let answer: (result: Awaited<ReturnType<Api['compactConversation']>>) => void = () => undefined;
    const listMessages = vi.fn<Api['listMessages']>();
    installApi(fakeApi({ compactConversation: () => new Promise((resolve) => (answer = resolve)), listMessages }));
    openWith(...rows(1));
    const running = compactNow('c1');
    handleApiEvent({ type: 'compaction-failed', conversationId: 'c1', reason: 'stopped', message: 'Stopped; nothing changed.' });
    answer({ outcome: 'stopped', summary: null, coveredMessages: 0, message: 'Stopped.' });
    await running;
    expect(getState().compactionOutcomes.c1).toEqual({ tone: 'calm', text: 'Stopped; nothing changed.' });
    expect(listMessages).not.toHaveBeenCalled();
  });

  it('shows a refused compaction as an error', async () => {
    installApi(fakeApi({ compactConversation: () => Promise.reject(new Error('No brain can summarise.')) }));
    await compactNow('c1');
    expect(getState().compactions).toEqual({});
    expect(getState().compactionOutcomes.c1).toEqual({ tone: 'error', text: 'Could not compact: No brain can summarise.' });
  });

  it('after a reconnect, forgets runs whose end may have been lost, keeping the one this window waits on', async () => {
    installApi(fakeApi({ compactConversation: () => new Promise(() => undefined), getContextStatus: async () => contextStatusFixture() }));
    openWith(...rows(1));
    handleApiEvent({ type: 'compaction-started', conversationId: 'c2', brain: 'kimi', model: 'kimi-k2.6', messages: 9 });
    void compactNow('c1');
    forgetCompactionsAfterGap();
    expect(Object.keys(getState().compactions)).toEqual(['c1']);
    await vi.waitFor(() => expect(getState().contextStatus.c1?.description).toBe("61 % of Kimi's window"));
  });

  it('stops with the stop command', async () => {
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    installApi(fakeApi({ stop }));
    await stopCompaction('c1');
    expect(stop).toHaveBeenCalledWith({ conversationId: 'c1' });
  });
});

describe('covered messages', () => {
  it('loads the newest page of a summary, then older pages before its oldest ordinary row', async () => {
    const older = summaryFixture({ id: 's0', seq: 400, coveredMessages: 300 });
    const listCoveredMessages = vi
      .fn<Api['listCoveredMessages']>()
      .mockResolvedValueOnce(pageOf(rows(700, 701), true))
      .mockResolvedValueOnce(pageOf([older, ...rows(401)], false));
    installApi(fakeApi({ listCoveredMessages }));
    openWith(summaryFixture());
    await loadCoveredMessages('s1');
    expect(listCoveredMessages).toHaveBeenLastCalledWith({ summaryId: 's1', limit: 50 });
    await loadOlderCoveredMessages('s1');
    expect(listCoveredMessages).toHaveBeenLastCalledWith({ summaryId: 's1', beforeSeq: 700, limit: 50 });
    const covered = getState().coveredBySummary.s1;
    expect(covered?.messages.map((message) => message.id)).toEqual(['s0', 'm401', 'm700', 'm701']);
    expect([covered?.hasOlder, covered?.status, covered?.loadingOlder]).toEqual([false, 'ready', false]);
    await loadOlderCoveredMessages('s1');
    expect(listCoveredMessages).toHaveBeenCalledTimes(2);
  });

  it('records a failed load for the summary to offer again', async () => {
    installApi(fakeApi({ listCoveredMessages: () => Promise.reject(new Error('The store is busy.')) }));
    openWith(summaryFixture());
    await loadCoveredMessages('s1');
    expect(getState().coveredBySummary.s1).toEqual({
      messages: [],
      hasOlder: false,
      status: 'error',
      error: 'The store is busy.',
      loadingOlder: false,
    });
  });
});
