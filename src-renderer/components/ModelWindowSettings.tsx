import { useState, type FormEvent } from 'react';
import type { ContextSettingsView, ModelWindowView } from '../../src-shared/api';
import { isBrainId, type BrainId } from '../../src-shared/brains';
import { setModelWindow } from '../state/settings-actions';
import type { BrainOption } from './brain-options';
import { editorKeys, ErrorRow, ModelIdCell, SaveCancel } from './model-table-parts';
import { parseModelWindow } from './context-form';
import { windowSourceWords } from '../../src-shared/context-windows';
import { FieldError } from './FieldError';
import { useBusyChange } from './useBusyChange';
import { formatCount } from '../../src-shared/format-count';

/** The window the table (or server) gives when the override's own field is left empty. */
function baseWindow(row: ModelWindowView): number | null {
  return row.override?.contextWindow == null ? row.contextWindow : null;
}

function ModelCell({ row }: { readonly row: ModelWindowView }) {
  return <ModelIdCell brain={row.brain} model={row.model} testId="model-window-model" />;
}

function ModelWindowEditor({ row, onDone }: { readonly row: ModelWindowView; readonly onDone: () => void }) {
  const [windowText, setWindowText] = useState(row.override?.contextWindow == null ? '' : String(row.override.contextWindow));
  const [outputText, setOutputText] = useState(row.override?.outputLimit == null ? '' : String(row.override.outputLimit));
  const change = useBusyChange();

  const save = async (): Promise<void> => {
    const parsed = parseModelWindow(windowText, outputText, baseWindow(row));
    if (!parsed.ok) {
      change.setError(parsed.problem);
      return;
    }
    const saved = await change.run(() => setModelWindow(row.brain, row.model, parsed.value.contextWindow, parsed.value.outputLimit));
    if (saved) onDone();
  };

  const onKeyDown = editorKeys(save, onDone);

  return (
    <>
      <tr data-testid="model-window-row" data-model={row.model} data-editing="true">
        <ModelCell row={row} />
        <td>
          <input
            type="text"
            inputMode="numeric"
            className="token-input"
            data-testid="window-input"
            aria-label={`Window of ${row.model}, in tokens (empty: the table's)`}
            placeholder={row.override?.contextWindow == null ? formatCount(row.contextWindow) : ''}
            value={windowText}
            onChange={(event) => setWindowText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </td>
        <td>
          <input
            type="text"
            inputMode="numeric"
            className="token-input"
            data-testid="output-input"
            aria-label={`Output limit of ${row.model}, in tokens (empty: the table's)`}
            placeholder={row.override?.outputLimit == null ? formatCount(row.outputLimit) : ''}
            value={outputText}
            onChange={(event) => setOutputText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </td>
        <td colSpan={2} className="model-window-actions">
          <SaveCancel busy={change.busy} save={save} cancel={onDone} saveTestId="save-model-window" />
        </td>
      </tr>
      <ErrorRow error={change.error} columns={5} testId="model-window-error" />
    </>
  );
}

function ModelWindowRow({ row }: { readonly row: ModelWindowView }) {
  const [editing, setEditing] = useState(false);
  const reset = useBusyChange();
  if (editing) return <ModelWindowEditor row={row} onDone={() => setEditing(false)} />;
  return (
    <>
      <tr data-testid="model-window-row" data-model={row.model}>
        <ModelCell row={row} />
        <td data-testid="model-window-size">{formatCount(row.contextWindow)}</td>
        <td data-testid="model-window-output">{formatCount(row.outputLimit)}</td>
        <td data-testid="model-window-source" className={`window-source source-${row.source}`} title={row.note ?? undefined}>
          {windowSourceWords(row)}
          {row.note === null ? null : <span className="visually-hidden">: {row.note}</span>}
        </td>
        <td className="model-window-actions">
          <button
            type="button"
            className="button small ghost"
            data-testid="edit-model-window"
            aria-label={`Edit the window of ${row.model}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
          {row.override === null ? null : (
            <button
              type="button"
              className="button small ghost"
              data-testid="reset-model-window"
              aria-label={`Reset ${row.model} to the table's window`}
              disabled={reset.busy}
              onClick={() => void reset.run(() => setModelWindow(row.brain, row.model, null, null))}
            >
              Reset
            </button>
          )}
        </td>
      </tr>
      <ErrorRow error={reset.error} columns={5} testId="model-window-error" />
    </>
  );
}

interface AddOverrideProps {
  readonly context: ContextSettingsView;
  readonly options: readonly BrainOption[];
}

/** An override for a model the table does not list (one the brain serves under another name, or a newer one). */
function AddModelWindowForm({ context, options }: AddOverrideProps) {
  const [brain, setBrain] = useState<BrainId>(options[0]?.id ?? 'claude');
  const [model, setModel] = useState('');
  const [windowText, setWindowText] = useState('');
  const [outputText, setOutputText] = useState('');
  const change = useBusyChange();

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const modelId = model.trim();
    if (modelId === '') {
      change.setError('Give the model id, as the brain names it.');
      return;
    }
    if (windowText.trim() === '' && outputText.trim() === '') {
      change.setError('Give a window, an output limit, or both.');
      return;
    }
    const listed = context.modelWindows.find((row) => row.brain === brain && row.model === modelId);
    const parsed = parseModelWindow(windowText, outputText, listed === undefined ? null : baseWindow(listed));
    if (!parsed.ok) {
      change.setError(parsed.problem);
      return;
    }
    const saved = await change.run(() => setModelWindow(brain, modelId, parsed.value.contextWindow, parsed.value.outputLimit));
    if (saved) {
      setModel('');
      setWindowText('');
      setOutputText('');
    }
  };

  return (
    <form className="add-model-window" data-testid="add-model-window" onSubmit={(event) => void onSubmit(event)}>
      <h4>Another model</h4>
      <div className="field-row">
        <select
          aria-label="Brain"
          data-testid="add-window-brain"
          value={brain}
          onChange={(event) => {
            if (isBrainId(event.target.value)) setBrain(event.target.value);
          }}
        >
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <input
          type="text"
          aria-label="Model id"
          data-testid="add-window-model"
          placeholder="Model id"
          spellCheck={false}
          maxLength={200}
          value={model}
          onChange={(event) => setModel(event.target.value)}
        />
        <input
          type="text"
          inputMode="numeric"
          className="token-input"
          aria-label="Window, in tokens"
          data-testid="add-window-size"
          placeholder="Window"
          value={windowText}
          onChange={(event) => setWindowText(event.target.value)}
        />
        <input
          type="text"
          inputMode="numeric"
          className="token-input"
          aria-label="Output limit, in tokens"
          data-testid="add-window-output"
          placeholder="Output limit"
          value={outputText}
          onChange={(event) => setOutputText(event.target.value)}
        />
        <button type="submit" className="button small" data-testid="add-window-save" disabled={change.busy}>
          Add
        </button>
      </div>
      <FieldError error={change.error} testId="add-window-error" />
    </form>
  );
}

export function ModelWindowSettings({ context, options }: AddOverrideProps) {
  return (
    <section className="settings-section" aria-labelledby="model-windows-title">
      <h3 id="model-windows-title">Model windows</h3>
      <p className="field-hint">
        How many tokens one request to each model may hold, and how many of them a reply may take. A guess is marked;
        set the model&apos;s real window if you know it.
      </p>
      <div className="tool-table-frame">
        <table className="tool-table model-window-table" data-testid="model-window-table">
          <colgroup>
            <col />
            <col className="window-number-column" />
            <col className="window-number-column" />
            <col className="window-source-column" />
            <col className="window-actions-column" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Window</th>
              <th scope="col">Output limit</th>
              <th scope="col">Source</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {context.modelWindows.map((row) => (
              <ModelWindowRow key={`${row.brain}/${row.model}`} row={row} />
            ))}
          </tbody>
        </table>
      </div>
      <AddModelWindowForm context={context} options={options} />
    </section>
  );
}
