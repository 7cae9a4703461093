import type { SettingsView, Theme } from '../../src-shared/api';

export const SETTINGS_TABS = ['general', 'context', 'tools'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export interface SettingsSlice {
  readonly settings: SettingsView | null;
  /** The chosen theme, changed at once on a pick and confirmed by the next settings answer. */
  readonly themePreference: Theme;
  readonly systemPrefersDark: boolean;
  readonly settingsOpen: boolean;
  readonly settingsTab: SettingsTab;
}

export const initialSettingsSlice: SettingsSlice = {
  settings: null,
  themePreference: 'system',
  systemPrefersDark: false,
  settingsOpen: false,
  settingsTab: 'general',
};

export function applySettings(settings: SettingsView): Partial<SettingsSlice> {
  return { settings, themePreference: settings.theme };
}

export function effectiveTheme(state: Pick<SettingsSlice, 'themePreference' | 'systemPrefersDark'>): 'light' | 'dark' {
  if (state.themePreference === 'system') return state.systemPrefersDark ? 'dark' : 'light';
  return state.themePreference;
}
