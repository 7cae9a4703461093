import type { SettingsView, Theme } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';

export const SETTINGS_TABS = ['general', 'context', 'tools', 'usage'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export interface SettingsSlice {
  readonly settings: SettingsView | null;
  /** The chosen theme, changed at once on a pick and confirmed by the next settings answer. */
  readonly themePreference: Theme;
  readonly systemPrefersDark: boolean;
  readonly settingsOpen: boolean;
  readonly settingsTab: SettingsTab;
  /** The brain whose card Settings opens at (from the first-run screen), until it has been shown. */
  readonly settingsBrain: BrainId | null;
  /** The models each provider listed when its brain was last tested in this window: offered in the model picker. */
  readonly listedModels: Readonly<Partial<Record<BrainId, readonly string[]>>>;
}

export const initialSettingsSlice: SettingsSlice = {
  settings: null,
  themePreference: 'system',
  systemPrefersDark: false,
  settingsOpen: false,
  settingsTab: 'general',
  settingsBrain: null,
  listedModels: {},
};

export function applySettings(settings: SettingsView): Partial<SettingsSlice> {
  return { settings, themePreference: settings.theme };
}

export function effectiveTheme(state: Pick<SettingsSlice, 'themePreference' | 'systemPrefersDark'>): 'light' | 'dark' {
  if (state.themePreference === 'system') return state.systemPrefersDark ? 'dark' : 'light';
  return state.themePreference;
}
