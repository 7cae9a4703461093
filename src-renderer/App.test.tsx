// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, ApiEvent, SettingsView } from '../src-shared/api';
import { App } from './App';
import { resetDeltaBuffer } from './state/delta-buffer';
import { startApp } from './state/startup';
import { resetAppStore } from './state/store';
import {
  approvalFixture,
  contextSettingsFixture,
  contextStatusFixture,
  conversationFixture,
  fakeApi,
  invocationFixture,
  memoryFixture,
  messageFixture,
  replyFixture,
  summaryFixture,
} from './state/test-fixtures';
import type { Connection } from './transport/connection';

const settings: SettingsView = { defaultBrain: 'kimi', theme: 'dark', brains: [], canStoreKeys: false, keyStorage: { place: null, answering: true, refusal: 'this host keeps no keys of its own', refusalDetail: null }, dataDir: '/data', context: contextSettingsFixture() };

function fakeConnection(commands: Partial<Api>) {
  const eventListeners = new Set<(event: ApiEvent) => void>();
  const resyncListeners = new Set<() => void>();
  const connection: Connection = {
    api: fakeApi(commands),
    host: 'web',
    onEvent: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onResync: (listener) => {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },
    onStatus: () => () => undefined,
  };
  const push = (event: ApiEvent) => act(() => eventListeners.forEach((listener) => listener(event)));
  const reconnect = () => resyncListeners.forEach((listener) => listener());
  return { connection, push, reconnect };
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 5; round += 1) await Promise.resolve();
  });
}

// jsdom has no layout: give the message list a viewport and each row a height so the virtualizer renders rows.
const layoutSize = (element: HTMLElement, scroll: number, row: number) =>
  element.classList.contains('message-scroll') ? scroll : row;
const layoutProperties = ['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const;
const savedDescriptors = layoutProperties.map(
  (property) => [property, Object.getOwnPropertyDescriptor(HTMLElement.prototype, property)] as const,
);
beforeAll(() => {
  for (const property of layoutProperties) {
    const isHeight = property.endsWith('Height');
    Object.defineProperty(HTMLElement.prototype, property, {
      configurable: true,
      get(this: HTMLElement) {
        return isHeight ? layoutSize(this, 600, 80) : 800;
      },
    });
  }
});
afterAll(() => {
  for (const [property, descriptor] of savedDescriptors) {
    if (descriptor !== undefined) Object.defineProperty(HTMLElement.prototype, property, descriptor);
  }
});

let stopApp: () => void = () => undefined;
/** Frames asked for since the last one ran: the test decides when the next frame comes. */
let requestedFrames: (() => void)[] = [];
const runFrame = () =>
  act(() => {
    const due = requestedFrames;
    requestedFrames = [];
    for (const callback of due) callback();
  });

beforeEach(() => {
  resetAppStore();
  requestedFrames = [];
  resetDeltaBuffer((callback) => requestedFrames.push(callback));
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  stopApp();
  cleanup();
});

const baseCommands: Partial<Api> = {
  getSettings: async () => settings,
  listConversations: async () => [
    conversationFixture({ id: 'c1', title: 'Alpha', updatedAt: '2026-01-02T00:00:00.000Z' }),
    conversationFixture({ id: 'c2', title: 'Beta', updatedAt: '2026-01-01T00:00:00.000Z' }),
  ],
  getConversation: async ({ id }) => conversationFixture({ id, title: id === 'c1' ? 'Alpha' : 'Beta' }),
  listMessages: async ({ conversationId }) => ({
    messages: conversationId === 'c1' ? [messageFixture(), replyFixture({ text: 'Stored answer' })] : [],
    invocations: [], hasOlder: false,
  }),
  listApprovals: async () => [],
  listSkills: async () => ({ folder: '/data/skills', skills: [], problems: [] }),
};

describe('App', () => {
  it('shows the empty state, lists conversations newest first and applies the theme from settings', async () => {
    const { connection } = fakeConnection(baseCommands);
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    expect(screen.getByTestId('empty-state-new-conversation')).toBeTruthy();
    expect(screen.getAllByTestId('conversation-title').map((title) => title.textContent)).toEqual(['Alpha', 'Beta']);
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('opens a conversation into the hash, renders its rows and applies streamed events', async () => {
    const { connection, push } = fakeConnection(baseCommands);
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    fireEvent.click(screen.getAllByTestId('conversation-title')[0] as HTMLElement);
    await settle();
    expect(window.location.hash).toBe('#/c/c1');
    expect(screen.getAllByTestId('message').map((row) => row.dataset.messageId)).toEqual(['m1', 'm2']);

    push({
      type: 'turn-started',
      conversationId: 'c1',
      turnId: 't2',
      userMessage: messageFixture({ id: 'm3', seq: 3, turnId: 't2', text: 'More?' }),
      assistantMessage: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: '', status: 'streaming' }),
    });
    push({ type: 'message-delta', conversationId: 'c1', turnId: 't2', messageId: 'm4', textDelta: 'Streaming **now**' });
    runFrame();
    expect(screen.getByTestId('stop-button')).toBeTruthy();
    const streamingRow = screen.getAllByTestId('message').find((row) => row.dataset.messageId === 'm4');
    expect(streamingRow?.querySelector('[data-testid="message-text"]')?.textContent).toBe('Streaming now');

    push({
      type: 'turn-done',
      conversationId: 'c1',
      turnId: 't2',
      message: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: 'Streaming **now**.' }),
    });
    expect(screen.getByTestId('send-button')).toBeTruthy();
    expect(streamingRow?.dataset.status).toBe('complete');
  });

  it('reopens the conversation named in the hash on start', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const { connection } = fakeConnection(baseCommands);
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Alpha');
    expect(screen.getAllByTestId('message')).toHaveLength(2);
  });

  it('loads the older page before the first loaded seq when the first page does not fill the view', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm60', seq: 60 })], invocations: [], hasOlder: true })
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm59', seq: 59 })], invocations: [], hasOlder: false });
    const { connection } = fakeConnection({ ...baseCommands, listMessages });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    await settle();
    expect(listMessages.mock.calls).toEqual([
      [{ conversationId: 'c1', limit: 50 }],
      [{ conversationId: 'c1', beforeSeq: 60, limit: 50 }],
    ]);
    expect(screen.getAllByTestId('message').map((row) => row.dataset.messageId)).toEqual(['m59', 'm60']);
  });

  it('fetches the newest page again after a reconnect', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const listMessages = vi.fn<Api['listMessages']>().mockResolvedValue({ messages: [messageFixture()], invocations: [], hasOlder: false });
    const { connection, reconnect } = fakeConnection({ ...baseCommands, listMessages });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    listMessages.mockResolvedValue({ messages: [messageFixture(), replyFixture({ text: 'Missed while away' })], invocations: [], hasOlder: false });
    reconnect();
    await settle();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', limit: 50 });
    expect(screen.getAllByTestId('message-text').map((text) => text.textContent)).toEqual(['Hello', 'Missed while away']);
  });

  it('searches conversations by title through the Api', async () => {
    vi.useFakeTimers();
    try {
      const listConversations = vi.fn<Api['listConversations']>().mockResolvedValue([conversationFixture()]);
      const { connection } = fakeConnection({ ...baseCommands, listConversations });
      stopApp = startApp(connection);
      render(<App />);
      fireEvent.change(screen.getByTestId('conversation-search'), { target: { value: 'alp' } });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(250);
      });
      expect(listConversations).toHaveBeenLastCalledWith({ query: 'alp' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows tool activity while a reply streams and its receipt once the turn ends', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const { connection, push } = fakeConnection(baseCommands);
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    push({
      type: 'turn-started',
      conversationId: 'c1',
      turnId: 't2',
      userMessage: messageFixture({ id: 'm3', seq: 3, turnId: 't2', text: 'What time is it?' }),
      assistantMessage: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: '', status: 'streaming' }),
    });
    push({ type: 'tool-call-started', conversationId: 'c1', turnId: 't2', messageId: 'm4', tool: 'current_time', server: null, input: {} });
    expect(screen.getByTestId('tool-activity').textContent).toBe('Using current_time…');
    const invocation = invocationFixture({ id: 'i4', turnId: 't2', messageId: 'm4' });
    push({ type: 'tool-call-finished', conversationId: 'c1', invocation });
    expect(screen.queryByTestId('tool-activity')).toBeNull();
    push({
      type: 'turn-receipt',
      conversationId: 'c1',
      turnId: 't2',
      messageId: 'm4',
      receipt: { counts: { memory: 0, tool: 1, skill: 0 }, summary: '1 tool', chips: [{ invocationId: 'i4', kind: 'tool', label: 'current_time', status: 'ok' }] },
    });
    push({ type: 'turn-done', conversationId: 'c1', turnId: 't2', message: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: 'It is ten.' }) });
    const receipts = screen.getAllByTestId('turn-receipt');
    expect(receipts).toHaveLength(1);
    expect(screen.getByTestId('receipt-summary').textContent).toBe('1 tool');
    expect(screen.getAllByTestId('message-text').map((text) => text.textContent)).toContain('It is ten.');
  });

  it('shows the request view over an inert window, and Escape closes it without stopping the running reply', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    const previewRequest = vi.fn<Api['previewRequest']>().mockResolvedValue({
      brain: 'kimi',
      model: 'kimi-k2.6',
      reasoningLevel: 'off',
      wire: 'chat-completions',
      body: '{"model":"kimi-k2.6"}',
      warnings: [],
      context: contextStatusFixture(),
    });
    const { connection, push } = fakeConnection({ ...baseCommands, stop, previewRequest });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    push({
      type: 'turn-started',
      conversationId: 'c1',
      turnId: 't2',
      userMessage: null,
      assistantMessage: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: '', status: 'streaming' }),
    });
    fireEvent.click(screen.getByTestId('show-request'));
    await settle();
    expect(screen.getByTestId('request-model').textContent).toBe('kimi-k2.6');
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await settle();
    expect(screen.queryByTestId('request-dialog')).toBeNull();
    expect(stop).not.toHaveBeenCalled();
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(false);
  });

  it('shows the export dialog over an inert window, and Escape closes it without stopping the running reply', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    const { connection, push } = fakeConnection({ ...baseCommands, stop });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    push({
      type: 'turn-started',
      conversationId: 'c1',
      turnId: 't2',
      userMessage: null,
      assistantMessage: replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: '', status: 'streaming' }),
    });
    const trigger = screen.getByTestId('export-conversation');
    fireEvent.click(trigger);
    const dialog = screen.getByRole('dialog', { name: 'Export conversation' });
    expect(dialog.closest('.app-frame')).toBeNull();
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stop).not.toHaveBeenCalled();
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(false);
    expect(document.activeElement).toBe(trigger);
  });

  it('shows the approvals waiting at start-up under their streaming reply, and fetches them again after a reconnect', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const streaming = replyFixture({ id: 'm4', seq: 4, turnId: 't2', text: 'Checking', status: 'streaming' });
    const listApprovals = vi.fn<Api['listApprovals']>().mockResolvedValue([approvalFixture({ turnId: 't2' })]);
    const { connection, reconnect } = fakeConnection({
      ...baseCommands,
      listApprovals,
      listMessages: async () => ({ messages: [messageFixture(), streaming], invocations: [], hasOlder: false }),
    });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    const prompt = screen.getByTestId('approval-prompt');
    expect(prompt.closest('[data-testid="message"]')?.getAttribute('data-message-id')).toBe('m4');

    listApprovals.mockResolvedValue([]);
    reconnect();
    await settle();
    expect(screen.queryByTestId('approval-prompt')).toBeNull();
  });

  it('badges another conversation whose reply waits for approval', async () => {
    const { connection, push } = fakeConnection(baseCommands);
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    push({ type: 'approval-requested', approval: approvalFixture({ conversationId: 'c2', turnId: 't7' }) });
    const badged = screen.getByTestId('approval-badge').closest('[data-testid="conversation-item"]');
    expect(badged?.getAttribute('data-conversation-id')).toBe('c2');
  });

  it('opens the memories view from the sidebar over an inert window', async () => {
    const { connection } = fakeConnection({ ...baseCommands, listMemories: async () => [memoryFixture()] });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    fireEvent.click(screen.getByTestId('open-memories'));
    await settle();
    expect(screen.getAllByTestId('memory-item').map((item) => item.dataset.memoryId)).toEqual(['mem1']);
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(true);
    fireEvent.click(screen.getByTestId('close-memories'));
    expect(screen.queryByTestId('memories-view')).toBeNull();
    expect(document.querySelector('.app-frame')?.hasAttribute('inert')).toBe(false);
  });

  it('runs an automatic compaction before a turn: progress, then the summary first and the meter read again', async () => {
    window.history.replaceState(null, '', '/#/c/c1');
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce({ messages: [messageFixture(), replyFixture({ text: 'Stored answer' })], invocations: [], hasOlder: false })
      .mockResolvedValueOnce({ messages: [summaryFixture({ coveredMessages: 2, text: 'They greeted each other.' })], invocations: [], hasOlder: false });
    const getContextStatus = vi
      .fn<Api['getContextStatus']>()
      .mockResolvedValue(contextStatusFixture({ level: 'emergency', percent: 85, description: "85 % of Kimi's window" }));
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    const { connection, push } = fakeConnection({ ...baseCommands, listMessages, getContextStatus, stop });
    stopApp = startApp(connection);
    render(<App />);
    await settle();
    expect(screen.getByTestId('context-meter-text').textContent).toBe("85 % of Kimi's window");
    push({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 2 });
    push({ type: 'compaction-progress', conversationId: 'c1', summarisedMessages: 1, totalMessages: 2, characters: 40 });
    expect(screen.getByTestId('compaction-progress').textContent).toBe('Summarising 2 messages… 1 read (Kimi writes the summary)Stop');
    expect((screen.getByTestId('send-button') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await settle();
    expect(stop).toHaveBeenCalledWith({ conversationId: 'c1' });
    getContextStatus.mockResolvedValue(contextStatusFixture({ level: 'ok', percent: 12, description: "12 % of Kimi's window" }));
    push({ type: 'compaction-finished', conversationId: 'c1', summary: summaryFixture({ coveredMessages: 2 }), coveredMessages: 2 });
    await settle();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', limit: 50 });
    expect(screen.getAllByTestId('message').map((row) => row.dataset.messageId)).toEqual(['s1']);
    expect(screen.getByTestId('summary-title').textContent).toBe('Summary of 2 earlier messages');
    expect(screen.getByTestId('context-meter-text').textContent).toBe("12 % of Kimi's window");
    expect(screen.getByTestId('compaction-outcome').textContent).toBe('Summarised 2 messages. They stay here, collapsed under the summary.');
  });
});
