// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { Sidebar } from './Sidebar';
import { CollapsedSidebarControls } from './SidebarToggle';
import { useSidebarLayout } from './useWindowShortcuts';

/** The window's two columns as App lays them out: the sidebar, and the main column's stand-in controls. */
function Frame() {
  useSidebarLayout();
  return (
    <>
      <Sidebar />
      <main>
        <CollapsedSidebarControls />
      </main>
    </>
  );
}

/** A window of the given width as far as `matchMedia` tells, with a way to resize it. */
function fakeWindowWidth(initialWidth: number) {
  let width = initialWidth;
  const listeners = new Set<() => void>();
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      media: query,
      get matches() {
        const limit = /max-width: (\d+)px/.exec(query)?.[1];
        return limit !== undefined && width <= Number(limit);
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    })),
  );
  return (next: number) => {
    width = next;
    act(() => listeners.forEach((listener) => listener()));
  };
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 5; round += 1) await Promise.resolve();
  });
}

beforeEach(() => {
  resetAppStore();
  localStorage.clear();
  installApi(fakeApi({ listMessages: async () => ({ messages: [], invocations: [], hasOlder: false }) }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('sidebar toggle', () => {
  it('hides the sidebar, says so in its name and state, and offers Show sidebar and New conversation instead', () => {
    fakeWindowWidth(1280);
    const view = render(<Frame />);
    const hide = view.getByRole('button', { name: 'Hide sidebar' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(hide.getAttribute('aria-controls')).toBe('sidebar');
    expect(view.getByTestId('sidebar').id).toBe('sidebar');
    expect(view.queryByTestId('new-conversation-compact')).toBeNull();

    fireEvent.click(hide);
    expect(view.getByTestId('sidebar').hidden).toBe(true);
    const show = view.getByRole('button', { name: 'Show sidebar' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    expect(show.getAttribute('aria-controls')).toBe('sidebar');
    expect(view.getByRole('button', { name: 'New conversation' }).dataset.testid).toBe('new-conversation-compact');

    fireEvent.click(show);
    expect(view.getByTestId('sidebar').hidden).toBe(false);
  });

  it('remembers a hidden sidebar across reloads of a wide window', () => {
    fakeWindowWidth(1280);
    const first = render(<Frame />);
    fireEvent.click(first.getByRole('button', { name: 'Hide sidebar' }));
    first.unmount();
    resetAppStore();
    const reloaded = render(<Frame />);
    expect(reloaded.getByTestId('sidebar').hidden).toBe(true);
    expect(reloaded.getByRole('button', { name: 'Show sidebar' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('starts collapsed in a narrow window whatever was remembered, and opens as an overlay that keeps no memory', () => {
    localStorage.setItem('anybrain.sidebarHidden', 'false');
    fakeWindowWidth(480);
    const view = render(<Frame />);
    expect(view.getByTestId('sidebar').hidden).toBe(true);
    fireEvent.click(view.getByRole('button', { name: 'Show sidebar' }));
    const sidebar = view.getByTestId('sidebar');
    expect(sidebar.hidden).toBe(false);
    expect(sidebar.classList.contains('is-overlay')).toBe(true);
    // Focus moves into the overlay, onto its own toggle.
    expect(document.activeElement).toBe(view.getByTestId('hide-sidebar'));
    expect(localStorage.getItem('anybrain.sidebarHidden')).toBe('false');
    fireEvent.click(view.getByTestId('hide-sidebar'));
    expect(view.getByTestId('sidebar').hidden).toBe(true);
    // And back to the toggle that opened it once it closes.
    expect(document.activeElement).toBe(view.getByTestId('show-sidebar'));
  });

  it('collapses when the window narrows and shows the remembered choice when it widens again', () => {
    const resize = fakeWindowWidth(1280);
    const view = render(<Frame />);
    expect(view.getByTestId('sidebar').hidden).toBe(false);
    resize(600);
    expect(view.getByTestId('sidebar').hidden).toBe(true);
    resize(1000);
    expect(view.getByTestId('sidebar').hidden).toBe(false);
  });

  it('closes the overlay when a conversation is chosen in it', async () => {
    fakeWindowWidth(480);
    useAppStore.setState({
      conversationsById: { c1: conversationFixture({ id: 'c1', title: 'Trip' }) },
      conversationOrder: ['c1'],
      conversationsLoaded: true,
    });
    const view = render(<Frame />);
    fireEvent.click(view.getByRole('button', { name: 'Show sidebar' }));
    fireEvent.click(view.getByText('Trip'));
    await settle();
    expect(useAppStore.getState().openConversationId).toBe('c1');
    expect(view.getByTestId('sidebar').hidden).toBe(true);
  });

  it('opens the shortcuts sheet from the sidebar footer', () => {
    fakeWindowWidth(1280);
    const view = render(<Frame />);
    fireEvent.click(view.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(useAppStore.getState().shortcutsOpen).toBe(true);
  });
});
