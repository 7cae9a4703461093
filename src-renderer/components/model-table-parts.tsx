/** Pieces the per-model settings tables share (Context windows' model windows, Usage's prices). */
import type { KeyboardEvent } from 'react';
import type { BrainId } from '../../src-shared/brains';
import { brainLabel } from './brain-options';
import { FieldError } from './FieldError';

/** The model id, with the brain that serves it under it. */
export function ModelIdCell({ brain, model, testId }: { readonly brain: BrainId; readonly model: string; readonly testId?: string }) {
  return (
    <th scope="row" data-testid={testId}>
      <code className="model-window-model">{model}</code>
      <span className="model-window-brain">{brainLabel(brain)}</span>
    </th>
  );
}

/** An editor's fields: Enter saves, Escape cancels. */
export function editorKeys(save: () => Promise<void>, cancel: () => void): (event: KeyboardEvent<HTMLInputElement>) => void {
  return (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  };
}

/** A row's refusal, under it across the table; nothing when there is none. */
export function ErrorRow({ error, columns, testId }: { readonly error: string | null; readonly columns: number; readonly testId: string }) {
  if (error === null) return null;
  return (
    <tr className="model-window-error-row">
      <td colSpan={columns}>
        <FieldError error={error} testId={testId} />
      </td>
    </tr>
  );
}

/** An editor's Save and Cancel, disabled while the change is asked for. */
export function SaveCancel({ busy, save, cancel, saveTestId }: { readonly busy: boolean; readonly save: () => Promise<void>; readonly cancel: () => void; readonly saveTestId: string }) {
  return (
    <>
      <button type="button" className="button small" data-testid={saveTestId} disabled={busy} onClick={() => void save()}>
        Save
      </button>
      <button type="button" className="button small ghost" disabled={busy} onClick={cancel}>
        Cancel
      </button>
    </>
  );
}
