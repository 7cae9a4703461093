import { isExportFormat } from '../../src-shared/api';
import { cancelExportAll, exportAllConversations } from '../state/export-actions';
import type { ExportAllRun } from '../state/export-slice';
import { useAppStore } from '../state/store';
import { downloadFile } from './download';

function progressText(run: ExportAllRun): string {
  if (run.phase === 'downloading') return 'Saving the zip…';
  if (run.total === null) return 'Preparing the export…';
  return `Exported ${run.done.toLocaleString()} of ${run.total.toLocaleString()} conversations…`;
}

/** Every conversation as one zip: a file each in the chosen format, and an index.json. */
export function ExportAllConversations() {
  const run = useAppStore((state) => state.exportAll);

  const onChoose = async (value: string): Promise<void> => {
    if (!isExportFormat(value)) return;
    const file = await exportAllConversations(value);
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
    <select
      className="export-picker export-all-picker"
      data-testid="export-all"
      aria-label="Export all conversations"
      value=""
      onChange={(event) => void onChoose(event.target.value)}
    >
      <option value="">Export all conversations…</option>
      <option value="md">As Markdown (.zip)</option>
      <option value="html">As web pages (.zip)</option>
      <option value="json">As transcripts (.zip)</option>
    </select>
  );
}
