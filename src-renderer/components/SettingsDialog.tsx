import { useRef, useState, type KeyboardEvent } from 'react';
import { THEMES, type BrainSettingsView, type Theme } from '../../src-shared/api';
import { isBrainId } from '../../src-shared/brains';
import { closeSettings, setDefaultBrain, setTheme, showSettingsTab } from '../state/settings-actions';
import { errorText } from '../state/api-client';
import { SETTINGS_TABS, type SettingsTab } from '../state/settings-slice';
import { useAppStore } from '../state/store';
import { brainOptions } from './brain-options';
import { isConfigured } from './brain-state';
import { BrainSettings } from './BrainSettings';
import { ContextSettings } from './ContextSettings';
import { Dialog } from './Dialog';
import { ToolsSettings } from './ToolsSettings';
import { UsageSettings } from './UsageSettings';

const THEME_LABELS: Record<Theme, string> = { system: 'Match the system', light: 'Light', dark: 'Dark' };

function isTheme(value: string): value is Theme {
  return (THEMES as readonly string[]).includes(value);
}

function DefaultBrainField() {
  const settings = useAppStore((state) => state.settings);
  const [error, setError] = useState<string | null>(null);
  if (settings === null) return null;
  const onChange = async (value: string): Promise<void> => {
    if (!isBrainId(value)) return;
    setError(null);
    try {
      await setDefaultBrain(value);
    } catch (caught) {
      setError(errorText(caught));
    }
  };
  return (
    <div className="settings-field">
      <label htmlFor="default-brain">Default brain for new conversations</label>
      <select
        id="default-brain"
        data-testid="default-brain-select"
        value={settings.defaultBrain}
        onChange={(event) => void onChange(event.target.value)}
      >
        {brainOptions(settings).map((option) => (
          <option key={option.id} value={option.id}>
            {option.available ? option.label : `${option.label} (not yet available)`}
          </option>
        ))}
      </select>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const TAB_LABELS: Record<SettingsTab, string> = { general: 'General', context: 'Context windows', tools: 'Tools', usage: 'Usage' };

function tabId(tab: SettingsTab): string {
  return `settings-tab-${tab}`;
}

function panelId(tab: SettingsTab): string {
  return `settings-panel-${tab}`;
}

/** The tab a key moves to from `current`, wrapping around; null for keys that do not move. */
function tabForKey(key: string, current: SettingsTab): SettingsTab | null {
  const index = SETTINGS_TABS.indexOf(current);
  const count = SETTINGS_TABS.length;
  const targets: Partial<Record<string, number>> = {
    ArrowRight: (index + 1) % count,
    ArrowLeft: (index + count - 1) % count,
    Home: 0,
    End: count - 1,
  };
  const target = targets[key];
  return target === undefined ? null : (SETTINGS_TABS[target] ?? null);
}

/** The tab list: arrow keys, Home and End move between tabs, as the ARIA tabs pattern expects. */
function SettingsTabs({ current }: { readonly current: SettingsTab }) {
  const tabRefs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({});

  const select = (tab: SettingsTab): void => {
    showSettingsTab(tab);
    tabRefs.current[tab]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const tab = tabForKey(event.key, current);
    if (tab === null) return;
    event.preventDefault();
    select(tab);
  };

  return (
    <div className="settings-tabs" role="tablist" aria-label="Settings sections" onKeyDown={onKeyDown}>
      {SETTINGS_TABS.map((tab) => (
        <button
          key={tab}
          ref={(element) => {
            tabRefs.current[tab] = element;
          }}
          type="button"
          role="tab"
          id={tabId(tab)}
          className="settings-tab"
          data-testid={tabId(tab)}
          aria-selected={tab === current}
          aria-controls={panelId(tab)}
          tabIndex={tab === current ? 0 : -1}
          onClick={() => select(tab)}
        >
          {TAB_LABELS[tab]}
        </button>
      ))}
    </div>
  );
}

function GeneralSettings() {
  const settings = useAppStore((state) => state.settings);
  const themePreference = useAppStore((state) => state.themePreference);

  return (
    <>
      <section className="settings-section">
        <h3>General</h3>
        <div className="settings-field">
          <label htmlFor="theme-select">Theme</label>
          <select
            id="theme-select"
            data-testid="theme-select"
            value={themePreference}
            onChange={(event) => {
              if (isTheme(event.target.value)) void setTheme(event.target.value);
            }}
          >
            {THEMES.map((theme) => (
              <option key={theme} value={theme}>
                {THEME_LABELS[theme]}
              </option>
            ))}
          </select>
        </div>
        <DefaultBrainField />
        {settings === null ? null : (
          <div className="settings-field">
            <span className="field-label">Data folder</span>
            <code className="data-dir" data-testid="data-dir">
              {settings.dataDir}
            </code>
          </div>
        )}
      </section>
      <section className="settings-section">
        <h3>Brains</h3>
        {settings === null ? (
          <p className="muted">Loading settings…</p>
        ) : (
          <>
            {settings.canStoreKeys ? null : (
              <div className="settings-note" data-testid="key-storage-refusal">
                <p>Keys cannot be stored here: {settings.keyStorage.refusal ?? 'this window keeps no keys'}. Each brain&apos;s variable is named below.</p>
                {settings.keyStorage.refusalDetail ? <p className="field-hint">The keychain said: {settings.keyStorage.refusalDetail}</p> : null}
              </div>
            )}
            <BrainCards brains={settings.brains} canStoreKeys={settings.canStoreKeys} keyPlace={settings.keyStorage.place} />
          </>
        )}
      </section>
    </>
  );
}

/** Configured brains first; the rest collapsed under "Not set up (n)", opened when Settings was asked to show one of them. */
function BrainCards({
  brains,
  canStoreKeys,
  keyPlace,
}: {
  readonly brains: readonly BrainSettingsView[];
  readonly canStoreKeys: boolean;
  readonly keyPlace: string | null;
}) {
  const askedFor = useAppStore((state) => state.settingsBrain);
  // Grouped as Settings opened: a card set up now stays where it is (with its feedback) until Settings opens again.
  const [configuredAtOpen] = useState(() => new Set(brains.filter(isConfigured).map((brain) => brain.brain)));
  const configured = brains.filter((brain) => configuredAtOpen.has(brain.brain));
  const notSetUp = brains.filter((brain) => !configuredAtOpen.has(brain.brain));
  const askedForOneNotSetUp = notSetUp.some((brain) => brain.brain === askedFor);
  const [open, setOpen] = useState(configured.length === 0 || askedForOneNotSetUp);
  // Stays open after the focus request is carried out (React's adjust-state-while-rendering pattern).
  if (askedForOneNotSetUp && !open) setOpen(true);
  const showRest = open || askedForOneNotSetUp;
  return (
    <>
      {configured.map((brain) => (
        <BrainSettings key={brain.brain} brain={brain} canStoreKeys={canStoreKeys} keyPlace={keyPlace} />
      ))}
      {notSetUp.length === 0 ? null : (
        <details className="brains-not-set-up" data-testid="brains-not-set-up" open={showRest} onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>Not set up ({notSetUp.length})</summary>
          {notSetUp.map((brain) => (
            <BrainSettings key={brain.brain} brain={brain} canStoreKeys={canStoreKeys} keyPlace={keyPlace} />
          ))}
        </details>
      )}
    </>
  );
}

function SettingsPanel({ tab }: { readonly tab: SettingsTab }) {
  switch (tab) {
    case 'general':
      return <GeneralSettings />;
    case 'context':
      return <ContextSettings />;
    case 'tools':
      return <ToolsSettings />;
    case 'usage':
      return <UsageSettings />;
    default: {
      const _unknown: never = tab;
      return null;
    }
  }
}

export function SettingsDialog() {
  const tab = useAppStore((state) => state.settingsTab);

  return (
    <Dialog
      title="Settings"
      titleId="settings-title"
      testId="settings-dialog"
      closeTestId="close-settings"
      closeLabel="Close settings"
      onClose={closeSettings}
    >
      <SettingsTabs current={tab} />
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="settings-panel">
        <SettingsPanel tab={tab} />
      </div>
    </Dialog>
  );
}
