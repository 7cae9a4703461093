import { useEffect } from 'react';
import { commitDelete, undoDelete, undoLatestDelete } from '../state/conversation-actions';
import { useAppStore } from '../state/store';
import { CloseIcon } from './icons';

/** Ctrl/Cmd+Z in a text field is the field's own undo, so only a press outside one undoes a delete. */
function isTextEditing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

/** One toast per delete still on offer, newest last, each with its own Undo and its own expiry. */
export function UndoDeleteToasts() {
  const pendingDeletes = useAppStore((state) => state.pendingDeletes);
  const offering = pendingDeletes.length > 0;

  useEffect(() => {
    if (!offering) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      const isUndo = event.key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey;
      if (!isUndo || isTextEditing(event.target)) return;
      if (undoLatestDelete()) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [offering]);

  if (!offering) return null;
  return (
    <div className="toasts" data-testid="undo-toasts">
      {pendingDeletes.map((entry) => (
        <div key={entry.conversationId} className="toast" role="status" data-testid="undo-toast" data-conversation-id={entry.conversationId}>
          <span className="toast-text">Deleted “{entry.title}”.</span>
          <button type="button" className="button small" data-testid="undo-delete" onClick={() => undoDelete(entry.conversationId)}>
            Undo
          </button>
          <button
            type="button"
            className="icon-button"
            data-testid="dismiss-undo"
            aria-label={`Dismiss: delete “${entry.title}” now`}
            title="Dismiss"
            onClick={() => void commitDelete(entry.conversationId)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
