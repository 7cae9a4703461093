import { useState, type FormEvent } from 'react';
import { useAppStore } from '../state/store';
import { addGrantedFolder, loadGrantedFolders, removeGrantedFolder } from '../state/tool-actions';
import { LearnMore } from './LearnMore';
import { SectionLoadError } from './SectionLoadError';
import { useBusyChange } from './useBusyChange';
import { useSectionLoad } from './useSectionLoad';

/** `/home/…`, `C:\…` or `\\server\share`: the host resolves it, but a relative path is refused before asking. */
export function looksAbsolute(path: string): boolean {
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path);
}

interface GrantedFolderRowProps {
  readonly folder: string;
  readonly onRemove: (folder: string) => void;
  readonly busy: boolean;
}

function GrantedFolderRow({ folder, onRemove, busy }: GrantedFolderRowProps) {
  return (
    <li className="settings-list-row" data-testid="granted-folder" data-folder={folder}>
      <code className="settings-path">{folder}</code>
      <button
        type="button"
        className="button small ghost danger"
        data-testid="remove-granted-folder"
        aria-label={`Remove access to ${folder}`}
        disabled={busy}
        onClick={() => onRemove(folder)}
      >
        Remove
      </button>
    </li>
  );
}

export function GrantedFoldersSettings() {
  const folders = useAppStore((state) => state.grantedFolders);
  const load = useSectionLoad(loadGrantedFolders);
  const [path, setPath] = useState('');
  const { busy, error, setError, run } = useBusyChange();

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const folder = path.trim();
    if (folder === '') return;
    if (!looksAbsolute(folder)) {
      setError('Enter an absolute path, starting with / (or a drive letter on Windows).');
      return;
    }
    if (await run(() => addGrantedFolder(folder))) setPath('');
  };

  const onRemove = (folder: string): void => {
    void run(() => removeGrantedFolder(folder));
  };

  return (
    <section className="settings-subsection" aria-labelledby="granted-folders-title">
      <h3 id="granted-folders-title">Folders brains may read</h3>
      <p className="field-hint">The file tools can read these folders and their subfolders, and nothing else.</p>
      <LearnMore about="folders brains may read">
        The file tools <code>read_file</code> and <code>list_directory</code> can only read inside these folders and
        their subfolders. Nothing else on this computer is readable through them.
      </LearnMore>
      {load.error !== null ? (
        <SectionLoadError what="the folders" error={load.error} onRetry={load.retry} />
      ) : folders === null ? (
        <p className="muted">Loading folders…</p>
      ) : folders.length === 0 ? (
        <p className="settings-empty">No folders yet: the file tools can read nothing.</p>
      ) : (
        <ul className="settings-list" aria-label="Folders brains may read">
          {folders.map((folder) => (
            <GrantedFolderRow key={folder} folder={folder} busy={busy} onRemove={onRemove} />
          ))}
        </ul>
      )}
      <form className="field-row settings-add-row" onSubmit={(event) => void onSubmit(event)}>
        <input
          type="text"
          data-testid="granted-folder-input"
          aria-label="Absolute path of a folder to grant"
          placeholder="/home/you/notes"
          spellCheck={false}
          maxLength={4096}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        <button type="submit" className="button small" data-testid="add-granted-folder" disabled={busy || path.trim() === ''}>
          Add folder
        </button>
      </form>
      {error === null ? null : (
        <p className="field-error" role="alert" data-testid="granted-folder-error">
          {error}
        </p>
      )}
    </section>
  );
}
