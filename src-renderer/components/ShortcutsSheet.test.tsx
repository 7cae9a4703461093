// @vitest-environment jsdom
import { cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetAppStore, useAppStore } from '../state/store';
import { shortcutSections } from './shortcuts';
import { ShortcutsSheet } from './ShortcutsSheet';

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({ shortcutsOpen: true });
});

afterEach(cleanup);

describe('ShortcutsSheet', () => {
  it('lists every row of the shortcut table, under its section, with its keys', () => {
    const view = render(<ShortcutsSheet />);
    const sheet = view.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(sheet).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Window',
      'Brains',
      'Composer',
      'Anywhere',
    ]);
    const rows = within(sheet).getAllByTestId('shortcut-row');
    expect(rows.map((row) => row.querySelector('dt')?.textContent)).toEqual(
      shortcutSections(false).flatMap((section) => section.rows.map((row) => row.description)),
    );
    const keysOf = (row: HTMLElement) => [...row.querySelectorAll('.shortcut-keys')].map((chord) => [...chord.querySelectorAll('kbd')].map((key) => key.textContent));
    expect(keysOf(rows[2]!)).toEqual([['Ctrl', 'Shift', 'S']]);
    expect(keysOf(rows[4]!)).toEqual([
      ['Ctrl', '1'],
      ['Ctrl', '7'],
    ]);
    expect(rows[4]?.querySelector('dd')?.textContent).toBe('Ctrl1toCtrl7');
  });

  it('closes on Escape and on its close button', () => {
    const view = render(<ShortcutsSheet />);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(useAppStore.getState().shortcutsOpen).toBe(false);
    useAppStore.setState({ shortcutsOpen: true });
    fireEvent.click(view.getByRole('button', { name: 'Close keyboard shortcuts' }));
    expect(useAppStore.getState().shortcutsOpen).toBe(false);
  });
});
