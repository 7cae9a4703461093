// @vitest-environment jsdom
import { act, cleanup, fireEvent, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { useBrainShortcuts } from './useBrainShortcuts';

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

let setConversationBrain = vi.fn<Api['setConversationBrain']>();

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi' }) } });
  setConversationBrain = vi
    .fn<Api['setConversationBrain']>()
    .mockImplementation(async ({ brain }) => conversationFixture({ brain, model: null }));
  installApi(fakeApi({ setConversationBrain }));
});

afterEach(cleanup);

describe('useBrainShortcuts', () => {
  it('picks the brain of Ctrl+digit, even from the composer, and keeps the browser from switching tabs', async () => {
    renderHook(() => useBrainShortcuts('c1'));
    const textarea = document.body.appendChild(document.createElement('textarea'));
    const event = new KeyboardEvent('keydown', { key: '5', code: 'Digit5', ctrlKey: true, bubbles: true, cancelable: true });
    textarea.dispatchEvent(event);
    await settle();
    expect(event.defaultPrevented).toBe(true);
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'glm', model: null, reasoningLevel: null });
    textarea.remove();
  });

  it('moves to the next brain on Ctrl+Shift+B, one step per press', async () => {
    renderHook(() => useBrainShortcuts('c1'));
    fireEvent.keyDown(window, { key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true });
    await settle();
    expect(useAppStore.getState().conversationsById.c1?.brain).toBe('grok');
    fireEvent.keyDown(window, { key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true, repeat: true });
    await settle();
    fireEvent.keyDown(window, { key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true });
    await settle();
    expect(setConversationBrain.mock.calls.map(([input]) => input.brain)).toEqual(['grok', 'glm']);
  });

  it('leaves other keys alone, and does nothing while the settings are open or after unmounting', async () => {
    const { unmount } = renderHook(() => useBrainShortcuts('c1'));
    fireEvent.keyDown(window, { key: '3', code: 'Digit3' });
    fireEvent.keyDown(window, { key: '9', code: 'Digit9', ctrlKey: true });
    useAppStore.setState({ settingsOpen: true });
    fireEvent.keyDown(window, { key: '1', code: 'Digit1', ctrlKey: true });
    useAppStore.setState({ settingsOpen: false });
    unmount();
    fireEvent.keyDown(window, { key: '1', code: 'Digit1', ctrlKey: true });
    await settle();
    expect(setConversationBrain).not.toHaveBeenCalled();
  });
});
