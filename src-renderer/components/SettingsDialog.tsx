import { useState } from 'react';
import { THEMES, type Theme } from '../../src-shared/api';
import { isBrainId } from '../../src-shared/brains';
import { closeSettings, setDefaultBrain, setTheme } from '../state/actions';
import { errorText } from '../state/api-client';
import { useAppStore } from '../state/store';
import { brainOptions } from './brain-options';
import { BrainSettings } from './BrainSettings';
import { Dialog } from './Dialog';

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

export function SettingsDialog() {
  const settings = useAppStore((state) => state.settings);
  const themePreference = useAppStore((state) => state.themePreference);

  return (
    <Dialog
      title="Settings"
      titleId="settings-title"
      testId="settings-dialog"
      closeTestId="close-settings"
      closeLabel="Close settings"
      onClose={closeSettings}
    >
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
              <p className="settings-note">
                Keys cannot be stored in this window: each brain reads its key from an environment variable, named
                below.
              </p>
            )}
            {settings.brains.map((brain) => (
              <BrainSettings key={brain.brain} brain={brain} canStoreKeys={settings.canStoreKeys} />
            ))}
          </>
        )}
      </section>
    </Dialog>
  );
}
