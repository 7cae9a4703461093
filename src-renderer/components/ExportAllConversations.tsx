import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ExportFormat } from '../../src-shared/api';
import { cancelExportAll, closeExportAllDialog, exportAllConversations, openExportAllDialog } from '../state/export-actions';
import { DEFAULT_EXPORT_INCLUDES, type ExportAllRun, type ExportIncludes } from '../state/export-slice';
import { useAppStore } from '../state/store';
import { Dialog } from './Dialog';
import { downloadFile } from './download';
import { ExportOptionsFields } from './ExportOptionsFields';
import { ExportIcon } from './icons';
import { useFocusReturn } from './useFocusReturn';

function progressText(run: ExportAllRun): string {
  if (run.phase === 'downloading') return 'Saving the zip…';
  if (run.total === null) return 'Preparing the export…';
  return `Exported ${run.done.toLocaleString()} of ${run.total.toLocaleString()} conversations…`;
}

interface ExportAllChoice extends ExportIncludes {
  readonly format: ExportFormat;
}

interface ExportAllDialogProps {
  readonly onExport: (choice: ExportAllChoice) => void;
  readonly onCancel: () => void;
}

function ExportAllDialog({ onExport, onCancel }: ExportAllDialogProps) {
  const [choice, setChoice] = useState<ExportAllChoice>({ format: 'md', ...DEFAULT_EXPORT_INCLUDES });
  return (
    <Dialog
      title="Export all conversations"
      titleId="export-all-dialog-title"
      testId="export-all-dialog"
      closeTestId="close-export-all-dialog"
      closeLabel="Close export"
      onClose={onCancel}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onExport(choice);
        }}
      >
        <p className="field-hint export-intro">One zip: a file for each conversation in the chosen format, and an index.json.</p>
        <ExportOptionsFields
          idPrefix="export-all"
          format={choice.format}
          includeTools={choice.includeTools}
          includeReasoning={choice.includeReasoning}
          includeBranches={choice.includeBranches}
          includeAttachments={choice.includeAttachments}
          onChange={(change) => setChoice((current) => ({ ...current, ...change }))}
        />
        <div className="dialog-actions">
          <button type="button" className="button" data-testid="cancel-export-all-dialog" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button primary" data-testid="run-export-all">
            Export
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Every conversation as one zip: a file each in the chosen format, and an index.json. */
export function ExportAllConversations() {
  const run = useAppStore((state) => state.exportAll);
  const open = useAppStore((state) => state.exportAllDialogOpen);
  const triggerRef = useRef<HTMLButtonElement>(null);
  useFocusReturn(open, triggerRef);

  const onExport = async ({ format, ...includes }: ExportAllChoice): Promise<void> => {
    closeExportAllDialog();
    const file = await exportAllConversations(format, includes);
    if (file !== null) downloadFile(file.filename, file.mimeType, file.parts);
  };

  if (run !== null) {
    return (
      <div className="export-all-progress" role="status" data-testid="export-all-progress">
        <span>{progressText(run)}</span>
        <progress max={run.total ?? undefined} value={run.total === null ? undefined : run.done} aria-label="Export progress" />
        <button type="button" className="button small ghost" data-testid="cancel-export-all" onClick={() => void cancelExportAll()}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="button ghost full"
        data-testid="export-all"
        aria-haspopup="dialog"
        onClick={openExportAllDialog}
      >
        <ExportIcon />
        Export all conversations…
      </button>
      {open ? createPortal(<ExportAllDialog onExport={(choice) => void onExport(choice)} onCancel={closeExportAllDialog} />, document.body) : null}
    </>
  );
}
