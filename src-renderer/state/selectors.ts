import { BRAIN_IDS, type BrainId } from '../../src-shared/brains';
import type { AppState } from './store';

/** The brain that answers the conversation's next turn: its own pick, else the default brain. */
export function selectConversationBrain(state: AppState, conversationId: string): BrainId {
  return state.conversationsById[conversationId]?.brain ?? state.settings?.defaultBrain ?? BRAIN_IDS[0];
}

/** A modal dialog covers the window: window-wide keys belong to it. */
export function selectDialogOpen(state: AppState): boolean {
  return state.settingsOpen || state.requestPreviewOpen;
}
