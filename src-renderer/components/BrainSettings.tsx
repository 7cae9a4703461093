import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { BrainSettingsView } from '../../src-shared/api';
import { hostOf } from '../../src-shared/base-url';
import { BRAINS } from '../../src-shared/brains';
import { spokenAge } from '../../src-shared/models/reported';
import { clearSettingsBrain, confirmKeyHost, setBaseUrl, setKey } from '../state/settings-actions';
import { useAppStore } from '../state/store';
import { brainStateText } from './brain-state';
import { BrainTest } from './BrainTest';
import { errorText } from '../state/api-client';

type Feedback = { readonly kind: 'error' | 'done'; readonly text: string } | null;

function keyStatusText(brain: BrainSettingsView, keyPlace: string | null): string {
  const variable = BRAINS[brain.brain].keyVariable;
  switch (brain.keySource) {
    case 'stored':
      return `A key is saved in ${keyPlace ?? 'this computer'}.`;
    case 'environment':
      return variable === null ? 'A key comes from the environment.' : `The key comes from ${variable}.`;
    case 'none':
      return 'No key yet.';
    case 'not-needed':
      return 'No key needed.';
    default: {
      const _unknown: never = brain.keySource;
      return '';
    }
  }
}

function baseUrlSourceText(brain: BrainSettingsView): string {
  if (brain.baseUrlOverride !== null) return 'Saved in settings.';
  if (brain.baseUrl === BRAINS[brain.brain].defaultBaseUrl) return 'The default.';
  return `From ${BRAINS[brain.brain].baseUrlVariable}.`;
}

function FeedbackLine({ feedback }: { readonly feedback: Feedback }) {
  if (feedback === null) return null;
  return (
    <p className={feedback.kind === 'error' ? 'field-error' : 'field-done'} role={feedback.kind === 'error' ? 'alert' : 'status'}>
      {feedback.text}
    </p>
  );
}

function BaseUrlField({ brain }: { readonly brain: BrainSettingsView }) {
  const [value, setValue] = useState(brain.baseUrl);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const inputId = `base-url-${brain.brain}`;

  const run = async (baseUrl: string | null, done: string): Promise<void> => {
    setBusy(true);
    setFeedback(null);
    try {
      const inUse = await setBaseUrl(brain.brain, baseUrl);
      if (inUse !== null) setValue(inUse);
      setFeedback({ kind: 'done', text: done });
    } catch (error) {
      setFeedback({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void run(value.trim(), 'Base URL saved.');
  };

  return (
    <form className="settings-field" onSubmit={onSubmit}>
      <label htmlFor={inputId}>Base URL</label>
      <div className="field-row">
        <input
          id={inputId}
          type="url"
          data-testid="base-url-input"
          value={value}
          spellCheck={false}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="button small" data-testid="save-base-url" disabled={busy || value.trim() === brain.baseUrl}>
          Save
        </button>
        <button
          type="button"
          className="button small ghost"
          data-testid="reset-base-url"
          disabled={busy || brain.baseUrlOverride === null}
          onClick={() => void run(null, 'Base URL reset.')}
        >
          Reset to default
        </button>
      </div>
      <p className="field-hint">{baseUrlSourceText(brain)}</p>
      <FeedbackLine feedback={feedback} />
    </form>
  );
}

function KeyField({ brain, canStoreKeys, keyPlace }: BrainSettingsProps) {
  const [value, setValue] = useState('');
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const variable = BRAINS[brain.brain].keyVariable;
  const inputId = `key-${brain.brain}`;

  if (brain.keySource === 'not-needed' || variable === null) {
    return (
      <div className="settings-field">
        <span className="field-label">API key</span>
        <p className="field-hint" data-testid="key-status">
          No key needed.
        </p>
      </div>
    );
  }

  const run = async (key: string | null, done: string): Promise<void> => {
    setBusy(true);
    setFeedback(null);
    try {
      await setKey(brain.brain, key);
      setValue('');
      setFeedback({ kind: 'done', text: done });
    } catch (error) {
      setFeedback({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (value.trim() !== '') void run(value.trim(), 'Key saved.');
  };

  return (
    <form className="settings-field" onSubmit={onSubmit}>
      <label htmlFor={inputId}>API key</label>
      <p className="field-hint" data-testid="key-status">
        {keyStatusText(brain, keyPlace)}
      </p>
      {canStoreKeys ? (
        <div className="field-row">
          <input
            id={inputId}
            type="password"
            data-testid="key-input"
            autoComplete="off"
            spellCheck={false}
            placeholder={brain.keySource === 'stored' ? 'Enter a new key to replace it' : 'Paste the key'}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
          <button type="submit" className="button small" data-testid="save-key" disabled={busy || value.trim() === ''}>
            Save
          </button>
          {brain.keySource === 'stored' ? (
            <button type="button" className="button small ghost danger" disabled={busy} onClick={() => void run(null, 'Key removed.')}>
              Remove
            </button>
          ) : null}
        </div>
      ) : brain.keySource === 'environment' ? null : (
        <p className="field-hint" data-testid="key-environment-note">
          Keys cannot be stored here. Set the environment variable <code>{variable}</code> before starting Anybrain.
        </p>
      )}
      <FeedbackLine feedback={feedback} />
    </form>
  );
}

/**
 * Why the next turn on this brain would be refused. A key that would go to a host it was not confirmed for gets a
 * button to confirm it: the one place, besides storing a key, where the user says where a key may go.
 */
function ConnectionProblemNotice({ brain }: { readonly brain: BrainSettingsView }) {
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const problem = brain.connectionProblem;
  if (problem === null) return feedback === null ? null : <FeedbackLine feedback={feedback} />;

  const confirm = async (): Promise<void> => {
    setBusy(true);
    setFeedback(null);
    try {
      await confirmKeyHost(brain.brain);
      setFeedback({ kind: 'done', text: `The ${brain.label} key may now be sent to ${hostOf(brain.baseUrl)}.` });
    } catch (error) {
      setFeedback({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="connection-problem" data-testid="connection-problem" data-code={problem.code}>
      <p role="alert">{problem.message}</p>
      {problem.code === 'key-host-unconfirmed' ? (
        <button type="button" className="button small" data-testid="confirm-key-host" disabled={busy} onClick={() => void confirm()}>
          Send the key to {hostOf(brain.baseUrl)}
        </button>
      ) : null}
      <FeedbackLine feedback={feedback} />
    </div>
  );
}

/** Opened from the first-run screen at this brain: bring the card into view and focus its first field. */
function useFocusWhenAsked(brain: BrainSettingsView['brain']) {
  const asked = useAppStore((state) => state.settingsBrain === brain);
  const ref = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!asked) return;
    // The dialog focuses its own first control when it opens, after this effect: move focus on the next frame.
    const frame = requestAnimationFrame(() => {
      ref.current?.scrollIntoView({ block: 'nearest' });
      ref.current?.querySelector<HTMLInputElement>('input[data-testid="key-input"], input[data-testid="base-url-input"]')?.focus();
      clearSettingsBrain();
    });
    return () => cancelAnimationFrame(frame);
  }, [asked]);
  return ref;
}

interface BrainSettingsProps {
  readonly brain: BrainSettingsView;
  readonly canStoreKeys: boolean;
  /** Where a stored key lives ("the system keychain"). */
  readonly keyPlace: string | null;
}

/** Whose list the model picker offers, once the provider has answered a Test. */
function ListedModelsNote({ brain }: { readonly brain: BrainSettingsView }) {
  if (brain.modelsListedAt === null) return null;
  const count = brain.models.length;
  return (
    <p className="brain-models-source" data-testid="brain-models-source">
      The model picker offers the {count} {count === 1 ? 'model' : 'models'} {BRAINS[brain.brain].provider} listed {spokenAge(brain.modelsListedAt, new Date())}.
    </p>
  );
}

export function BrainSettings({ brain, canStoreKeys, keyPlace }: BrainSettingsProps) {
  const ref = useFocusWhenAsked(brain.brain);
  return (
    <section ref={ref} className="brain-settings" data-testid="brain-settings" data-brain={brain.brain}>
      <div className="brain-settings-head">
        <h4>
          {brain.label}
          {brain.available ? null : <span className="badge">not yet available</span>}
        </h4>
        <span className="brain-settings-state" data-testid="brain-state">
          {brainStateText(brain)}
        </span>
        <BrainTest brain={brain.brain} label={brain.label} />
      </div>
      <ListedModelsNote brain={brain} />
      <BaseUrlField brain={brain} />
      <KeyField brain={brain} canStoreKeys={canStoreKeys} keyPlace={keyPlace} />
      <ConnectionProblemNotice brain={brain} />
    </section>
  );
}
