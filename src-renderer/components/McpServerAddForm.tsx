import { useState, type FormEvent } from 'react';
import { addMcpServer } from '../state/tool-actions';
import { FieldError } from './FieldError';
import { PlusIcon } from './icons';
import { parseArgumentLines, parseEnvironmentLines } from './mcp-form';
import { EMPTY_FIELDS, McpServerFields, type McpServerFieldValues } from './McpServerFields';
import { useBusyChange } from './useBusyChange';

/** Closed, open, or closed again by Cancel (which hands focus back to the button that opened it). */
type AddFormState = 'closed' | 'open' | 'cancelled';

/** The add form stays folded behind one button, so the Tools tab opens on what is set up rather than on a form. */
export function McpServerAddForm() {
  const [state, setState] = useState<AddFormState>('closed');
  const [fields, setFields] = useState<McpServerFieldValues>(EMPTY_FIELDS);
  const { busy, error, setError, run } = useBusyChange();
  const [added, setAdded] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setAdded(null);
    const environment = parseEnvironmentLines(fields.environmentLines);
    if (!environment.ok) {
      setError(environment.problem);
      return;
    }
    const label = fields.label.trim();
    const command = fields.command.trim();
    const args = parseArgumentLines(fields.argumentLines);
    const saved = await run(() => addMcpServer({ label, command, args, env: environment.value }));
    if (!saved) return;
    setAdded(label);
    setFields(EMPTY_FIELDS);
  };

  const onCancel = (): void => {
    setFields(EMPTY_FIELDS);
    setError(null);
    setAdded(null);
    setState('cancelled');
  };

  if (state !== 'open') {
    return (
      <button
        type="button"
        className="button small"
        data-testid="mcp-open-add"
        autoFocus={state === 'cancelled'}
        onClick={() => setState('open')}
      >
        <PlusIcon />
        Add a server…
      </button>
    );
  }

  return (
    <form className="mcp-form" aria-labelledby="mcp-form-title" onSubmit={(event) => void onSubmit(event)}>
      <h4 id="mcp-form-title">Add a server</h4>
      <McpServerFields
        idPrefix="mcp"
        testIdPrefix="mcp"
        values={fields}
        onChange={setFields}
        autoFocus
        environmentRows={2}
        environmentLabel="Environment variables"
        environmentHint={
          <>
            One <code>KEY=value</code> per line; the value may contain <code>=</code>. Blank lines are ignored. Values
            are kept by Anybrain and never shown again.
          </>
        }
      />
      <div className="field-row">
        <button type="submit" className="button small primary" data-testid="mcp-add" disabled={busy || fields.label.trim() === '' || fields.command.trim() === ''}>
          {busy ? 'Adding…' : 'Add server'}
        </button>
        <button type="button" className="button small ghost" data-testid="mcp-cancel-add" disabled={busy} onClick={onCancel}>
          {added === null ? 'Cancel' : 'Done'}
        </button>
      </div>
      <FieldError error={error} testId="mcp-error" />
      {added === null ? null : (
        <p className="field-done" role="status">
          Added {added}. It is disabled until you check its command below and choose Enable; its tools then ask
          before they run until you choose otherwise.
        </p>
      )}
    </form>
  );
}
