import { describe, expect, it } from 'vitest';
import {
  addApproval,
  dropTurnApprovals,
  initialApprovalsSlice,
  replacePendingApprovals,
  resolveApproval,
  selectConversationApprovalCount,
  selectTurnApprovalIds,
  type ApprovalsSlice,
} from './approvals-slice';
import { approvalFixture } from './test-fixtures';

function apply(state: ApprovalsSlice, change: Partial<ApprovalsSlice>): ApprovalsSlice {
  return { ...state, ...change };
}

describe('approvals slice', () => {
  it('adds a question once and removes it when resolved', () => {
    const approval = approvalFixture();
    let state = apply(initialApprovalsSlice, addApproval(initialApprovalsSlice, approval));
    expect(state.pendingApprovals).toEqual({ ap1: approval });
    expect(addApproval(state, approval)).toEqual({});
    state = apply(state, resolveApproval(state, 'ap1'));
    expect(state.pendingApprovals).toEqual({});
    expect(state.resolvedApprovalIds).toEqual(['ap1']);
  });

  it('never brings back a question that was already resolved', () => {
    const state = apply(initialApprovalsSlice, resolveApproval(initialApprovalsSlice, 'ap1'));
    expect(addApproval(state, approvalFixture())).toEqual({});
  });

  it('replaces the list with the host listing, keeping questions asked meanwhile and dropping answered ones', () => {
    const stale = approvalFixture({ approvalId: 'stale' });
    const arrivedDuringListing = approvalFixture({ approvalId: 'fresh' });
    let state = apply(initialApprovalsSlice, addApproval(initialApprovalsSlice, stale));
    const knownBeforeListing = new Set(Object.keys(state.pendingApprovals));
    state = apply(state, addApproval(state, arrivedDuringListing));
    state = apply(state, resolveApproval(state, 'answered'));
    const listed = [approvalFixture({ approvalId: 'listed' }), approvalFixture({ approvalId: 'answered' })];
    state = apply(state, replacePendingApprovals(state, listed, knownBeforeListing));
    expect(Object.keys(state.pendingApprovals).sort()).toEqual(['fresh', 'listed']);
  });

  it('drops the questions of a finished turn only', () => {
    let state = initialApprovalsSlice;
    state = apply(state, addApproval(state, approvalFixture({ approvalId: 'a', turnId: 't1' })));
    state = apply(state, addApproval(state, approvalFixture({ approvalId: 'b', turnId: 't2' })));
    state = apply(state, dropTurnApprovals(state, 't1'));
    expect(Object.keys(state.pendingApprovals)).toEqual(['b']);
    expect(dropTurnApprovals(state, 't9')).toEqual({});
  });

  it('selects the questions of a turn in order and counts those of a conversation', () => {
    let state = initialApprovalsSlice;
    state = apply(state, addApproval(state, approvalFixture({ approvalId: 'a', turnId: 't1' })));
    state = apply(state, addApproval(state, approvalFixture({ approvalId: 'b', turnId: 't1' })));
    state = apply(state, addApproval(state, approvalFixture({ approvalId: 'c', turnId: 't2', conversationId: 'c2' })));
    expect(selectTurnApprovalIds(state, 't1')).toEqual(['a', 'b']);
    expect(selectConversationApprovalCount(state, 'c1')).toBe(2);
    expect(selectConversationApprovalCount(state, 'c2')).toBe(1);
    expect(selectConversationApprovalCount(state, 'c3')).toBe(0);
  });
});
