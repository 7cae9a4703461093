// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import {
  closeConversation,
  createConversation,
  importTranscript,
  loadNewerMessages,
  loadOlderMessages,
  openConversation,
  resync,
  showLatestMessages,
} from './conversation-actions';
import { nextBrain, setConversationReasoning, switchConversationBrain, switchToNextBrain } from './brain-actions';
import { openRequestPreview, previewNextRequest, sendMessage, updateDraft } from './turn-actions';
import { installApi } from './api-client';
import { hasPendingDeltas, resetDeltaBuffer } from './delta-buffer';
import { handleApiEvent } from './events';
import { resetAppStore, useAppStore } from './store';
import { contextStatusFixture, conversationFixture, fakeApi, invocationFixture, messageFixture, replyFixture } from './test-fixtures';

const { getState } = useAppStore;

function install(commands: Partial<Api>): void {
  installApi(fakeApi(commands));
}

/** Frames asked for since the last one ran: the test decides when the next frame comes. */
let requestedFrames: (() => void)[] = [];

function runFrame(): void {
  const due = requestedFrames;
  requestedFrames = [];
  for (const callback of due) callback();
}

beforeEach(() => {
  resetAppStore();
  requestedFrames = [];
  resetDeltaBuffer((callback) => requestedFrames.push(callback));
  window.history.replaceState(null, '', '/');
});

afterEach(() => vi.restoreAllMocks());

describe('openConversation', () => {
  it('loads the newest page, records the conversation in the hash and finds a running turn', async () => {
    const listMessages = vi.fn<Api['listMessages']>().mockResolvedValue({
      messages: [messageFixture(), replyFixture({ status: 'streaming', turnId: 't4' })],
      invocations: [], hasOlder: true,
    });
    install({ listMessages, getConversation: async () => conversationFixture() });
    await openConversation('c1');
    expect(listMessages).toHaveBeenCalledWith({ conversationId: 'c1', limit: 50 });
    expect(window.location.hash).toBe('#/c/c1');
    expect(getState().messageIds).toEqual(['m1', 'm2']);
    expect(getState().hasOlder).toBe(true);
    expect(getState().pageStatus).toBe('ready');
    expect(getState().activeTurns).toEqual({ c1: { turnId: 't4', assistantMessageId: 'm2' } });
    expect(getState().conversationsById.c1?.title).toBe('First conversation');
  });

  it('keeps the invocations of the page by message, for the receipts', async () => {
    const invocation = invocationFixture();
    install({
      listMessages: async () => ({ messages: [messageFixture(), replyFixture()], invocations: [invocation], hasOlder: false }),
      getConversation: async () => conversationFixture(),
    });
    await openConversation('c1');
    expect(getState().invocationsByMessage).toEqual({ m2: [invocation] });
  });

  it('closes the request view of the conversation it leaves', async () => {
    install({
      listMessages: async () => ({ messages: [], invocations: [], hasOlder: false }),
      getConversation: async ({ id }) => conversationFixture({ id }),
    });
    await openConversation('c1');
    openRequestPreview();
    await openConversation('c2');
    expect(getState().requestPreviewOpen).toBe(false);
    openRequestPreview();
    closeConversation();
    expect(getState().requestPreviewOpen).toBe(false);
  });

  it('closes and explains a conversation that no longer exists', async () => {
    install({
      listMessages: () => Promise.reject(new ApiError('not-found', 'No such conversation.')),
      getConversation: () => Promise.reject(new ApiError('not-found', 'No such conversation.')),
    });
    await openConversation('gone');
    expect(getState().openConversationId).toBeNull();
    expect(window.location.hash).toBe('');
    expect(getState().notice).toBe('That conversation no longer exists.');
  });

  it('ignores a page that arrives after another conversation was opened', async () => {
    let answerFirst: (page: Awaited<ReturnType<Api['listMessages']>>) => void = () => undefined;
    install({
      getConversation: async ({ id }) => conversationFixture({ id }),
      listMessages: ({ conversationId }) =>
        conversationId === 'c1'
          ? new Promise((resolve) => (answerFirst = resolve))
          : Promise.resolve({ messages: [messageFixture({ id: 'x1', conversationId: 'c2' })], invocations: [], hasOlder: false }),
    });
    const first = openConversation('c1');
    await openConversation('c2');
    answerFirst({ messages: [messageFixture()], invocations: [], hasOlder: false });
    await first;
    expect(getState().openConversationId).toBe('c2');
    expect(getState().messageIds).toEqual(['x1']);
  });
});

describe('loadOlderMessages', () => {
  it('asks for the page before the first loaded seq and prepends it', async () => {
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm51', seq: 51 })], invocations: [], hasOlder: true })
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm50', seq: 50 })], invocations: [], hasOlder: false });
    install({ listMessages, getConversation: async () => conversationFixture() });
    await openConversation('c1');
    await loadOlderMessages();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', beforeSeq: 51, limit: 50 });
    expect(getState().messageIds).toEqual(['m50', 'm51']);
    expect(getState().hasOlder).toBe(false);
    await loadOlderMessages();
    expect(listMessages).toHaveBeenCalledTimes(2);
  });
});

describe('loadNewerMessages', () => {
  it('asks for the page after the window\'s newest seq once older paging let the newest rows go, and appends it', async () => {
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm51', seq: 51 })], invocations: [], hasOlder: true })
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm52', seq: 52 })], invocations: [], hasOlder: true, hasNewer: false });
    install({ listMessages, getConversation: async () => conversationFixture() });
    await openConversation('c1');
    await loadNewerMessages();
    expect(listMessages).toHaveBeenCalledTimes(1);
    useAppStore.setState({ hasNewer: true });
    await loadNewerMessages();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', afterSeq: 51, limit: 50 });
    expect(getState().messageIds).toEqual(['m51', 'm52']);
    expect(getState().hasNewer).toBe(false);
    expect(getState().loadingNewer).toBe(false);
  });

  it('goes back to the newest page in place of a window that let it go', async () => {
    const listMessages = vi
      .fn<Api['listMessages']>()
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm51', seq: 51 })], invocations: [], hasOlder: true })
      .mockResolvedValueOnce({ messages: [messageFixture({ id: 'm99', seq: 99 })], invocations: [], hasOlder: true });
    install({ listMessages, getConversation: async () => conversationFixture() });
    await openConversation('c1');
    useAppStore.setState({ hasNewer: true });
    await showLatestMessages();
    expect(listMessages).toHaveBeenLastCalledWith({ conversationId: 'c1', limit: 50 });
    expect(getState().messageIds).toEqual(['m99']);
    expect(getState().hasNewer).toBe(false);
  });
});

describe('sendMessage', () => {
  it('clears the draft it sent and marks the turn running', async () => {
    install({ send: async () => ({ turnId: 't1', userMessageId: 'u1', assistantMessageId: 'a1' }) });
    updateDraft('c1', 'Hello');
    await sendMessage('c1', 'Hello');
    expect(getState().drafts).toEqual({});
    expect(getState().activeTurns).toEqual({ c1: { turnId: 't1', assistantMessageId: 'a1' } });
    expect(getState().pendingSends).toEqual({});
  });

  it('keeps text typed while the send was on its way', async () => {
    let answer: () => void = () => undefined;
    install({
      send: () =>
        new Promise((resolve) => {
          answer = () => resolve({ turnId: 't1', userMessageId: 'u1', assistantMessageId: 'a1' });
        }),
    });
    updateDraft('c1', 'Hello');
    const sending = sendMessage('c1', 'Hello');
    expect(getState().pendingSends).toEqual({ c1: true });
    updateDraft('c1', 'Hello and more');
    answer();
    await sending;
    expect(getState().drafts).toEqual({ c1: 'Hello and more' });
  });

  it('rethrows a refusal and keeps the draft', async () => {
    install({ send: () => Promise.reject(new ApiError('turn-running', 'A turn is running.')) });
    updateDraft('c1', 'Hello');
    await expect(sendMessage('c1', 'Hello')).rejects.toThrow('A turn is running.');
    expect(getState().drafts).toEqual({ c1: 'Hello' });
    expect(getState().activeTurns).toEqual({});
  });
});

describe('createConversation', () => {
  it('creates, lists and opens a conversation', async () => {
    install({
      createConversation: async () => conversationFixture({ id: 'new' }),
      getConversation: async () => conversationFixture({ id: 'new' }),
      listMessages: async () => ({ messages: [], invocations: [], hasOlder: false }),
    });
    await createConversation();
    expect(getState().conversationOrder).toEqual(['new']);
    expect(getState().openConversationId).toBe('new');
    expect(window.location.hash).toBe('#/c/new');
  });
});

describe('resync', () => {
  it('fetches the list and the newest page again, ending a turn whose end was missed', async () => {
    install({
      getConversation: async () => conversationFixture(),
      listConversations: async () => [conversationFixture()],
      listMessages: vi
        .fn<Api['listMessages']>()
        .mockResolvedValueOnce({ messages: [messageFixture(), replyFixture({ status: 'streaming' })], invocations: [], hasOlder: false })
        .mockResolvedValueOnce({ messages: [messageFixture(), replyFixture({ text: 'Done.' })], invocations: [], hasOlder: false }),
    });
    await openConversation('c1');
    expect(getState().activeTurns).toEqual({ c1: { turnId: 't1', assistantMessageId: 'm2' } });
    await resync();
    expect(getState().activeTurns).toEqual({});
    expect(getState().messagesById.m2?.text).toBe('Done.');
    expect(getState().conversationOrder).toEqual(['c1']);
  });
});

describe('text deltas waiting for a frame', () => {
  const streamingPage = (text: string) => ({
    messages: [messageFixture(), replyFixture({ text, status: 'streaming' })],
    invocations: [],
    hasOlder: false,
  });

  it('are applied before a page merge, so a page that already holds them does not show them twice', async () => {
    install({
      getConversation: async () => conversationFixture(),
      listConversations: async () => [conversationFixture()],
      listMessages: vi.fn<Api['listMessages']>().mockResolvedValueOnce(streamingPage('Hel')).mockResolvedValueOnce(streamingPage('Hello')),
    });
    await openConversation('c1');
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'lo' });
    await resync();
    expect(hasPendingDeltas()).toBe(false);
    runFrame();
    expect(getState().streamingText).toEqual({ m2: 'Hello' });
  });

  it('are dropped when the conversation is closed, even if it is opened again before the frame', async () => {
    install({ getConversation: async () => conversationFixture(), listMessages: async () => streamingPage('Hi') });
    await openConversation('c1');
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: ' there' });
    closeConversation();
    expect(hasPendingDeltas()).toBe(false);
    await openConversation('c1');
    runFrame();
    expect(getState().streamingText).toEqual({});
    expect(getState().messagesById.m2?.text).toBe('Hi');
  });
});

describe('brain switching', () => {
  beforeEach(() => {
    useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi', model: 'kimi-k2.5' }) } });
  });

  it('hands the next turn to another brain on its default model and that model\u2019s default reasoning, and does nothing for the current brain', async () => {
    const setConversationBrain = vi.fn<Api['setConversationBrain']>().mockResolvedValue(conversationFixture({ brain: 'glm' }));
    install({ setConversationBrain });
    await switchConversationBrain('c1', 'kimi');
    expect(setConversationBrain).not.toHaveBeenCalled();
    await switchConversationBrain('c1', 'glm');
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'glm', model: null, reasoningLevel: null });
    expect(getState().conversationsById.c1?.brain).toBe('glm');
  });

  it('cycles through the brains in table order, wrapping around', async () => {
    expect(nextBrain('claude')).toBe('codex');
    expect(nextBrain('ollama')).toBe('claude');
    const setConversationBrain = vi.fn<Api['setConversationBrain']>().mockResolvedValue(conversationFixture({ brain: 'grok' }));
    install({ setConversationBrain });
    await switchToNextBrain('c1');
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'grok', model: null, reasoningLevel: null });
  });

  it('starts the cycle from the default brain when the conversation has none', async () => {
    useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: null }) } });
    const setConversationBrain = vi.fn<Api['setConversationBrain']>().mockResolvedValue(conversationFixture({ brain: 'codex' }));
    install({ setConversationBrain });
    await switchToNextBrain('c1');
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'codex', model: null, reasoningLevel: null });
  });

  it('sets a reasoning level without touching the brain or its model', async () => {
    const setConversationBrain = vi
      .fn<Api['setConversationBrain']>()
      .mockResolvedValue(conversationFixture({ brain: 'kimi', model: 'kimi-k2.5', reasoningLevel: 'high' }));
    install({ setConversationBrain });
    await setConversationReasoning('c1', 'high');
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'kimi', reasoningLevel: 'high' });
    expect(getState().conversationsById.c1?.reasoningLevel).toBe('high');
    await setConversationReasoning('c1', null);
    expect(setConversationBrain).toHaveBeenLastCalledWith({ id: 'c1', brain: 'kimi', reasoningLevel: null });
  });

  it('explains a refused switch in the notice', async () => {
    install({ setConversationBrain: () => Promise.reject(new ApiError('not-found', 'No such conversation.')) });
    await switchConversationBrain('c1', 'glm');
    expect(getState().notice).toBe('Could not change the brain: No such conversation.');
  });
});

describe('previewNextRequest', () => {
  it('sends the draft as the new message, and no message without a draft', async () => {
    const preview = {
      brain: 'kimi',
      model: 'kimi-k2.6',
      reasoningLevel: 'off',
      wire: 'chat-completions',
      body: '{}',
      warnings: [],
      context: contextStatusFixture(),
    } as const;
    const previewRequest = vi.fn<Api['previewRequest']>().mockResolvedValue(preview);
    install({ previewRequest });
    await expect(previewNextRequest('c1')).resolves.toBe(preview);
    expect(previewRequest).toHaveBeenLastCalledWith({ conversationId: 'c1' });
    updateDraft('c1', '   ');
    await previewNextRequest('c1');
    expect(previewRequest).toHaveBeenLastCalledWith({ conversationId: 'c1' });
    updateDraft('c1', ' What next? ');
    await previewNextRequest('c1');
    expect(previewRequest).toHaveBeenLastCalledWith({ conversationId: 'c1', message: ' What next? ' });
  });
});

describe('importTranscript', () => {
  it('imports, lists and opens the new conversation', async () => {
    const imported = conversationFixture({ id: 'imported', title: 'From a file' });
    const importCommand = vi.fn<Api['importTranscript']>().mockResolvedValue(imported);
    install({
      importTranscript: importCommand,
      getConversation: async () => imported,
      listMessages: async () => ({ messages: [messageFixture({ conversationId: 'imported' })], invocations: [], hasOlder: false }),
    });
    await importTranscript('{"format":"anybrain.transcript"}');
    expect(importCommand).toHaveBeenCalledWith({ content: '{"format":"anybrain.transcript"}' });
    expect(getState().conversationOrder).toEqual(['imported']);
    expect(getState().openConversationId).toBe('imported');
    expect(window.location.hash).toBe('#/c/imported');
  });

  it('rethrows a refusal and opens nothing', async () => {
    install({
      importTranscript: () => Promise.reject(new ApiError('invalid-transcript', 'messages[1].role: Invalid option.')),
    });
    await expect(importTranscript('{}')).rejects.toThrow('messages[1].role');
    expect(getState().openConversationId).toBeNull();
  });
});
