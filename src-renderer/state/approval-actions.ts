import { api, errorText } from './api-client';
import { replacePendingApprovals, resolveApproval } from './approvals-slice';
import { useAppStore } from './store';
import { applyTools } from './tool-actions';

const { getState, setState } = useAppStore;

let approvalsRequest = 0;

/** Fetches the questions waiting for an answer: at start-up, and after a reconnect may have lost their events. */
export async function loadApprovals(): Promise<void> {
  const request = ++approvalsRequest;
  const knownBeforeListing = new Set(Object.keys(getState().pendingApprovals));
  try {
    const listed = await api().listApprovals({});
    if (request !== approvalsRequest) return;
    setState((state) => replacePendingApprovals(state, listed, knownBeforeListing));
  } catch (error) {
    if (request === approvalsRequest) setState({ notice: `Could not load the tool calls waiting for approval: ${errorText(error)}` });
  }
}

/** Throws the Api's refusal, for the prompt to show beside its buttons. */
export async function answerApproval(approvalId: string, decision: 'allow' | 'deny'): Promise<void> {
  const { answered } = await api().answerApproval({ approvalId, decision });
  // The question was settled elsewhere (another window, Stop), and its event may not come to this one.
  if (!answered) setState((state) => resolveApproval(state, approvalId));
}

/** Sets the tool's policy to allow, so it no longer asks, then allows the waiting call. */
export async function alwaysAllowApproval(approvalId: string): Promise<void> {
  const approval = getState().pendingApprovals[approvalId];
  if (approval === undefined) return;
  applyTools(await api().setToolPolicy({ server: approval.server, tool: approval.tool, policy: 'allow' }));
  await answerApproval(approvalId, 'allow');
}
