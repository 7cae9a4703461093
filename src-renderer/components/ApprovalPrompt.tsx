import { memo, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { chipLabel } from '../../src-shared/receipt';
import { alwaysAllowApproval, answerApproval } from '../state/approval-actions';
import { errorText } from '../state/api-client';
import { selectTurnApprovalIds } from '../state/approvals-slice';
import { selectUnplacedApprovalIds } from '../state/selectors';
import { useAppStore } from '../state/store';
import { prettyJson } from './format';
import { WarningIcon } from './icons';

type Answer = 'allow' | 'deny' | 'always-allow';

/**
 * One tool call waiting for the person. The input comes from a model, so it is shown as plain text only; the
 * prompt goes away when the host reports the question settled (answered here or elsewhere, or cancelled by Stop).
 */
export const ApprovalPrompt = memo(function ApprovalPrompt({ approvalId }: { readonly approvalId: string }) {
  const approval = useAppStore((state) => state.pendingApprovals[approvalId]);
  const [pending, setPending] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const inputId = useId();
  if (approval === undefined) return null;
  const label = chipLabel(approval.server, approval.tool);

  const answer = async (choice: Answer): Promise<void> => {
    setPending(choice);
    setError(null);
    try {
      if (choice === 'always-allow') await alwaysAllowApproval(approvalId);
      else await answerApproval(approvalId, choice);
    } catch (caught) {
      setError(errorText(caught));
      setPending(null);
    }
  };

  return (
    <section
      className="approval-prompt"
      data-testid="approval-prompt"
      data-approval-id={approvalId}
      role="group"
      aria-labelledby={titleId}
      aria-describedby={inputId}
    >
      <p id={titleId} className="approval-title" role="alert">
        <WarningIcon />
        <span>
          Allow <code data-testid="approval-tool">{label}</code> to run?
        </span>
      </p>
      <p className="approval-note">The reply waits for your answer. The input below comes from the model.</p>
      <pre id={inputId} className="approval-input" data-testid="approval-input" tabIndex={0} aria-label={`Input for ${label}`}>
        {prettyJson(approval.input)}
      </pre>
      <div className="approval-actions">
        <button
          type="button"
          className="button small primary"
          data-testid="approval-allow"
          disabled={pending !== null}
          onClick={() => void answer('allow')}
        >
          {pending === 'allow' ? 'Allowing…' : 'Allow'}
        </button>
        <button
          type="button"
          className="button small"
          data-testid="approval-deny"
          disabled={pending !== null}
          onClick={() => void answer('deny')}
        >
          {pending === 'deny' ? 'Denying…' : 'Deny'}
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="approval-always-allow"
          disabled={pending !== null}
          onClick={() => void answer('always-allow')}
        >
          Always allow this tool
        </button>
      </div>
      {error === null ? null : (
        <p className="field-error" role="alert" data-testid="approval-error">
          {error}
        </p>
      )}
    </section>
  );
});

function ApprovalList({ approvalIds }: { readonly approvalIds: readonly string[] }) {
  if (approvalIds.length === 0) return null;
  return (
    <div className="approval-list">
      {approvalIds.map((approvalId) => (
        <ApprovalPrompt key={approvalId} approvalId={approvalId} />
      ))}
    </div>
  );
}

/** The questions a streaming reply waits on, shown under it. */
export const TurnApprovals = memo(function TurnApprovals({ turnId }: { readonly turnId: string }) {
  const approvalIds = useAppStore(useShallow((state) => selectTurnApprovalIds(state, turnId)));
  return <ApprovalList approvalIds={approvalIds} />;
});

/** Questions of the open conversation whose reply is not loaded, shown above the composer so none goes unseen. */
export const UnplacedApprovals = memo(function UnplacedApprovals({ conversationId }: { readonly conversationId: string }) {
  const approvalIds = useAppStore(useShallow((state) => selectUnplacedApprovalIds(state, conversationId)));
  if (approvalIds.length === 0) return null;
  return (
    <div className="unplaced-approvals">
      <ApprovalList approvalIds={approvalIds} />
    </div>
  );
});
