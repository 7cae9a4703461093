import { useEffect, useLayoutEffect } from 'react';
import { createConversation } from '../state/conversation-actions';
import { selectModalOpen } from '../state/selectors';
import { useAppStore } from '../state/store';
import {
  NARROW_WINDOW_QUERY,
  closeShortcuts,
  closeSidebarOverlay,
  focusSearch,
  noteWindowWidth,
  openShortcuts,
  restoreSidebar,
  toggleSidebarShown,
} from '../state/window-actions';
import { isApplePlatform } from './brain-shortcuts';
import { windowCommandOf, type WindowCommand } from './shortcuts';

export function runWindowCommand(command: WindowCommand): void {
  switch (command) {
    case 'new-conversation':
      void createConversation();
      return;
    case 'focus-search':
      focusSearch();
      return;
    case 'toggle-sidebar':
      toggleSidebarShown();
      return;
    case 'show-shortcuts':
      openShortcuts();
      return;
    default: {
      const unknown: never = command;
      throw new Error(`Unknown window command: ${String(unknown)}`);
    }
  }
}

/**
 * The window-wide shortcuts of the shortcut table, from anywhere in the window, the composer included: none of them
 * is a text-editing key in a text field. A modal dialog owns the keyboard while it is up, except that the shortcut
 * that opened the shortcuts sheet also closes it.
 */
export function useWindowShortcuts(): void {
  useEffect(() => {
    const apple = isApplePlatform();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const state = useAppStore.getState();
      if (event.key === 'Escape') {
        if (!state.sidebarOverlayOpen || selectModalOpen(state)) return;
        // Ahead of the window's other Escape handlers (stopping a reply), which skip a handled press.
        event.preventDefault();
        closeSidebarOverlay();
        return;
      }
      const command = windowCommandOf(event, apple);
      if (command === null) return;
      if (command === 'show-shortcuts' && state.shortcutsOpen) {
        event.preventDefault();
        closeShortcuts();
        return;
      }
      if (selectModalOpen(state)) return;
      // Browsers act on some of these keys themselves otherwise (Ctrl+N opens a window, Ctrl+K the address bar's search).
      event.preventDefault();
      if (event.repeat) return;
      runWindowCommand(command);
    };
    // Capture, so that Escape closes the overlay before the bubbling handlers see the press.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
}

/** Follows the window's width: below the breakpoint the sidebar starts closed and opens over the conversation. */
export function useSidebarLayout(): void {
  // Before the first paint, so a narrow window never flashes the sidebar open.
  useLayoutEffect(() => {
    if (typeof window.matchMedia !== 'function') {
      restoreSidebar(false);
      return undefined;
    }
    const query = window.matchMedia(NARROW_WINDOW_QUERY);
    restoreSidebar(query.matches);
    const update = (): void => noteWindowWidth(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
}
