import { memo, useEffect, useState, type FormEvent } from 'react';
import type { McpServerStatus, McpServerView } from '../../src-shared/api';
import { errorText } from '../state/api-client';
import { useAppStore } from '../state/store';
import { addMcpServer, loadMcpServers, removeMcpServer, setMcpServerEnabled } from '../state/tool-actions';
import { parseArgumentLines, parseEnvironmentLines } from './mcp-form';
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

const McpServerRow = memo(function McpServerRow({ server }: { readonly server: McpServerView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const environmentNames = Object.keys(server.env);

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
    <li className="mcp-server" data-testid="mcp-server" data-server-id={server.id}>
      <div className="mcp-server-head">
        <span className="mcp-server-label">{server.label}</span>
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
      {server.origin === 'import' ? (
        <p className="field-hint">Imported, so it started disabled: enable it only if you trust this command.</p>
      ) : null}
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
        <button type="button" className="button small ghost danger" data-testid="mcp-server-remove" disabled={busy} onClick={confirmRemove}>
          Remove
        </button>
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
});

function AddMcpServerForm() {
  const [label, setLabel] = useState('');
  const [command, setCommand] = useState('');
  const [argumentLines, setArgumentLines] = useState('');
  const [environmentLines, setEnvironmentLines] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setAdded(null);
    const environment = parseEnvironmentLines(environmentLines);
    if (!environment.ok) {
      setError(environment.problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await addMcpServer({ label: label.trim(), command: command.trim(), args: parseArgumentLines(argumentLines), env: environment.value });
      setAdded(label.trim());
      setLabel('');
      setCommand('');
      setArgumentLines('');
      setEnvironmentLines('');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="mcp-form" aria-labelledby="mcp-form-title" onSubmit={(event) => void onSubmit(event)}>
      <h5 id="mcp-form-title">Add a server</h5>
      <div className="settings-field">
        <label htmlFor="mcp-label">Name</label>
        <input id="mcp-label" type="text" data-testid="mcp-label" maxLength={100} placeholder="Files" value={label} onChange={(event) => setLabel(event.target.value)} />
      </div>
      <div className="settings-field">
        <label htmlFor="mcp-command">Command</label>
        <input
          id="mcp-command"
          type="text"
          data-testid="mcp-command"
          maxLength={1000}
          spellCheck={false}
          placeholder="npx, or /usr/local/bin/my-server"
          aria-describedby="mcp-command-hint"
          value={command}
          onChange={(event) => setCommand(event.target.value)}
        />
        <p id="mcp-command-hint" className="field-hint">
          Only the program to run. Servers start without a shell, so pipes, quotes and <code>$VARIABLES</code> do
          nothing here.
        </p>
      </div>
      <div className="settings-field">
        <label htmlFor="mcp-args">Arguments, one per line</label>
        <textarea
          id="mcp-args"
          className="settings-textarea"
          data-testid="mcp-args"
          rows={3}
          spellCheck={false}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/you/notes'}
          aria-describedby="mcp-args-hint"
          value={argumentLines}
          onChange={(event) => setArgumentLines(event.target.value)}
        />
        <p id="mcp-args-hint" className="field-hint">
          Each line is passed to the program as one argument, exactly as written: a path with spaces needs no quotes.
          This is never a shell command line.
        </p>
      </div>
      <div className="settings-field">
        <label htmlFor="mcp-env">Environment variables</label>
        <textarea
          id="mcp-env"
          className="settings-textarea"
          data-testid="mcp-env"
          rows={2}
          spellCheck={false}
          placeholder="API_TOKEN=…"
          aria-describedby="mcp-env-hint"
          value={environmentLines}
          onChange={(event) => setEnvironmentLines(event.target.value)}
        />
        <p id="mcp-env-hint" className="field-hint">
          One <code>KEY=value</code> per line; the value may contain <code>=</code>. Blank lines are ignored.
        </p>
      </div>
      <div className="field-row">
        <button type="submit" className="button small primary" data-testid="mcp-add" disabled={busy || label.trim() === '' || command.trim() === ''}>
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
          Added {added}. Its tools ask before they run until you choose otherwise below.
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
