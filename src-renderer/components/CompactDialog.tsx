import type { CompactionPreview } from '../../src-shared/api';
import { closeCompactDialog, compactNow, previewCompaction } from '../state/context-actions';
import { selectConversationBrain } from '../state/selectors';
import { useAppStore } from '../state/store';
import { Dialog } from './Dialog';
import { useAnswerFor } from './use-answer';

/**
 * "Compact now", asked before it runs: which messages the summary would fold (whole turns, up to which message), for
 * whose window and by which brain, or in words why there is nothing to fold.
 */
export function CompactDialog({ conversationId }: { readonly conversationId: string }) {
  const brain = useAppStore((state) => selectConversationBrain(state, conversationId));
  const busy = useAppStore((state) => conversationId in state.compactions || conversationId in state.activeTurns);
  // An answer for another brain than the one picked now is being asked again.
  const { answer, current } = useAnswerFor<CompactionPreview>(`${conversationId}\n${brain}`, () => previewCompaction(conversationId));
  const loaded = current ? answer : null;
  const foldable = loaded?.status === 'ready' && loaded.value.messages > 0;
  return (
    <Dialog title="Compact now" titleId="compact-title" testId="compact-dialog" closeTestId="close-compact" closeLabel="Close without compacting" onClose={closeCompactDialog}>
      <div className="request-status" role="status">
        {loaded === null ? 'Looking at what can be folded…' : null}
      </div>
      {loaded?.status === 'error' ? (
        <p className="request-error" data-testid="compact-preview-error" role="alert">
          Could not tell what would be folded: {loaded.message}
        </p>
      ) : null}
      {loaded?.status === 'ready' ? (
        <p className="compact-preview" data-testid="compact-preview">
          {loaded.value.message}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" data-testid="cancel-compact" onClick={closeCompactDialog}>
          {loaded?.status === 'ready' && !foldable ? 'Close' : 'Cancel'}
        </button>
        {loaded?.status === 'ready' && !foldable ? null : (
          <button
            type="button"
            className="button primary"
            data-testid="confirm-compact"
            disabled={!foldable || busy}
            onClick={() => {
              closeCompactDialog();
              void compactNow(conversationId);
            }}
          >
            Compact
          </button>
        )}
      </div>
    </Dialog>
  );
}
