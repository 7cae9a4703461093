import { memo, useRef, useState, type KeyboardEvent } from 'react';
import type { MemoryView } from '../../src-shared/api';
import { errorText } from '../state/api-client';
import { deleteMemory, updateMemory } from '../state/memory-actions';
import { FieldError } from './FieldError';
import { InlineConfirm } from './InlineConfirm';
import { shortTimestamp } from './format';
import { PencilIcon, TrashIcon } from './icons';
import { MAX_MEMORY_LENGTH, isSubmitKey } from './memory-input';

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
      <FieldError error={error} />
    </div>
  );
}

export const MemoryItem = memo(function MemoryItem({ memory }: { readonly memory: MemoryView }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  const endEdit = (): void => {
    setEditing(false);
    // The editor that had focus is gone; focus goes back to the control that opened it.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const cancelDelete = (): void => {
    setConfirmingDelete(false);
    // The question that had focus is gone; focus goes back to the button that asked it.
    requestAnimationFrame(() => deleteButton.current?.focus());
  };

  const confirmDelete = async (): Promise<void> => {
    setError(null);
    setDeleting(true);
    try {
      await deleteMemory(memory.id);
    } catch (caught) {
      setError(errorText(caught));
      setDeleting(false);
      setConfirmingDelete(false);
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
          {confirmingDelete ? (
            <InlineConfirm
              question="Delete this memory? This cannot be undone."
              confirmLabel="Delete"
              busy={deleting}
              onConfirm={() => void confirmDelete()}
              onCancel={cancelDelete}
            />
          ) : (
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
                ref={deleteButton}
                type="button"
                className="icon-button danger"
                data-testid="memory-delete"
                aria-label="Delete this memory"
                title="Delete"
                onClick={() => setConfirmingDelete(true)}
              >
                <TrashIcon />
              </button>
            </div>
          )}
        </>
      )}
      <FieldError error={error} />
    </li>
  );
});
