import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { McpServerView } from '../../src-shared/api';
import { updateMcpServer } from '../state/tool-actions';
import { FieldError } from './FieldError';
import { editedEnvironment, parseArgumentLines, storedVariableEdits, type StoredVariableEdit } from './mcp-form';
import { McpServerFields, type McpServerFieldValues } from './McpServerFields';
import { useBusyChange } from './useBusyChange';

interface StoredVariablesProps {
  readonly idPrefix: string;
  readonly variables: readonly StoredVariableEdit[];
  readonly onChange: (variables: StoredVariableEdit[]) => void;
}

/** The variables a server already has: names only, each with a field for a new value and a way to remove it. */
function StoredVariables({ idPrefix, variables, onChange }: StoredVariablesProps) {
  if (variables.length === 0) return null;
  const change = (index: number, update: Partial<StoredVariableEdit>): void =>
    onChange(variables.map((variable, at) => (at === index ? { ...variable, ...update } : variable)));
  return (
    <fieldset className="settings-field mcp-stored-env" aria-describedby={`${idPrefix}-stored-env-hint`}>
      <legend>Environment variables</legend>
      <ul className="mcp-stored-env-list">
        {variables.map((variable, index) => {
          const fieldId = `${idPrefix}-env-${variable.name}`;
          return (
            <li key={variable.name} className="mcp-stored-variable" data-testid="mcp-edit-stored-variable" data-name={variable.name} data-removed={variable.removed}>
              <label htmlFor={fieldId}>
                <code>{variable.name}</code>
              </label>
              <input
                id={fieldId}
                type="password"
                autoComplete="off"
                spellCheck={false}
                data-testid="mcp-edit-variable-value"
                placeholder={variable.removed ? 'will be removed' : 'stored value kept'}
                disabled={variable.removed}
                value={variable.replacement}
                onChange={(event) => change(index, { replacement: event.target.value })}
              />
              <button
                type="button"
                className="button small ghost"
                data-testid="mcp-edit-variable-remove"
                aria-label={variable.removed ? `Keep ${variable.name}` : `Remove ${variable.name}`}
                onClick={() => change(index, { removed: !variable.removed, replacement: '' })}
              >
                {variable.removed ? 'Keep' : 'Remove'}
              </button>
            </li>
          );
        })}
      </ul>
      <p id={`${idPrefix}-stored-env-hint`} className="field-hint">
        Stored values are never shown. Leave a field empty to keep its value, or type a new one to replace it.
      </p>
    </fieldset>
  );
}

interface McpServerEditFormProps {
  readonly server: McpServerView;
  readonly onDone: () => void;
}

export function McpServerEditForm({ server, onDone }: McpServerEditFormProps) {
  const [fields, setFields] = useState<McpServerFieldValues>(() => ({
    label: server.label,
    command: server.command,
    argumentLines: server.args.join('\n'),
    environmentLines: '',
  }));
  const [storedVariables, setStoredVariables] = useState<StoredVariableEdit[]>(() => storedVariableEdits(server.envNames));
  const { busy, error, setError, run } = useBusyChange();
  const idPrefix = `mcp-edit-${server.id}`;

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    const environment = editedEnvironment(storedVariables, fields.environmentLines);
    if (!environment.ok) {
      setError(environment.problem);
      return;
    }
    const saved = await run(() =>
      updateMcpServer(server, {
        label: fields.label.trim(),
        command: fields.command.trim(),
        args: parseArgumentLines(fields.argumentLines),
        env: environment.value,
      }),
    );
    if (saved) onDone();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>): void => {
    if (event.key !== 'Escape') return;
    // Escape ends the edit here; it must not also close the Settings dialog.
    event.preventDefault();
    event.stopPropagation();
    if (!busy) onDone();
  };

  return (
    <form
      className="mcp-form mcp-edit-form"
      aria-labelledby={`${idPrefix}-title`}
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={onKeyDown}
    >
      <h4 id={`${idPrefix}-title`}>
        Edit {server.label} <code className="mcp-server-id">{server.id}</code>
      </h4>
      <McpServerFields
        idPrefix={idPrefix}
        testIdPrefix="mcp-edit"
        values={fields}
        onChange={setFields}
        environmentRows={2}
        environmentLabel={server.envNames.length === 0 ? 'Environment variables' : 'Add variables'}
        environmentHint={
          <>
            One <code>KEY=value</code> per line; the value may contain <code>=</code>. Blank lines are ignored.
          </>
        }
        beforeEnvironment={<StoredVariables idPrefix={idPrefix} variables={storedVariables} onChange={setStoredVariables} />}
        autoFocus
      />
      <p className="field-hint">Changing the command, the arguments or the environment disables the server until you enable it again.</p>
      <div className="field-row">
        <button type="submit" className="button small primary" data-testid="mcp-edit-save" disabled={busy || fields.label.trim() === '' || fields.command.trim() === ''}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button small ghost" data-testid="mcp-edit-cancel" disabled={busy} onClick={onDone}>
          Cancel
        </button>
        <span className="field-hint">Esc to cancel</span>
      </div>
      <FieldError error={error} testId="mcp-edit-error" />
    </form>
  );
}
