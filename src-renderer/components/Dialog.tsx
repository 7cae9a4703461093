import { useEffect, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';

interface DialogProps {
  readonly title: string;
  /** Id of the heading that names the dialog. */
  readonly titleId: string;
  readonly testId: string;
  readonly closeTestId: string;
  readonly closeLabel: string;
  /** Called on the close button, Escape and a click on the backdrop. */
  readonly onClose: () => void;
  readonly wide?: boolean;
  readonly children: ReactNode;
}

/** A modal dialog: focused when it opens, closed by Escape or the backdrop, focus handed back when it closes. */
export function Dialog({ title, titleId, testId, closeTestId, closeLabel, onClose, wide = false, children }: DialogProps) {
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previousFocus = document.activeElement;
    dialogRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      if (previousFocus instanceof HTMLElement) previousFocus.focus();
    };
  }, [onClose]);

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={wide ? 'dialog wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        tabIndex={-1}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" data-testid={closeTestId} aria-label={closeLabel} onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
