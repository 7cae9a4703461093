import { describe, expect, it } from 'vitest';
import { shortcutSections, windowAriaShortcut, windowCommandOf, windowShortcutLabel } from './shortcuts';

const press = (key: string, code: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key,
  code,
  ctrlKey: modifiers.ctrl ?? false,
  metaKey: modifiers.meta ?? false,
  shiftKey: modifiers.shift ?? false,
  altKey: modifiers.alt ?? false,
});

describe('windowCommandOf', () => {
  it('maps Ctrl+N, Ctrl+K, Ctrl+Shift+S and Ctrl+/ to their commands off Apple systems', () => {
    expect(windowCommandOf(press('n', 'KeyN', { ctrl: true }), false)).toBe('new-conversation');
    expect(windowCommandOf(press('k', 'KeyK', { ctrl: true }), false)).toBe('focus-search');
    expect(windowCommandOf(press('S', 'KeyS', { ctrl: true, shift: true }), false)).toBe('toggle-sidebar');
    expect(windowCommandOf(press('/', 'Slash', { ctrl: true }), false)).toBe('show-shortcuts');
  });

  it('uses Cmd on Apple systems and ignores Ctrl there', () => {
    expect(windowCommandOf(press('n', 'KeyN', { meta: true }), true)).toBe('new-conversation');
    expect(windowCommandOf(press('n', 'KeyN', { ctrl: true }), true)).toBeNull();
    expect(windowCommandOf(press('n', 'KeyN', { meta: true }), false)).toBeNull();
  });

  it('ignores the same letters without the modifier, with Alt, with both modifiers, or with the wrong Shift', () => {
    expect(windowCommandOf(press('n', 'KeyN'), false)).toBeNull();
    expect(windowCommandOf(press('n', 'KeyN', { ctrl: true, alt: true }), false)).toBeNull();
    expect(windowCommandOf(press('n', 'KeyN', { ctrl: true, meta: true }), false)).toBeNull();
    expect(windowCommandOf(press('N', 'KeyN', { ctrl: true, shift: true }), false)).toBeNull();
    expect(windowCommandOf(press('s', 'KeyS', { ctrl: true }), false)).toBeNull();
    expect(windowCommandOf(press('z', 'KeyZ', { ctrl: true }), false)).toBeNull();
  });

  it('reads the printed letter on Latin layouts and the key position on others', () => {
    // Dvorak: the key printed B sits where QWERTY has N.
    expect(windowCommandOf(press('b', 'KeyN', { ctrl: true }), false)).toBeNull();
    // Russian: the key at N types т.
    expect(windowCommandOf(press('т', 'KeyN', { ctrl: true }), false)).toBe('new-conversation');
    // German: '/' is Shift+7.
    expect(windowCommandOf(press('/', 'Digit7', { ctrl: true, shift: true }), false)).toBe('show-shortcuts');
  });
});

describe('shortcut labels', () => {
  it('names the modifiers the platform prints on its keys', () => {
    expect(windowShortcutLabel('toggle-sidebar', false)).toBe('Ctrl+Shift+S');
    expect(windowShortcutLabel('toggle-sidebar', true)).toBe('⌘⇧S');
    expect(windowAriaShortcut('toggle-sidebar', false)).toBe('Control+Shift+S');
    expect(windowAriaShortcut('new-conversation', true)).toBe('Meta+N');
  });

  it('lists every shortcut of the window for the sheet', () => {
    expect(shortcutSections(false)).toEqual([
      {
        title: 'Window',
        rows: [
          { keys: [['Ctrl', 'N']], description: 'New conversation' },
          { keys: [['Ctrl', 'K']], description: 'Search conversations and messages' },
          { keys: [['Ctrl', 'Shift', 'S']], description: 'Show or hide the sidebar' },
          { keys: [['Ctrl', '/']], description: 'Show these keyboard shortcuts' },
        ],
      },
      {
        title: 'Brains',
        rows: [
          { keys: [['Ctrl', '1'], ['Ctrl', '7']], description: 'Pick a brain: Claude, Codex, Kimi, Grok, GLM, Gemini, Ollama' },
          { keys: [['Ctrl', 'Shift', 'B']], description: 'Next brain' },
        ],
      },
      {
        title: 'Composer',
        rows: [
          { keys: [['Enter']], description: 'Send' },
          { keys: [['Shift', 'Enter']], description: 'New line' },
          { keys: [['↑']], description: 'Edit your last message (in an empty composer)' },
          { keys: [['Esc']], description: 'Stop a running reply' },
        ],
      },
      {
        title: 'Anywhere',
        rows: [
          { keys: [['Esc']], description: 'Close a dialog or the sidebar overlay' },
          { keys: [['Ctrl', 'Z']], description: 'Undo deleting a conversation (outside a text field)' },
        ],
      },
    ]);
    expect(shortcutSections(true)[0]?.rows[2]?.keys).toEqual([['⌘', '⇧', 'S']]);
  });
});
