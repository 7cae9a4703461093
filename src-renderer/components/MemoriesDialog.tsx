import { memo, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { MemoryView } from '../../src-shared/api';
import { errorText } from '../state/api-client';
import { addMemory, closeMemories, deleteMemory, loadMemories, updateMemory } from '../state/memory-actions';
import { useAppStore } from '../state/store';
import { Dialog } from './Dialog';
import { shortTimestamp } from './format';
import { PencilIcon, SearchIcon, TrashIcon } from './icons';

const SEARCH_DELAY_MS = 200;
const MAX_MEMORY_LENGTH = 4000;
const CONFIRM_PREVIEW_LENGTH = 200;

function preview(text: string): string {
  return text.length <= CONFIRM_PREVIEW_LENGTH ? text : `${text.slice(0, CONFIRM_PREVIEW_LENGTH)}…`;
}

/** Enter submits; Shift+Enter and an IME's Enter do not. */
function isSubmitKey(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

function NewMemoryForm() {
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canAdd = text.trim() !== '' && !saving;

  const add = async (): Promise<void> => {
    if (!canAdd) return;
    setSaving(true);
    setError(null);
    try {
      await addMemory(text.trim());
      setText('');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void add();
  };

  return (
    <form className="memory-new" onSubmit={onSubmit}>
      <label htmlFor="memory-new-input" className="field-label">
        New memory
      </label>
      <div className="field-row">
        <textarea
          id="memory-new-input"
          className="memory-textarea"
          data-testid="memory-new-input"
          rows={2}
          maxLength={MAX_MEMORY_LENGTH}
          placeholder="Something every brain should know, e.g. “I prefer metric units.”"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (isSubmitKey(event)) {
              event.preventDefault();
              void add();
            }
          }}
        />
        <button type="submit" className="button primary small" data-testid="memory-add" disabled={!canAdd}>
          Add
        </button>
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function MemorySearch() {
  const query = useAppStore((state) => state.memoryQuery);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const onChange = (value: string): void => {
    useAppStore.setState({ memoryQuery: value });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void loadMemories(value), SEARCH_DELAY_MS);
  };

  return (
    <label className="search-field memory-search">
      <SearchIcon />
      <input
        type="search"
        data-testid="memory-search"
        placeholder="Search memories"
        aria-label="Search memories"
        value={query}
        maxLength={2000}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

interface MemoryEditorProps {
  readonly memory: MemoryView;
  readonly onDone: () => void;
}

function MemoryEditor({ memory, onDone }: MemoryEditorProps) {
  const [text, setText] = useState(memory.text);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (): Promise<void> => {
    const trimmed = text.trim();
    if (saving) return;
    if (trimmed === '' || trimmed === memory.text) {
      onDone();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await updateMemory(memory.id, trimmed);
      onDone();
    } catch (caught) {
      setError(errorText(caught));
      setSaving(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (isSubmitKey(event)) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      // Escape ends the edit here; it must not also close the dialog.
      event.preventDefault();
      event.stopPropagation();
      onDone();
    }
  };

  return (
    <div className="memory-editor">
      <textarea
        className="memory-textarea"
        data-testid="memory-edit-input"
        aria-label="Memory text"
        rows={3}
        maxLength={MAX_MEMORY_LENGTH}
        autoFocus
        disabled={saving}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="memory-editor-actions">
        <span className="field-hint">Enter to save · Esc to cancel</span>
        <button type="button" className="button small ghost" disabled={saving} onClick={onDone}>
          Cancel
        </button>
        <button type="button" className="button small primary" data-testid="memory-save" disabled={saving} onClick={() => void save()}>
          Save
        </button>
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const MemoryItem = memo(function MemoryItem({ memory }: { readonly memory: MemoryView }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);

  const endEdit = (): void => {
    setEditing(false);
    // The editor that had focus is gone; focus goes back to the control that opened it.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const confirmDelete = async (): Promise<void> => {
    if (!window.confirm(`Delete this memory? This cannot be undone.\n\n${preview(memory.text)}`)) return;
    setError(null);
    try {
      await deleteMemory(memory.id);
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  const changed = memory.updatedAt !== '' && memory.updatedAt !== memory.createdAt;
  return (
    <li className="memory-item" data-testid="memory-item" data-memory-id={memory.id}>
      {editing ? (
        <MemoryEditor memory={memory} onDone={endEdit} />
      ) : (
        <>
          <div className="memory-content">
            <p className="memory-text" data-testid="memory-text">
              {memory.text}
            </p>
            {memory.createdAt === '' ? null : (
              <span className="memory-meta">
                {changed ? `Edited ${shortTimestamp(memory.updatedAt)}` : `Added ${shortTimestamp(memory.createdAt)}`}
              </span>
            )}
          </div>
          <div className="memory-actions">
            <button
              ref={editButton}
              type="button"
              className="icon-button"
              data-testid="memory-edit"
              aria-label="Edit this memory"
              title="Edit"
              onClick={() => setEditing(true)}
            >
              <PencilIcon />
            </button>
            <button
              type="button"
              className="icon-button danger"
              data-testid="memory-delete"
              aria-label="Delete this memory"
              title="Delete"
              onClick={() => void confirmDelete()}
            >
              <TrashIcon />
            </button>
          </div>
        </>
      )}
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
});

function MemoryList() {
  const memories = useAppStore((state) => state.memories);
  const status = useAppStore((state) => state.memoriesStatus);
  const error = useAppStore((state) => state.memoriesError);
  const searching = useAppStore((state) => state.memoryQuery.trim() !== '');

  if (status === 'error') {
    return (
      <div className="memory-empty" role="alert">
        <p>Could not load memories: {error}</p>
        <button type="button" className="button small" onClick={() => void loadMemories()}>
          Try again
        </button>
      </div>
    );
  }
  if (memories.length === 0) {
    if (status !== 'ready') return <p className="memory-empty muted">Loading memories…</p>;
    return <p className="memory-empty muted">{searching ? 'No memory matches that search.' : 'No memories yet.'}</p>;
  }
  return (
    <ul className="memory-list" aria-label={searching ? 'Memories matching the search' : 'Memories, newest first'} aria-busy={status === 'loading'}>
      {memories.map((memory) => (
        <MemoryItem key={memory.id} memory={memory} />
      ))}
    </ul>
  );
}

/** The memories brains are given: the ones that best match each message go into that turn's context. */
export function MemoriesDialog() {
  return (
    <Dialog
      title="Memories"
      titleId="memories-title"
      testId="memories-view"
      closeTestId="close-memories"
      closeLabel="Close memories"
      onClose={closeMemories}
    >
      <p className="dialog-intro">
        Each turn, the memories that best match your message are given to the brain that answers. Brains can also save
        and search memories with their memory tools.
      </p>
      <NewMemoryForm />
      <MemorySearch />
      <MemoryList />
    </Dialog>
  );
}
