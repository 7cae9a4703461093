import { useCallback, useEffect, useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import {
  changeConversationExport,
  closeConversationExport,
  exportedFileOf,
  openConversationExport,
  runConversationExport,
} from '../state/export-actions';
import type { ExportDraft } from '../state/export-slice';
import { useAppStore } from '../state/store';
import { Dialog } from './Dialog';
import { downloadFile } from './download';
import { ExportOptionsFields } from './ExportOptionsFields';
import { focusReturnTarget } from './OverflowMenu';
import { ExportIcon } from './icons';
import { useFocusReturn } from './useFocusReturn';

export function chosenCountText(count: number): string {
  if (count === 0) return 'No turns chosen';
  return count === 1 ? '1 turn chosen' : `${count.toLocaleString()} turns chosen`;
}

interface ExportStepProps {
  readonly draft: ExportDraft;
  readonly onExport: () => void;
  readonly onCancel: () => void;
}

function ExportDialog({ draft, onExport, onCancel }: ExportStepProps) {
  const chosen = Object.keys(draft.chosenTurns).length;
  const ready = draft.scope === 'conversation' || chosen > 0;
  return (
    <Dialog
      title="Export conversation"
      titleId="export-dialog-title"
      testId="export-dialog"
      closeTestId="close-export-dialog"
      closeLabel="Close export"
      onClose={onCancel}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) onExport();
        }}
      >
        <ExportOptionsFields
          idPrefix="export"
          format={draft.format}
          includeTools={draft.includeTools}
          includeReasoning={draft.includeReasoning}
          includeBranches={draft.includeBranches}
          includeAttachments={draft.includeAttachments}
          onChange={changeConversationExport}
        />
        <fieldset className="export-fieldset">
          <legend className="field-label">Which turns</legend>
          <label className="export-choice">
            <input
              type="radio"
              name="export-scope"
              data-testid="export-scope-conversation"
              checked={draft.scope === 'conversation'}
              onChange={() => changeConversationExport({ scope: 'conversation' })}
            />
            <span className="export-choice-label">The whole conversation</span>
          </label>
          <div className="export-choice">
            <input
              type="radio"
              id="export-scope-turns"
              name="export-scope"
              data-testid="export-scope-turns"
              aria-describedby="export-chosen-count"
              checked={draft.scope === 'turns'}
              onChange={() => changeConversationExport({ scope: 'turns' })}
            />
            <label className="export-choice-label" htmlFor="export-scope-turns">
              Chosen turns
            </label>
            <span className="export-choice-hint" id="export-chosen-count" data-testid="export-chosen-count">
              {chosenCountText(chosen)}
            </span>
            <button
              type="button"
              className="button small"
              data-testid="choose-turns"
              onClick={() => changeConversationExport({ scope: 'turns', choosing: true })}
            >
              Choose turns…
            </button>
          </div>
        </fieldset>
        <div className="dialog-actions">
          <button type="button" className="button" data-testid="cancel-export" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button primary" data-testid="run-export" disabled={!ready}>
            Export
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** While turns are being ticked in the message list: how many, and the way to export them or to stop. */
function ChoosingBar({ draft, onExport, onCancel }: ExportStepProps) {
  const barRef = useRef<HTMLDivElement>(null);
  const chosen = Object.keys(draft.chosenTurns).length;

  useEffect(() => {
    barRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      onCancel();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [onCancel]);

  return (
    <div
      ref={barRef}
      className="export-choosing-bar"
      role="region"
      aria-label="Choose turns to export"
      data-testid="export-choosing-bar"
      tabIndex={-1}
    >
      <span className="export-choosing-text">Tick the turns to export in the messages below.</span>
      <span className="export-choosing-count" role="status" data-testid="export-choosing-count">
        {chosenCountText(chosen)}
      </span>
      <div className="export-choosing-actions">
        <button
          type="button"
          className="button small ghost"
          data-testid="export-back-to-options"
          onClick={() => changeConversationExport({ choosing: false })}
        >
          Options…
        </button>
        <button type="button" className="button small" data-testid="cancel-choosing" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button small primary" data-testid="export-chosen" disabled={chosen === 0} onClick={onExport}>
          Export
        </button>
      </div>
    </div>
  );
}

function useExportSteps(conversationId: string) {
  const draft = useAppStore((state) => (state.exportDraft?.conversationId === conversationId ? state.exportDraft : null));
  const onCancel = useCallback((): void => closeConversationExport(conversationId), [conversationId]);
  const onExport = useCallback((): void => {
    void runConversationExport(conversationId).then((exported) => {
      if (exported === null) return;
      const file = exportedFileOf(exported);
      downloadFile(file.filename, file.mimeType, file.parts);
    });
  }, [conversationId]);
  return { draft, onCancel, onExport };
}

/**
 * The header's Export button and its dialog: the format, what to include, and which turns. Focus comes back to the
 * button when the export runs or is cancelled, from the dialog or from the bar shown while turns are chosen.
 */
export function ExportConversationButton({
  conversationId,
  asMenuItem = false,
}: {
  readonly conversationId: string;
  /** Shown as an item of the header's "More actions" menu rather than as a button of its own. */
  readonly asMenuItem?: boolean;
}) {
  const { draft, onCancel, onExport } = useExportSteps(conversationId);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // Inside the header's closed "More actions" menu the button is hidden: the focus goes back to the menu's button.
  const returnRef = useMemo(
    () => ({
      get current() {
        return focusReturnTarget(triggerRef.current);
      },
    }),
    [],
  );
  useFocusReturn(draft !== null, returnRef);

  // A draft belongs to the conversation it was opened on: leaving the conversation drops it.
  useEffect(() => () => closeConversationExport(conversationId), [conversationId]);

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={asMenuItem ? 'menu-item' : 'button small ghost'}
        role={asMenuItem ? 'menuitem' : undefined}
        data-testid="export-conversation"
        aria-haspopup="dialog"
        onClick={() => {
          // While turns are being chosen, the button brings the dialog back with the choice kept.
          if (draft === null) openConversationExport(conversationId);
          else changeConversationExport({ choosing: false });
        }}
      >
        <ExportIcon size={14} />
        Export…
      </button>
      {draft === null || draft.choosing
        ? null
        : createPortal(<ExportDialog draft={draft} onExport={onExport} onCancel={onCancel} />, document.body)}
    </>
  );
}

/** The bar above the messages while turns are being chosen for an export. */
export function ExportChoosingBar({ conversationId }: { readonly conversationId: string }) {
  const { draft, onCancel, onExport } = useExportSteps(conversationId);
  if (draft === null || !draft.choosing) return null;
  return <ChoosingBar draft={draft} onExport={onExport} onCancel={onCancel} />;
}
