import { useEffect } from 'react';
import { THEMES, type Theme } from '../../src-shared/api';
import { effectiveTheme } from '../state/settings-slice';
import { useAppStore } from '../state/store';

const STORAGE_KEY = 'anybrain.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function applyTheme(theme: 'light' | 'dark'): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}

/** The theme picked last time, so the first paint already has it before settings arrive. */
export function storedThemePreference(readStorage: () => Pick<Storage, 'getItem'> = () => localStorage): Theme {
  try {
    const stored = readStorage().getItem(STORAGE_KEY);
    return (THEMES as readonly string[]).includes(stored ?? '') ? (stored as Theme) : 'system';
  } catch {
    return 'system';
  }
}

function rememberThemePreference(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Storage can be unavailable; the theme then follows settings once they load.
  }
}

export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Keeps `<html data-theme>` on the effective theme, following the system while the preference is `system`. */
export function useThemeSync(): void {
  const preference = useAppStore((state) => state.themePreference);
  const theme = useAppStore(effectiveTheme);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DARK_QUERY);
    const update = (): void => useAppStore.setState({ systemPrefersDark: query.matches });
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => rememberThemePreference(preference), [preference]);
}
