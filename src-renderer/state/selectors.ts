import { BRAINS, FALLBACK_BRAIN, type BrainId } from '../../src-shared/brains';
import type { AppState } from './store';

/** The brain that answers the conversation's next turn: its own pick, else the default brain. */
export function selectConversationBrain(state: AppState, conversationId: string): BrainId {
  return state.conversationsById[conversationId]?.brain ?? state.settings?.defaultBrain ?? FALLBACK_BRAIN;
}

/**
 * The model that answers the conversation's next turn, as the main process resolves it (engine/resolve-target.ts):
 * the conversation's model, else its brain's default model.
 */
export function selectConversationModel(state: AppState, conversationId: string): string {
  const model = state.conversationsById[conversationId]?.model;
  return model === undefined || model === null || model === '' ? BRAINS[selectConversationBrain(state, conversationId)].defaultModel : model;
}

/**
 * A reply of the conversation is on its way (streaming, waiting on a tool approval, or its send unanswered), or its
 * context is being compacted: a new message has to wait, since one sent during a compaction would replay the rows
 * being summarised.
 */
export function selectReplyRunning(state: AppState, conversationId: string): boolean {
  return conversationId in state.activeTurns || conversationId in state.pendingSends || conversationId in state.compactions;
}

/** A modal dialog covers the window: window-wide keys belong to it. */
export function selectDialogOpen(state: AppState): boolean {
  return state.enlargedAttachment !== null || state.settingsOpen || state.requestPreviewOpen || state.compactDialogOpen || state.memoriesOpen || state.shortcutsOpen || state.exportDraft !== null || state.exportAllDialogOpen;
}

/** A modal dialog covers the window (the export bar while turns are chosen is not one). */
export function selectModalOpen(state: AppState): boolean {
  return state.enlargedAttachment !== null || state.settingsOpen || state.requestPreviewOpen || state.compactDialogOpen || state.memoriesOpen || state.shortcutsOpen || selectExportDialogOpen(state);
}

/** An export dialog is up (not the bar shown while turns are chosen, which leaves the window usable). */
export function selectExportDialogOpen(state: AppState): boolean {
  return (state.exportDraft !== null && !state.exportDraft.choosing) || state.exportAllDialogOpen;
}

/** A row's turn while turns are being chosen for an export of its conversation; null when none are being chosen. */
export function selectTurnChoice(state: AppState, conversationId: string, turnId: string): 'chosen' | 'unchosen' | null {
  const draft = state.exportDraft;
  if (draft === null || !draft.choosing || draft.conversationId !== conversationId) return null;
  return turnId in draft.chosenTurns ? 'chosen' : 'unchosen';
}

/**
 * Waiting questions of the open conversation that no loaded streaming reply shows (its page is still loading, or
 * was replaced after a gap): the conversation shows them above the composer instead.
 */
export function selectUnplacedApprovalIds(state: AppState, conversationId: string): string[] {
  const unplaced: string[] = [];
  for (const approval of Object.values(state.pendingApprovals)) {
    if (approval.conversationId !== conversationId) continue;
    const placed = state.messageIds.some((messageId) => {
      const message = state.messagesById[messageId];
      return message?.role === 'assistant' && message.status === 'streaming' && message.turnId === approval.turnId;
    });
    if (!placed) unplaced.push(approval.approvalId);
  }
  return unplaced;
}

/** The newest user message of the shown path that can be edited (none a summary covers), or null. */
export function selectLastEditableUserMessageId(state: AppState, conversationId: string): string | null {
  if (state.openConversationId !== conversationId) return null;
  for (let index = state.messageIds.length - 1; index >= 0; index -= 1) {
    const message = state.messagesById[state.messageIds[index] ?? ''];
    if (message?.role === 'user') return message.compactedInto === null ? message.id : null;
  }
  return null;
}

/**
 * The brain a reply hands the conversation to: the brain of `messageId` when the reply shown before it on the path
 * came from another brain, else null ("Gemini from here").
 */
export function selectBrainChangedTo(state: AppState, messageId: string): BrainId | null {
  const message = state.messagesById[messageId];
  if (message?.role !== 'assistant' || message.kind !== 'chat' || message.brain === null) return null;
  for (let index = state.messageIds.indexOf(messageId) - 1; index >= 0; index -= 1) {
    const earlier = state.messagesById[state.messageIds[index] ?? ''];
    if (earlier?.role !== 'assistant' || earlier.kind !== 'chat' || earlier.brain === null) continue;
    return earlier.brain === message.brain ? null : message.brain;
  }
  return null;
}
