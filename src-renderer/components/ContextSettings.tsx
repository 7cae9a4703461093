import { useState, type FormEvent } from 'react';
import type { ContextSettingsView } from '../../src-shared/api';
import { isBrainId, type BrainId } from '../../src-shared/brains';
import type { ContextLines } from '../../src-shared/context-windows';
import { setCompactionBrain, setContextLines } from '../state/settings-actions';
import { useAppStore } from '../state/store';
import { brainOptions, type BrainOption } from './brain-options';
import { parseContextLines } from './context-form';
import { FieldError } from './FieldError';
import { ModelWindowSettings } from './ModelWindowSettings';
import { useBusyChange } from './useBusyChange';

function CompactionBrainField({ context, options }: { readonly context: ContextSettingsView; readonly options: readonly BrainOption[] }) {
  const change = useBusyChange();
  const onChange = (value: string): void => {
    const brain = isBrainId(value) ? value : null;
    void change.run(() => setCompactionBrain(brain));
  };
  return (
    <div className="settings-field">
      <label htmlFor="compaction-brain">Brain that writes summaries</label>
      <select
        id="compaction-brain"
        data-testid="compaction-brain-select"
        value={context.compactionBrain ?? ''}
        disabled={change.busy}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">The brain the turn goes to</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <p className="field-hint">
        When a conversation nears a brain&apos;s window, its oldest messages are summarised into one summary. The
        messages stay in the conversation, collapsed under it.
      </p>
      <FieldError error={change.error} testId="compaction-brain-error" />
    </div>
  );
}

interface LinesRowProps {
  readonly brain: BrainId;
  readonly label: string;
  readonly lines: ContextLines;
}

function ContextLinesRow({ brain, label, lines }: LinesRowProps) {
  const [warning, setWarning] = useState(String(lines.warningPercent));
  const [emergency, setEmergency] = useState(String(lines.emergencyPercent));
  const change = useBusyChange();
  const unchanged = warning.trim() === String(lines.warningPercent) && emergency.trim() === String(lines.emergencyPercent);

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    const parsed = parseContextLines(warning, emergency);
    if (!parsed.ok) {
      change.setError(parsed.problem);
      return;
    }
    void change.run(() => setContextLines(brain, parsed.value.warningPercent, parsed.value.emergencyPercent));
  };

  return (
    <form className="context-lines-row" data-testid="context-lines" data-brain={brain} onSubmit={onSubmit}>
      <span className="context-lines-brain">{label}</span>
      <PercentField line="Warning" label={label} testId="warning-percent" value={warning} onChange={setWarning} />
      <PercentField line="Emergency" label={label} testId="emergency-percent" value={emergency} onChange={setEmergency} />
      <button type="submit" className="button small" data-testid="save-context-lines" disabled={change.busy || unchanged}>
        Save
      </button>
      <FieldError error={change.error} testId="context-lines-error" />
    </form>
  );
}

/** Settings → Context windows: who summarises, where each brain's warning and emergency lines sit, and each model's window. */
export function ContextSettings() {
  const settings = useAppStore((state) => state.settings);
  if (settings === null) return <p className="muted">Loading settings…</p>;
  const options = brainOptions(settings);
  const { context } = settings;
  return (
    <div className="context-settings" data-testid="context-settings">
      <section className="settings-section">
        <h3>Compaction</h3>
        <CompactionBrainField context={context} options={options} />
      </section>
      <section className="settings-section" aria-labelledby="context-lines-title">
        <h3 id="context-lines-title">Warning and emergency lines</h3>
        <p className="field-hint">
          Shares of each brain&apos;s window. At the warning line the meter turns amber; at the emergency line the next
          turn compacts the conversation first.
        </p>
        {options.map((option) => {
          const lines = context.lines[option.id];
          return (
            <ContextLinesRow
              key={`${option.id}:${lines.warningPercent}:${lines.emergencyPercent}`}
              brain={option.id}
              label={option.label}
              lines={lines}
            />
          );
        })}
      </section>
      <ModelWindowSettings context={context} options={options} />
    </div>
  );
}

/** One line's percentage: "Warning [50] %". */
function PercentField({
  line,
  label,
  testId,
  value,
  onChange,
}: {
  line: 'Warning' | 'Emergency';
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="context-lines-field">
      {line}
      <input
        aria-label={`${label} ${line.toLowerCase()} line, percent`}
        type="text"
        inputMode="numeric"
        className="percent-input"
        data-testid={testId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      %
    </label>
  );
}
