import type { BrainId } from '../../src-shared/brains';
import type { BrainTestResult, ModelPriceView, PriceFigures, Theme } from '../../src-shared/api';
import { api, errorText } from './api-client';
import { resync, showNotice } from './conversation-actions';
import { applySettings, type SettingsTab } from './settings-slice';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

export async function loadSettings(): Promise<void> {
  try {
    const settings = await api().getSettings({});
    setState(applySettings(settings));
  } catch (error) {
    showNotice(`Could not load settings: ${errorText(error)}`);
  }
}

export function openSettings(tab: SettingsTab = 'general'): void {
  setState({ settingsOpen: true, settingsTab: tab });
  void loadSettings();
}

/** Settings at one brain's card: the key field (or, for a brain without a key, its base URL) takes focus. */
export function openBrainSettings(brain: BrainId): void {
  setState({ settingsOpen: true, settingsTab: 'general', settingsBrain: brain });
  void loadSettings();
}

/** The focus request has been carried out. */
export function clearSettingsBrain(): void {
  setState({ settingsBrain: null });
}

/** One cheap call to the brain; the answer (or the Api's refusal) is for the caller to show. */
export async function testBrain(brain: BrainId): Promise<BrainTestResult> {
  try {
    const result = await api().testBrain({ brain });
    const models = result.models;
    if (result.ok && models !== undefined && models.length > 0) {
      setState((state) => ({ listedModels: { ...state.listedModels, [brain]: models } }));
    }
    // The answer is kept: the picker's models and the windows the provider reported come with the settings.
    if (result.ok) void loadSettings();
    return result;
  } catch (error) {
    return { ok: false, message: errorText(error) };
  }
}

export function showSettingsTab(tab: SettingsTab): void {
  setState({ settingsTab: tab });
}

export function closeSettings(): void {
  setState({ settingsOpen: false, settingsBrain: null });
}

export async function setTheme(theme: Theme): Promise<void> {
  const previous = getState().themePreference;
  setState({ themePreference: theme });
  try {
    setState(applySettings(await api().setTheme({ theme })));
  } catch (error) {
    setState({ themePreference: previous });
    showNotice(`Could not save the theme: ${errorText(error)}`);
  }
}

/** Settings commands throw the Api's error, for the dialog to show beside the field. */
export async function setDefaultBrain(brain: BrainId): Promise<void> {
  setState(applySettings(await api().setDefaultBrain({ brain })));
}

/** Returns the base URL in use afterwards. */
export async function setBaseUrl(brain: BrainId, baseUrl: string | null): Promise<string | null> {
  const settings = await api().setBaseUrl({ brain, baseUrl });
  setState(applySettings(settings));
  return settings.brains.find((entry) => entry.brain === brain)?.baseUrl ?? null;
}

export async function setKey(brain: BrainId, key: string | null): Promise<void> {
  setState(applySettings(await api().setKey({ brain, key })));
}

/** The user's answer to a key-host-unconfirmed refusal: the brain's key may go to its current base URL's host. */
export async function confirmKeyHost(brain: BrainId): Promise<void> {
  setState(applySettings(await api().confirmKeyHost({ brain })));
}

/** Which brain writes compaction summaries; null: the brain the turn goes to. */
export async function setCompactionBrain(brain: BrainId | null): Promise<void> {
  setState(applySettings(await api().setCompactionBrain({ brain })));
}

export async function setContextLines(brain: BrainId, warningPercent: number, emergencyPercent: number): Promise<void> {
  setState(applySettings(await api().setContextLines({ brain, warningPercent, emergencyPercent })));
}

/**
 * The user's price for one model, or null for the list's again. Every request of the model is priced again, so the
 * open conversation's replies are read again for their cost lines.
 */
export async function setModelPrice(brain: BrainId, model: string, price: PriceFigures | null): Promise<ModelPriceView[]> {
  const prices = await api().setModelPrice({ brain, model, price });
  void resync();
  return prices;
}

/** The user's window for one model; null fields go back to the table's values. */
export async function setModelWindow(
  brain: BrainId,
  model: string,
  contextWindow: number | null,
  outputLimit: number | null,
): Promise<void> {
  setState(applySettings(await api().setModelWindow({ brain, model, contextWindow, outputLimit })));
}
