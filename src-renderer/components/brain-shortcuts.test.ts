import { describe, expect, it } from 'vitest';
import {
  brainAriaShortcut,
  brainShortcutLabel,
  brainShortcutOf,
  isApplePlatform,
  nextBrainShortcutLabel,
} from './brain-shortcuts';

const keys = (overrides: Partial<Parameters<typeof brainShortcutOf>[0]>) => ({
  key: '',
  code: '',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...overrides,
});

describe('brainShortcutOf', () => {
  it('maps Ctrl+1…Ctrl+7 to the brains in table order', () => {
    expect(brainShortcutOf(keys({ key: '1', code: 'Digit1', ctrlKey: true }), false)).toEqual({ kind: 'select', brain: 'claude' });
    expect(brainShortcutOf(keys({ key: '3', code: 'Digit3', ctrlKey: true }), false)).toEqual({ kind: 'select', brain: 'kimi' });
    expect(brainShortcutOf(keys({ key: '7', code: 'Numpad7', ctrlKey: true }), false)).toEqual({ kind: 'select', brain: 'ollama' });
    expect(brainShortcutOf(keys({ key: '8', code: 'Digit8', ctrlKey: true }), false)).toBeNull();
  });

  it('reads digits by key position, so layouts that shift digits work', () => {
    expect(brainShortcutOf(keys({ key: '&', code: 'Digit1', ctrlKey: true }), false)).toEqual({ kind: 'select', brain: 'claude' });
  });

  it('maps Ctrl+Shift+B to the next brain', () => {
    expect(brainShortcutOf(keys({ key: 'B', code: 'KeyB', ctrlKey: true, shiftKey: true }), false)).toEqual({ kind: 'next' });
    expect(brainShortcutOf(keys({ key: 'b', code: 'KeyB', ctrlKey: true }), false)).toBeNull();
  });

  it('uses Cmd instead of Ctrl on Apple systems', () => {
    expect(brainShortcutOf(keys({ key: '2', code: 'Digit2', metaKey: true }), true)).toEqual({ kind: 'select', brain: 'codex' });
    expect(brainShortcutOf(keys({ key: '2', code: 'Digit2', ctrlKey: true }), true)).toBeNull();
    expect(brainShortcutOf(keys({ key: '2', code: 'Digit2', metaKey: true }), false)).toBeNull();
  });

  it('ignores plain digits and other modifier combinations', () => {
    expect(brainShortcutOf(keys({ key: '1', code: 'Digit1' }), false)).toBeNull();
    expect(brainShortcutOf(keys({ key: '1', code: 'Digit1', ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(brainShortcutOf(keys({ key: '1', code: 'Digit1', ctrlKey: true, metaKey: true }), false)).toBeNull();
  });
});

describe('shortcut labels', () => {
  it('names the keys as each system writes them', () => {
    expect(brainShortcutLabel('kimi', false)).toBe('Ctrl+3');
    expect(brainShortcutLabel('kimi', true)).toBe('⌘3');
    expect(nextBrainShortcutLabel(false)).toBe('Ctrl+Shift+B');
    expect(brainAriaShortcut('ollama', false)).toBe('Control+7');
    expect(brainAriaShortcut('ollama', true)).toBe('Meta+7');
  });

  it('recognises Apple systems from the platform', () => {
    expect(isApplePlatform({ platform: 'MacIntel' })).toBe(true);
    expect(isApplePlatform({ userAgentData: { platform: 'macOS' } })).toBe(true);
    expect(isApplePlatform({ platform: 'Linux x86_64' })).toBe(false);
    expect(isApplePlatform({})).toBe(false);
  });
});
