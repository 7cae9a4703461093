// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { effectiveTheme } from '../state/settings-slice';
import { applyTheme, storedThemePreference } from './theme';

describe('effectiveTheme', () => {
  it('follows the system only while the preference is system', () => {
    expect(effectiveTheme({ themePreference: 'system', systemPrefersDark: true })).toBe('dark');
    expect(effectiveTheme({ themePreference: 'system', systemPrefersDark: false })).toBe('light');
    expect(effectiveTheme({ themePreference: 'light', systemPrefersDark: true })).toBe('light');
    expect(effectiveTheme({ themePreference: 'dark', systemPrefersDark: false })).toBe('dark');
  });
});

describe('applyTheme', () => {
  it('sets data-theme and the color scheme on the root element', () => {
    applyTheme('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
    applyTheme('light');
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
  });
});

describe('storedThemePreference', () => {
  it('reads a known theme and falls back to system for anything else', () => {
    expect(storedThemePreference(() => ({ getItem: () => 'dark' }))).toBe('dark');
    expect(storedThemePreference(() => ({ getItem: () => 'sepia' }))).toBe('system');
    expect(storedThemePreference(() => ({ getItem: () => null }))).toBe('system');
    expect(
      storedThemePreference(() => {
        throw new Error('denied');
      }),
    ).toBe('system');
  });
});
