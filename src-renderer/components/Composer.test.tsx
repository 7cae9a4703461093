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
