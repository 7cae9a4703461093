// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
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
