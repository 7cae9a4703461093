import { useEffect, useRef, type KeyboardEvent } from 'react';

interface InlineConfirmProps {
  /** The question, e.g. "Remove this server?". */
  readonly question: string;
  /** The word on the button that does it, e.g. "Remove". */
  readonly confirmLabel: string;
  readonly busy?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/**
 * A destructive action asked about in place of its button, instead of the browser's `confirm()` (which blocks the
 * whole window and reads as a web page's). Focus starts on Cancel, so a stray Enter keeps what is there.
 */
export function InlineConfirm({ question, confirmLabel, busy = false, onConfirm, onCancel }: InlineConfirmProps) {
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelButton.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape') return;
    // Escape answers this question only; it must not also close the dialog around it.
    event.preventDefault();
    event.stopPropagation();
    onCancel();
  };

  return (
    <div className="inline-confirm" role="group" aria-label={question} data-testid="inline-confirm" onKeyDown={onKeyDown}>
      <span className="inline-confirm-question">{question}</span>
      <span className="inline-confirm-buttons">
        <button type="button" className="button small danger" data-testid="inline-confirm-yes" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button ref={cancelButton} type="button" className="button small ghost" data-testid="inline-confirm-cancel" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </span>
    </div>
  );
}
