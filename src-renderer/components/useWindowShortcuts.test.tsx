// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { useWindowShortcuts } from './useWindowShortcuts';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 5; round += 1) await Promise.resolve();
  });
}

/** A key press as the browser delivers it, to the element that has focus. */
function press(target: EventTarget, init: KeyboardEventInit): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}

let createConversation = vi.fn<Api['createConversation']>();
let composer: HTMLTextAreaElement;

beforeEach(() => {
  resetAppStore();
  localStorage.clear();
  createConversation = vi.fn<Api['createConversation']>().mockResolvedValue(conversationFixture({ id: 'new' }));
  installApi(fakeApi({ createConversation, listMessages: async () => ({ messages: [], invocations: [], hasOlder: false }) }));
  composer = document.body.appendChild(document.createElement('textarea'));
  composer.focus();
});

afterEach(() => {
  composer.remove();
  cleanup();
});

describe('useWindowShortcuts', () => {
  it('makes a new conversation on Ctrl+N from the composer, before the browser opens a window', async () => {
    renderHook(() => useWindowShortcuts());
    const event = press(composer, { key: 'n', code: 'KeyN', ctrlKey: true });
    await settle();
    expect(event.defaultPrevented).toBe(true);
    expect(createConversation).toHaveBeenCalledTimes(1);
    expect(useAppStore.getState().openConversationId).toBe('new');
  });

  it('shows the sidebar and asks for the search box on Ctrl+K', () => {
    useAppStore.setState({ sidebarHidden: true });
    renderHook(() => useWindowShortcuts());
    const event = press(composer, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(event.defaultPrevented).toBe(true);
    expect(useAppStore.getState()).toMatchObject({ sidebarHidden: false, searchFocusRequests: 1 });
  });

  it('opens a narrow window overlay on Ctrl+K', () => {
    useAppStore.setState({ narrowWindow: true });
    renderHook(() => useWindowShortcuts());
    press(composer, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(useAppStore.getState()).toMatchObject({ sidebarOverlayOpen: true, searchFocusRequests: 1 });
  });

  it('hides and shows the sidebar on Ctrl+Shift+S and remembers the choice', () => {
    renderHook(() => useWindowShortcuts());
    press(composer, { key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true });
    expect(useAppStore.getState().sidebarHidden).toBe(true);
    expect(localStorage.getItem('anybrain.sidebarHidden')).toBe('true');
    press(composer, { key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true });
    expect(useAppStore.getState().sidebarHidden).toBe(false);
    expect(localStorage.getItem('anybrain.sidebarHidden')).toBe('false');
  });

  it('opens the shortcuts sheet on Ctrl+/ and closes it on the same keys', () => {
    renderHook(() => useWindowShortcuts());
    press(composer, { key: '/', code: 'Slash', ctrlKey: true });
    expect(useAppStore.getState().shortcutsOpen).toBe(true);
    const again = press(document.body, { key: '/', code: 'Slash', ctrlKey: true });
    expect(again.defaultPrevented).toBe(true);
    expect(useAppStore.getState().shortcutsOpen).toBe(false);
  });

  it('closes a narrow window overlay on Escape ahead of the handlers that stop a reply', () => {
    useAppStore.setState({ narrowWindow: true, sidebarOverlayOpen: true });
    renderHook(() => useWindowShortcuts());
    const seenByLaterHandler = vi.fn((event: KeyboardEvent) => event.defaultPrevented);
    window.addEventListener('keydown', seenByLaterHandler);
    press(document.body, { key: 'Escape' });
    window.removeEventListener('keydown', seenByLaterHandler);
    expect(useAppStore.getState().sidebarOverlayOpen).toBe(false);
    expect(seenByLaterHandler).toHaveReturnedWith(true);
  });

  it('leaves the keys to an open dialog, and Escape to the dialog above the overlay', () => {
    useAppStore.setState({ settingsOpen: true, narrowWindow: true, sidebarOverlayOpen: true });
    renderHook(() => useWindowShortcuts());
    const newConversation = press(document.body, { key: 'n', code: 'KeyN', ctrlKey: true });
    const escape = press(document.body, { key: 'Escape' });
    expect(newConversation.defaultPrevented).toBe(false);
    expect(escape.defaultPrevented).toBe(false);
    expect(createConversation).not.toHaveBeenCalled();
    expect(useAppStore.getState()).toMatchObject({ sidebarOverlayOpen: true, shortcutsOpen: false });
  });

  it('ignores other combinations, a held key, a press already handled and one composing text', async () => {
    renderHook(() => useWindowShortcuts());
    const ignored = [
      press(composer, { key: 'n', code: 'KeyN' }),
      press(composer, { key: 'n', code: 'KeyN', ctrlKey: true, altKey: true }),
      press(composer, { key: 'N', code: 'KeyN', ctrlKey: true, shiftKey: true }),
      press(composer, { key: 's', code: 'KeyS', ctrlKey: true }),
      press(composer, { key: 'n', code: 'KeyN', ctrlKey: true, isComposing: true }),
    ];
    expect(ignored.map((event) => event.defaultPrevented)).toEqual([false, false, false, false, false]);
    // Held down, Ctrl+N repeats: the browser still must not open windows, and no more conversations appear.
    const held = press(composer, { key: 'n', code: 'KeyN', ctrlKey: true, repeat: true });
    expect(held.defaultPrevented).toBe(true);
    const handled = new KeyboardEvent('keydown', { key: 'n', code: 'KeyN', ctrlKey: true, bubbles: true, cancelable: true });
    handled.preventDefault();
    act(() => {
      composer.dispatchEvent(handled);
    });
    await settle();
    expect(createConversation).not.toHaveBeenCalled();
    expect(useAppStore.getState()).toMatchObject({ sidebarHidden: false, shortcutsOpen: false, searchFocusRequests: 0 });
  });
});
