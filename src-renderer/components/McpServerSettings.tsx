import { memo, useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { McpServerStatus, McpServerView } from '../../src-shared/api';
import { MCP_LABEL_MAX_LENGTH } from '../../src-shared/tool-rules';
import { errorText } from '../state/api-client';
import { useAppStore } from '../state/store';
import { addMcpServer, loadMcpServers, removeMcpServer, setMcpServerEnabled, updateMcpServer } from '../state/tool-actions';
import { editedEnvironment, parseArgumentLines, parseEnvironmentLines, storedVariableEdits, type StoredVariableEdit } from './mcp-form';
import { SectionLoadError } from './SectionLoadError';
import { useSectionLoad } from './useSectionLoad';

/** How often statuses are fetched again while a server is starting. */
const STARTING_POLL_MS = 1_000;

const STATUS_WORDS: Record<McpServerStatus, string> = {
  stopped: 'stopped',
  starting: 'starting',
  running: 'running',
  failed: 'failed',
  disabled: 'disabled',
};

function ServerStatus({ server }: { readonly server: McpServerView }) {
  return (
    <span className={`mcp-status status-${server.status}`} data-testid="mcp-server-status" data-status={server.status}>
      {STATUS_WORDS[server.status]}
      {server.status === 'failed' && server.error !== null ? `: ${server.error}` : null}
    </span>
  );
}

interface McpServerDetailsProps {
  readonly server: McpServerView;
  readonly editButton: RefObject<HTMLButtonElement | null>;
  readonly onEdit: () => void;
}

function McpServerDetails({ server, editButton, onEdit }: McpServerDetailsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const environmentNames = server.envNames;

  const run = async (change: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await change();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const confirmRemove = (): void => {
    if (window.confirm(`Remove the MCP server “${server.label}”? Its tools will no longer be offered.`)) {
      void run(() => removeMcpServer(server.id));
    }
  };

  return (
    <>
      <div className="mcp-server-head">
        <span className="mcp-server-label" data-testid="mcp-server-label">
          {server.label}
        </span>
        <code className="mcp-server-id" title="The server's id: its tools are named id__tool">
          {server.id}
        </code>
        <ServerStatus server={server} />
      </div>
      <div className="mcp-server-command" aria-label="Command and arguments">
        <code>{server.command}</code>
        {server.args.map((argument, index) => (
          <code key={index} className="mcp-argument">
            {argument}
          </code>
        ))}
      </div>
      {environmentNames.length === 0 ? null : (
        <p className="field-hint">Environment: {environmentNames.join(', ')}</p>
      )}
      {server.enabled ? null : (
        <div className="mcp-disabled-note" data-testid="mcp-server-disabled-note">
          <p>
            {server.origin === 'import'
              ? 'Imported, so it is disabled: enable it only if you trust this command.'
              : 'Disabled: this command does not run until you enable it. A new server, or a changed command, arguments or environment, always waits for you here.'}
          </p>
          <button
            type="button"
            className="button small primary"
            data-testid="mcp-server-enable"
            aria-label={`Enable ${server.label}`}
            disabled={busy}
            onClick={() => void run(() => setMcpServerEnabled(server, true))}
          >
            Enable
          </button>
        </div>
      )}
      <div className="mcp-server-actions">
        <label className="checkbox-field">
          <input
            type="checkbox"
            data-testid="mcp-server-enabled"
            checked={server.enabled}
            disabled={busy}
            onChange={(event) => {
              const enabled = event.target.checked;
              void run(() => setMcpServerEnabled(server, enabled));
            }}
          />
          Enabled
        </label>
        <div className="mcp-server-buttons">
          <button
            ref={editButton}
            type="button"
            className="button small ghost"
            data-testid="mcp-server-edit"
            aria-label={`Edit ${server.label}`}
            disabled={busy}
            onClick={onEdit}
          >
            Edit
          </button>
          <button type="button" className="button small ghost danger" data-testid="mcp-server-remove" disabled={busy} onClick={confirmRemove}>
            Remove
          </button>
        </div>
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

interface McpServerFieldValues {
  readonly label: string;
  readonly command: string;
  readonly argumentLines: string;
  readonly environmentLines: string;
}

const EMPTY_FIELDS: McpServerFieldValues = { label: '', command: '', argumentLines: '', environmentLines: '' };

interface McpServerFieldsProps {
  /** Prefix of the fields' element ids, unique on the page. */
  readonly idPrefix: string;
  /** Prefix of the fields' test ids: `mcp` for the add form, `mcp-edit` for an edit. */
  readonly testIdPrefix: string;
  readonly values: McpServerFieldValues;
  readonly onChange: (values: McpServerFieldValues) => void;
  readonly environmentRows: number;
  readonly environmentLabel: string;
  readonly environmentHint: ReactNode;
  /** Shown above the environment text field: the edit form's stored variables. */
  readonly beforeEnvironment?: ReactNode;
  readonly autoFocus?: boolean;
}

/** The fields shared by the add form and the edit form. */
function McpServerFields({
  idPrefix,
  testIdPrefix,
  values,
  onChange,
  environmentRows,
  environmentLabel,
  environmentHint,
  beforeEnvironment = null,
  autoFocus = false,
}: McpServerFieldsProps) {
  const set = (field: keyof McpServerFieldValues, value: string): void => onChange({ ...values, [field]: value });
  return (
    <>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-label`}>Name</label>
        <input
          id={`${idPrefix}-label`}
          type="text"
          data-testid={`${testIdPrefix}-label`}
          maxLength={MCP_LABEL_MAX_LENGTH}
          placeholder="Files"
          autoFocus={autoFocus}
          value={values.label}
          onChange={(event) => set('label', event.target.value)}
        />
      </div>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-command`}>Command</label>
        <input
          id={`${idPrefix}-command`}
          type="text"
          data-testid={`${testIdPrefix}-command`}
          maxLength={1000}
          spellCheck={false}
          placeholder="npx, or /usr/local/bin/my-server"
          aria-describedby={`${idPrefix}-command-hint`}
          value={values.command}
          onChange={(event) => set('command', event.target.value)}
        />
        <p id={`${idPrefix}-command-hint`} className="field-hint">
          Only the program to run. Servers start without a shell, so pipes, quotes and <code>$VARIABLES</code> do
          nothing here.
        </p>
      </div>
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-args`}>Arguments, one per line</label>
        <textarea
          id={`${idPrefix}-args`}
          className="settings-textarea"
          data-testid={`${testIdPrefix}-args`}
          rows={3}
          spellCheck={false}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/you/notes'}
          aria-describedby={`${idPrefix}-args-hint`}
          value={values.argumentLines}
          onChange={(event) => set('argumentLines', event.target.value)}
        />
        <p id={`${idPrefix}-args-hint`} className="field-hint">
          Each line is passed to the program as one argument, exactly as written: a path with spaces needs no quotes.
          This is never a shell command line.
        </p>
      </div>
      {beforeEnvironment}
      <div className="settings-field">
        <label htmlFor={`${idPrefix}-env`}>{environmentLabel}</label>
        <textarea
          id={`${idPrefix}-env`}
          className="settings-textarea"
          data-testid={`${testIdPrefix}-env`}
          rows={environmentRows}
          spellCheck={false}
          placeholder="API_TOKEN=…"
          aria-describedby={`${idPrefix}-env-hint`}
          value={values.environmentLines}
          onChange={(event) => set('environmentLines', event.target.value)}
        />
        <p id={`${idPrefix}-env-hint`} className="field-hint">
          {environmentHint}
        </p>
      </div>
    </>
  );
}

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

interface EditMcpServerFormProps {
  readonly server: McpServerView;
  readonly onDone: () => void;
}

function EditMcpServerForm({ server, onDone }: EditMcpServerFormProps) {
  const [fields, setFields] = useState<McpServerFieldValues>(() => ({
    label: server.label,
    command: server.command,
    argumentLines: server.args.join('\n'),
    environmentLines: '',
  }));
  const [storedVariables, setStoredVariables] = useState<StoredVariableEdit[]>(() => storedVariableEdits(server.envNames));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const idPrefix = `mcp-edit-${server.id}`;

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    const environment = editedEnvironment(storedVariables, fields.environmentLines);
    if (!environment.ok) {
      setError(environment.problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await updateMcpServer(server, {
        label: fields.label.trim(),
        command: fields.command.trim(),
        args: parseArgumentLines(fields.argumentLines),
        env: environment.value,
      });
      onDone();
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
    }
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
      <h5 id={`${idPrefix}-title`}>
        Edit {server.label} <code className="mcp-server-id">{server.id}</code>
      </h5>
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
      {error === null ? null : (
        <p className="field-error" role="alert" data-testid="mcp-edit-error">
          {error}
        </p>
      )}
    </form>
  );
}

const McpServerRow = memo(function McpServerRow({ server }: { readonly server: McpServerView }) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  const endEdit = (): void => {
    setEditing(false);
    // The form that had focus is gone; focus goes back to the button that opened it.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <li className="mcp-server" data-testid="mcp-server" data-server-id={server.id}>
      {editing ? (
        <EditMcpServerForm server={server} onDone={endEdit} />
      ) : (
        <McpServerDetails server={server} editButton={editButton} onEdit={() => setEditing(true)} />
      )}
    </li>
  );
});

function AddMcpServerForm() {
  const [fields, setFields] = useState<McpServerFieldValues>(EMPTY_FIELDS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setAdded(null);
    const environment = parseEnvironmentLines(fields.environmentLines);
    if (!environment.ok) {
      setError(environment.problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const label = fields.label.trim();
      await addMcpServer({ label, command: fields.command.trim(), args: parseArgumentLines(fields.argumentLines), env: environment.value });
      setAdded(label);
      setFields(EMPTY_FIELDS);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="mcp-form" aria-labelledby="mcp-form-title" onSubmit={(event) => void onSubmit(event)}>
      <h5 id="mcp-form-title">Add a server</h5>
      <McpServerFields
        idPrefix="mcp"
        testIdPrefix="mcp"
        values={fields}
        onChange={setFields}
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
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      )}
      {added === null ? null : (
        <p className="field-done" role="status">
          Added {added}. It is disabled until you check its command below and choose Enable; its tools then ask
          before they run until you choose otherwise.
        </p>
      )}
    </form>
  );
}

export function McpServerSettings() {
  const servers = useAppStore((state) => state.mcpServers);
  const load = useSectionLoad(loadMcpServers);
  const anyStarting = servers?.some((server) => server.status === 'starting') ?? false;

  useEffect(() => {
    if (!anyStarting) return;
    const timer = setTimeout(() => void loadMcpServers().catch(() => undefined), STARTING_POLL_MS);
    return () => clearTimeout(timer);
  }, [anyStarting, servers]);

  return (
    <section className="settings-subsection" aria-labelledby="mcp-servers-title">
      <h4 id="mcp-servers-title">MCP servers</h4>
      <p className="field-hint">
        Programs on this computer that offer more tools over the Model Context Protocol. A server starts when its tools
        are first needed.
      </p>
      {load.error !== null ? (
        <SectionLoadError what="the MCP servers" error={load.error} onRetry={load.retry} />
      ) : servers === null ? (
        <p className="muted">Loading servers…</p>
      ) : servers.length === 0 ? (
        <p className="settings-empty">No MCP servers yet.</p>
      ) : (
        <ul className="settings-list mcp-servers" aria-label="MCP servers">
          {servers.map((server) => (
            <McpServerRow key={server.id} server={server} />
          ))}
        </ul>
      )}
      <AddMcpServerForm />
    </section>
  );
}
