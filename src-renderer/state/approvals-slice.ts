import type { ApprovalView } from '../../src-shared/api';

/** How many answered approval ids to remember, so a late listing cannot bring an answered question back. */
const RESOLVED_APPROVALS_REMEMBERED = 100;

export interface ApprovalsSlice {
  /** Tool calls waiting for the person's answer, by approval id, in the order they were asked. */
  readonly pendingApprovals: Readonly<Record<string, ApprovalView>>;
  readonly resolvedApprovalIds: readonly string[];
}

export const initialApprovalsSlice: ApprovalsSlice = { pendingApprovals: {}, resolvedApprovalIds: [] };

export function addApproval(state: ApprovalsSlice, approval: ApprovalView): Partial<ApprovalsSlice> {
  if (state.resolvedApprovalIds.includes(approval.approvalId)) return {};
  if (state.pendingApprovals[approval.approvalId] === approval) return {};
  return { pendingApprovals: { ...state.pendingApprovals, [approval.approvalId]: approval } };
}

export function resolveApproval(state: ApprovalsSlice, approvalId: string): Partial<ApprovalsSlice> {
  const resolvedApprovalIds = state.resolvedApprovalIds.includes(approvalId)
    ? state.resolvedApprovalIds
    : [...state.resolvedApprovalIds.slice(-(RESOLVED_APPROVALS_REMEMBERED - 1)), approvalId];
  if (!(approvalId in state.pendingApprovals)) return { resolvedApprovalIds };
  const pendingApprovals = { ...state.pendingApprovals };
  delete pendingApprovals[approvalId];
  return { pendingApprovals, resolvedApprovalIds };
}

/** A finished turn waits on nothing: questions whose end was missed go with it. */
export function dropTurnApprovals(state: ApprovalsSlice, turnId: string): Partial<ApprovalsSlice> {
  const stale = Object.values(state.pendingApprovals).filter((approval) => approval.turnId === turnId);
  if (stale.length === 0) return {};
  const pendingApprovals = { ...state.pendingApprovals };
  for (const approval of stale) delete pendingApprovals[approval.approvalId];
  return { pendingApprovals };
}

/**
 * The host's list of waiting questions, fetched at start-up or after a reconnect. Questions asked by event while the
 * list was on its way (ids not in `knownBeforeListing`) are kept; questions answered meanwhile stay gone.
 */
export function replacePendingApprovals(
  state: ApprovalsSlice,
  listed: readonly ApprovalView[],
  knownBeforeListing: ReadonlySet<string>,
): Partial<ApprovalsSlice> {
  const pendingApprovals: Record<string, ApprovalView> = {};
  for (const approval of listed) {
    if (!state.resolvedApprovalIds.includes(approval.approvalId)) pendingApprovals[approval.approvalId] = approval;
  }
  for (const approval of Object.values(state.pendingApprovals)) {
    if (!knownBeforeListing.has(approval.approvalId)) pendingApprovals[approval.approvalId] = approval;
  }
  return { pendingApprovals };
}

/** The waiting questions of one turn, oldest first. */
export function selectTurnApprovalIds(state: ApprovalsSlice, turnId: string): string[] {
  const ids: string[] = [];
  for (const approval of Object.values(state.pendingApprovals)) {
    if (approval.turnId === turnId) ids.push(approval.approvalId);
  }
  return ids;
}

export function selectConversationApprovalCount(state: ApprovalsSlice, conversationId: string): number {
  let count = 0;
  for (const approval of Object.values(state.pendingApprovals)) {
    if (approval.conversationId === conversationId) count += 1;
  }
  return count;
}
