// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { installMessageQueue } from '../state/turn-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { openConversationState } from '../state/messages-slice';
import { conversationFixture, fakeApi, messageFixture, replyFixture } from '../state/test-fixtures';
import { Composer } from './Composer';

const sent = { turnId: 't1', userMessageId: 'u1', assistantMessageId: 'a1' };

function renderComposer() {
  const view = render(<Composer conversationId="c1" />);
  const input = view.getByTestId('composer-input') as HTMLTextAreaElement;
  return { view, input };
}

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

beforeEach(resetAppStore);
afterEach(cleanup);

describe('Composer', () => {
  it('disables sending an empty or blank message', () => {
    const { view, input } = renderComposer();
    expect((view.getByTestId('send-button') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '   \n ' } });
    expect((view.getByTestId('send-button') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'Hi' } });
    expect((view.getByTestId('send-button') as HTMLButtonElement).disabled).toBe(false);
  });

  it('sends on Enter and clears the input', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send }));
    const { input } = renderComposer();
    fireEvent.change(input, { target: { value: 'Hello there' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ conversationId: 'c1', text: 'Hello there' });
    expect(input.value).toBe('');
  });

  it('does not send on Shift+Enter or while an IME composes', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send }));
    const { input } = renderComposer();
    fireEvent.change(input, { target: { value: 'にほん' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 });
    await settle();
    expect(send).not.toHaveBeenCalled();
    expect(input.value).toBe('にほん');
  });

  it('shows a refusal near the input and keeps the typed text', async () => {
    installApi(fakeApi({ send: () => Promise.reject(new ApiError('missing-key', 'Kimi needs an API key.')) }));
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: 'Keep me' } });
    fireEvent.click(view.getByTestId('send-button'));
    await settle();
    expect(view.getByTestId('composer-error').textContent).toBe('Kimi needs an API key.');
    expect(input.value).toBe('Keep me');
    fireEvent.change(input, { target: { value: 'Keep me!' } });
    expect(view.queryByTestId('composer-error')).toBeNull();
  });

  it('offers Settings for a key-host refusal, where the user confirms the host', async () => {
    const message = 'Your Kimi key was confirmed for api.moonshot.ai. Send it to llm.example.com? Confirm in Settings → Kimi.';
    installApi(fakeApi({ send: () => Promise.reject(new ApiError('key-host-unconfirmed', message)) }));
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: 'Hello' } });
    fireEvent.click(view.getByTestId('send-button'));
    await settle();
    expect(view.getByTestId('composer-error').textContent).toBe(`${message}Open Settings`);
    fireEvent.click(view.getByTestId('composer-error-settings'));
    expect(useAppStore.getState()).toMatchObject({ settingsOpen: true, settingsTab: 'general' });
  });

  it('turns Send into Stop while a turn runs, and Esc or Stop stops it', async () => {
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ stop, send }));
    useAppStore.setState({ activeTurns: { c1: { turnId: 't1', assistantMessageId: 'a1' } } });
    const { view, input } = renderComposer();
    expect(view.queryByTestId('send-button')).toBeNull();
    fireEvent.change(input, { target: { value: 'Next question' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    // The first Esc dismisses the prompt Enter raised; the next one stops.
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.click(view.getByTestId('stop-button'));
    await settle();
    expect(send).not.toHaveBeenCalled();
    expect(stop.mock.calls).toEqual([[{ conversationId: 'c1' }], [{ conversationId: 'c1' }]]);
    act(() => useAppStore.setState({ activeTurns: {} }));
    expect(view.getByTestId('send-button')).toBeTruthy();
  });

  it('names the brain that will answer in its placeholder', () => {
    const { input } = renderComposer();
    expect(input.placeholder).toBe('Message Claude…');
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi' }) } }));
    expect(input.placeholder).toBe('Message Kimi…');
  });
});

describe('Composer while a reply runs', () => {
  const running = { c1: { turnId: 't1', assistantMessageId: 'a1' } };
  let uninstallQueue: () => void = () => undefined;

  beforeEach(() => {
    uninstallQueue = installMessageQueue();
    useAppStore.setState({ activeTurns: running });
  });
  afterEach(() => uninstallQueue());

  function typeAndEnter(input: HTMLTextAreaElement, text: string): void {
    fireEvent.change(input, { target: { value: text } });
    fireEvent.keyDown(input, { key: 'Enter' });
  }

  it('says so on Enter and sends nothing', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Next question');
    await settle();
    const prompt = view.getByRole('status');
    expect(prompt.textContent).toBe('A reply is still running. Queue this message to send when it ends?QueueStop and sendKeep editing');
    expect(view.getByRole('button', { name: 'Queue' })).toBeTruthy();
    expect(view.getByRole('button', { name: 'Stop and send' })).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    expect(input.value).toBe('Next question');
  });

  it('says so during a compaction too, and offers only to queue', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send }));
    useAppStore.setState({ activeTurns: {}, compactions: { c1: { brain: null, model: null, totalMessages: null, summarisedMessages: 0, characters: 0 } } });
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: 'After the summary' } });
    fireEvent.click(view.getByTestId('send-button'));
    await settle();
    expect(view.getByTestId('composer-queue')).toBeTruthy();
    expect(view.queryByTestId('composer-stop-and-send')).toBeNull();
    fireEvent.click(view.getByTestId('composer-queue'));
    act(() => useAppStore.setState({ compactions: {} }));
    await settle();
    expect(send.mock.calls).toEqual([[{ conversationId: 'c1', text: 'After the summary' }]]);
  });

  it('queues: clears the draft, shows the queued line and sends it exactly once when the reply ends', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue({ turnId: 't2', userMessageId: 'u2', assistantMessageId: 'a2' });
    installApi(fakeApi({ send }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Next question');
    fireEvent.click(view.getByTestId('composer-queue'));
    expect(input.value).toBe('');
    expect(view.queryByTestId('composer-busy')).toBeNull();
    expect(view.getByTestId('composer-queued').textContent).toBe('Queued: Next questionCancel');
    await settle();
    expect(send).not.toHaveBeenCalled();

    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(send.mock.calls).toEqual([[{ conversationId: 'c1', text: 'Next question' }]]);
    expect(view.queryByTestId('composer-queued')).toBeNull();
    // The queued message's own turn ending sends nothing more.
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('keeps one queued message: a second Enter says so and offers no second queue', async () => {
    installApi(fakeApi({ send: vi.fn<Api['send']>().mockResolvedValue(sent) }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'First');
    fireEvent.click(view.getByTestId('composer-queue'));
    typeAndEnter(input, 'Second');
    expect(view.getByTestId('composer-busy').textContent).toBe(
      'A reply is still running and a message is already queued. Cancel the queued one to queue this instead.Keep editing',
    );
    expect(useAppStore.getState().queuedMessages).toEqual({ c1: { text: 'First', attachments: [] } });
    expect(input.value).toBe('Second');
  });

  it('cancelling the queued message puts its text back into the composer', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Never mind');
    fireEvent.click(view.getByTestId('composer-queue'));
    fireEvent.click(view.getByRole('button', { name: 'Cancel the queued message' }));
    expect(input.value).toBe('Never mind');
    expect(view.queryByTestId('composer-queued')).toBeNull();
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(send).not.toHaveBeenCalled();
  });

  it('cancelling keeps text typed since, after the queued text', () => {
    installApi(fakeApi({ send: vi.fn<Api['send']>().mockResolvedValue(sent) }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Queued words');
    fireEvent.click(view.getByTestId('composer-queue'));
    fireEvent.change(input, { target: { value: 'typed later' } });
    fireEvent.click(view.getByTestId('composer-queued-cancel'));
    expect(input.value).toBe('Queued words\n\ntyped later');
  });

  it('Stop and send stops the reply, then sends once it has ended', async () => {
    const calls: string[] = [];
    const stop = vi.fn<Api['stop']>(async () => {
      calls.push('stop');
      return { stopped: true };
    });
    const send = vi.fn<Api['send']>(async (request) => {
      calls.push(`send ${request.text}`);
      return sent;
    });
    installApi(fakeApi({ stop, send }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Instead, this');
    fireEvent.click(view.getByRole('button', { name: 'Stop and send' }));
    await settle();
    expect(calls).toEqual(['stop']);
    expect(input.value).toBe('');
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(calls).toEqual(['stop', 'send Instead, this']);
  });

  it('Esc dismisses the prompt and keeps the draft', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    installApi(fakeApi({ send, stop }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Still mine');
    fireEvent.keyDown(view.getByTestId('composer-queue'), { key: 'Escape' });
    expect(view.queryByTestId('composer-busy')).toBeNull();
    typeAndEnter(input, 'Still mine');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(view.queryByTestId('composer-busy')).toBeNull();
    expect(input.value).toBe('Still mine');
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(send).not.toHaveBeenCalled();
    expect(stop).not.toHaveBeenCalled();
  });

  it('forgets the prompt when the reply ends, so a later reply does not raise it unasked', () => {
    installApi(fakeApi({ send: vi.fn<Api['send']>().mockResolvedValue(sent) }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Typed during the reply');
    expect(view.getByTestId('composer-busy')).toBeTruthy();
    act(() => useAppStore.setState({ activeTurns: {} }));
    expect(view.queryByTestId('composer-busy')).toBeNull();
    act(() => useAppStore.setState({ activeTurns: { c1: { turnId: 't2', assistantMessageId: 'a2' } } }));
    expect(view.queryByTestId('composer-busy')).toBeNull();
    expect(input.value).toBe('Typed during the reply');
  });

  it('puts a queued message that could not be sent back into the composer and says why', async () => {
    installApi(fakeApi({ send: () => Promise.reject(new ApiError('missing-key', 'Kimi needs an API key.')) }));
    const { view, input } = renderComposer();
    typeAndEnter(input, 'Try later');
    fireEvent.click(view.getByTestId('composer-queue'));
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    await settle();
    expect(input.value).toBe('Try later');
    expect(useAppStore.getState().notice).toBe('Could not send the queued message: Kimi needs an API key.');
  });
});

describe('Composer skill suggestions', () => {
  const skills = {
    folder: '/data/skills',
    skills: [
      { name: 'whale-facts', description: 'Answer with whale facts.', file: 'whale-facts.md' },
      { name: 'summarise', description: 'Summarise the conversation.', file: 'summarise.md' },
      { name: 'translate', description: 'Translate into French.', file: 'translate.md' },
    ],
    problems: [],
  };

  const names = (view: ReturnType<typeof render>) =>
    view.queryAllByTestId('skill-suggestion').map((suggestion) => suggestion.dataset.skillName);

  beforeEach(() => useAppStore.setState({ skills }));

  it('suggests skills after a leading slash, filtered by what follows, and fetches them again', async () => {
    const listSkills = vi.fn<Api['listSkills']>().mockResolvedValue(skills);
    installApi(fakeApi({ listSkills }));
    const { view, input } = renderComposer();
    expect(names(view)).toEqual([]);
    fireEvent.change(input, { target: { value: '/' } });
    await settle();
    expect(listSkills).toHaveBeenCalledTimes(1);
    expect(names(view)).toEqual(['summarise', 'translate', 'whale-facts']);
    fireEvent.change(input, { target: { value: '/wh' } });
    expect(names(view)).toEqual(['whale-facts']);
    expect(view.getByTestId('skill-suggestion').textContent).toBe('/whale-factsAnswer with whale facts.');
    fireEvent.change(input, { target: { value: '/whale-facts tell me' } });
    expect(names(view)).toEqual([]);
  });

  it('completes the highlighted skill on Tab or Enter without sending', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ send, listSkills: async () => skills }));
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: '/wh' } });
    fireEvent.keyDown(input, { key: 'Tab' });
    expect(input.value).toBe('/whale-facts ');
    expect(names(view)).toEqual([]);

    fireEvent.change(input, { target: { value: '/' } });
    expect(input.getAttribute('aria-activedescendant')).toBe(view.getAllByTestId('skill-suggestion')[0]?.id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(view.getAllByTestId('skill-suggestion')[1]?.getAttribute('aria-selected')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(view.getAllByTestId('skill-suggestion')[1]?.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(input.value).toBe('/translate ');
    await settle();
    expect(send).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: '/translate bonjour' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ conversationId: 'c1', text: '/translate bonjour' });
  });

  it('completes a clicked skill', () => {
    installApi(fakeApi({ listSkills: async () => skills }));
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: '/s' } });
    const suggestion = view.getAllByTestId('skill-suggestion').find((item) => item.dataset.skillName === 'summarise');
    fireEvent.mouseDown(suggestion as HTMLElement);
    fireEvent.click(suggestion as HTMLElement);
    expect(input.value).toBe('/summarise ');
  });

  it('hides the list on Escape and sends on Enter when no skill matches', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    const stop = vi.fn<Api['stop']>();
    installApi(fakeApi({ send, stop, listSkills: async () => skills }));
    const { view, input } = renderComposer();
    fireEvent.change(input, { target: { value: '/tr' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(names(view)).toEqual([]);
    fireEvent.change(input, { target: { value: '/nothing-like-it' } });
    expect(names(view)).toEqual([]);
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ conversationId: 'c1', text: '/nothing-like-it' });
    expect(stop).not.toHaveBeenCalled();
  });
});

describe('Up in the composer', () => {
  function loadConversation(): void {
    const messages = [
      messageFixture({ id: 'u1', seq: 1, text: 'first' }),
      replyFixture({ id: 'a1', seq: 2, parentId: 'u1' }),
      messageFixture({ id: 'u2', seq: 3, parentId: 'a1', text: 'last one I sent' }),
      replyFixture({ id: 'a2', seq: 4, parentId: 'u2' }),
    ];
    useAppStore.setState({
      ...openConversationState('c1'),
      pageStatus: 'ready',
      messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
      messageIds: messages.map((message) => message.id),
    });
  }

  it('opens the editor on the last message sent when the composer is empty', () => {
    loadConversation();
    const { input } = renderComposer();
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(useAppStore.getState().editingMessageId).toBe('u2');
  });

  it('leaves Up to the text when the composer holds some, or while a reply runs', () => {
    loadConversation();
    const { input } = renderComposer();
    fireEvent.change(input, { target: { value: 'typing' } });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(useAppStore.getState().editingMessageId).toBeNull();
    fireEvent.change(input, { target: { value: '' } });
    act(() => useAppStore.setState({ activeTurns: { c1: { turnId: 't9', assistantMessageId: 'a9' } } }));
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(useAppStore.getState().editingMessageId).toBeNull();
  });
});
