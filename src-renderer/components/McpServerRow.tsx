import { memo, useRef, useState, type RefObject } from 'react';
import type { McpServerStatus, McpServerView } from '../../src-shared/api';
import { removeMcpServer, setMcpServerEnabled } from '../state/tool-actions';
import { FieldError } from './FieldError';
import { InlineConfirm } from './InlineConfirm';
import { McpServerEditForm } from './McpServerEditForm';
import { useBusyChange } from './useBusyChange';

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

/** Folded to letters and digits: how a label and the id made from it (mcp-server-store `uniqueServerId`) compare. */
function nameLetters(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '');
}

/**
 * The id beside the label only when it tells something the label does not: "Everything" with id `everything` shows
 * its name once, a renamed "Files (work)" with id `files` shows the `files` its tools are named by.
 */
export function shownServerId(server: Pick<McpServerView, 'id' | 'label'>): string | null {
  return nameLetters(server.label) === nameLetters(server.id) ? null : server.id;
}

interface McpServerDetailsProps {
  readonly server: McpServerView;
  readonly editButton: RefObject<HTMLButtonElement | null>;
  readonly onEdit: () => void;
}

function McpServerDetails({ server, editButton, onEdit }: McpServerDetailsProps) {
  const { busy, error, run } = useBusyChange();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const environmentNames = server.envNames;
  const serverId = shownServerId(server);

  const cancelRemove = (): void => {
    setConfirmingRemove(false);
    // The question that had focus is gone; focus goes back to the button that asked it.
    requestAnimationFrame(() => removeButton.current?.focus());
  };

  return (
    <>
      <div className="mcp-server-head">
        <span className="mcp-server-label" data-testid="mcp-server-label">
          {server.label}
        </span>
        {serverId === null ? null : (
          <code className="mcp-server-id" data-testid="mcp-server-id" title="The server's id: its tools are named id · tool">
            {serverId}
          </code>
        )}
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
        {confirmingRemove ? null : (
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
            <button
              ref={removeButton}
              type="button"
              className="button small ghost danger"
              data-testid="mcp-server-remove"
              aria-label={`Remove ${server.label}`}
              disabled={busy}
              onClick={() => setConfirmingRemove(true)}
            >
              Remove
            </button>
          </div>
        )}
      </div>
      {confirmingRemove ? (
        <InlineConfirm
          question={`Remove “${server.label}” and its tools?`}
          confirmLabel="Remove"
          busy={busy}
          onConfirm={() => void run(() => removeMcpServer(server.id))}
          onCancel={cancelRemove}
        />
      ) : null}
      <FieldError error={error} />
    </>
  );
}

export const McpServerRow = memo(function McpServerRow({ server }: { readonly server: McpServerView }) {
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
        <McpServerEditForm server={server} onDone={endEdit} />
      ) : (
        <McpServerDetails server={server} editButton={editButton} onEdit={() => setEditing(true)} />
      )}
    </li>
  );
});
