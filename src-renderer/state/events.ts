import type { ApiEvent } from '../../src-shared/api';
import { addApproval, dropTurnApprovals, resolveApproval } from './approvals-slice';
import {
  advanceCompaction,
  applyContextStatus,
  beginCompaction,
  compactedOutcome,
  endCompaction,
  unchangedOutcomeTone,
} from './context-slice';
import { removeConversation, upsertConversation } from './conversations-slice';
import { advanceExportAll } from './export-slice';
import { advanceImport } from './import-slice';
import { applyNotAnswering } from './outside-slice';
import { applyReceipt, applyStartedTurn, dropStreamedReasoning, mergeInvocations, mergeMessages, openConversationState } from './messages-slice';
import { bufferDelta, flushPendingDeltas } from './delta-buffer';
import { dropConversationHits } from './search-slice';
import { useAppStore } from './store';
import { endToolCall, finishTurn, startToolCall, startTurn } from './turns-slice';

export interface EventOutcome {
  /** The event names a reply this window never loaded: the open conversation must be fetched again. */
  readonly needsResync: boolean;
  /** The open conversation was deleted elsewhere. */
  readonly closedOpenConversation: boolean;
  /** The open conversation's window status changed (a turn ended): fetch it again. */
  readonly refreshContextOf: string | null;
  /** A compaction of the open conversation moved rows under a summary: fetch its newest page again. */
  readonly reloadNewestPageOf: string | null;
}

const NOTHING_MORE: EventOutcome = {
  needsResync: false,
  closedOpenConversation: false,
  refreshContextOf: null,
  reloadNewestPageOf: null,
};

/**
 * Applies one pushed event to the store. Text deltas wait for the next frame, so a burst of them renders once; any
 * other event first applies the deltas that wait, so events still take effect in the order they arrived.
 */
export function handleApiEvent(event: ApiEvent): EventOutcome {
  const { setState, getState } = useAppStore;
  if (event.type !== 'message-delta' && event.type !== 'reasoning-delta') flushPendingDeltas();
  switch (event.type) {
    case 'turn-started': {
      setState((state) => {
        const rows = event.userMessage === null ? [event.assistantMessage] : [event.userMessage, event.assistantMessage];
        const turn = { turnId: event.turnId, assistantMessageId: event.assistantMessage.id };
        // An edit, a regenerated reply or another brain's answer hangs below a row higher up: the rows of the branch
        // shown below it leave the list.
        return { ...startTurn(state, event.conversationId, turn), ...applyStartedTurn(state, rows) };
      });
      return NOTHING_MORE;
    }
    case 'message-delta':
    case 'reasoning-delta': {
      const state = getState();
      if (state.openConversationId !== event.conversationId) return NOTHING_MORE;
      // A row the window let go of (it lies below the view) is read again, with its text, when the view comes back.
      if (!(event.messageId in state.messagesById)) return { ...NOTHING_MORE, needsResync: state.pageStatus === 'ready' && !state.hasNewer };
      bufferDelta(event.conversationId, event.messageId, event.textDelta, event.type === 'message-delta' ? 'text' : 'reasoning');
      return NOTHING_MORE;
    }
    case 'turn-done':
    case 'turn-failed': {
      setState((state) => ({
        ...finishTurn(state, event.conversationId, event.turnId),
        ...endToolCall(state, event.message.id),
        ...dropTurnApprovals(state, event.turnId),
        ...mergeMessages(state, [event.message]),
        ...dropStreamedReasoning(state, event.message.id),
      }));
      const isOpen = getState().openConversationId === event.conversationId;
      return isOpen ? { ...NOTHING_MORE, refreshContextOf: event.conversationId } : NOTHING_MORE;
    }
    case 'tool-call-started': {
      setState((state) => startToolCall(state, event.messageId, { tool: event.tool, server: event.server }));
      return NOTHING_MORE;
    }
    case 'tool-call-finished': {
      const { invocation } = event;
      setState((state) => ({
        ...endToolCall(state, invocation.messageId),
        ...(state.openConversationId === event.conversationId ? mergeInvocations(state, [invocation]) : {}),
      }));
      return NOTHING_MORE;
    }
    case 'turn-receipt': {
      // Another conversation's receipt is built from its rows when it is opened.
      if (getState().openConversationId !== event.conversationId) return NOTHING_MORE;
      setState((state) => applyReceipt(state, event.messageId, event.receipt));
      return NOTHING_MORE;
    }
    case 'conversation-updated': {
      setState((state) => upsertConversation(state, event.conversation));
      return NOTHING_MORE;
    }
    case 'import-progress': {
      setState((state) => advanceImport(state, event));
      return NOTHING_MORE;
    }
    case 'conversation-deleted': {
      const wasOpen = getState().openConversationId === event.conversationId;
      setState((state) => ({
        ...removeConversation(state, event.conversationId),
        ...dropConversationHits(state, event.conversationId),
        ...(wasOpen ? { ...openConversationState(null), requestPreviewOpen: false, compactDialogOpen: false } : {}),
      }));
      return { ...NOTHING_MORE, closedOpenConversation: wasOpen };
    }
    case 'approval-requested': {
      setState((state) => addApproval(state, event.approval));
      return NOTHING_MORE;
    }
    case 'approval-resolved': {
      setState((state) => resolveApproval(state, event.approvalId));
      return NOTHING_MORE;
    }
    case 'context-pressure': {
      setState((state) => applyContextStatus(state, event.status));
      return NOTHING_MORE;
    }
    case 'compaction-started': {
      const start = { brain: event.brain, model: event.model, messages: event.messages };
      setState((state) => beginCompaction(state, event.conversationId, start));
      return NOTHING_MORE;
    }
    case 'compaction-progress': {
      const { summarisedMessages, totalMessages, characters } = event;
      setState((state) => advanceCompaction(state, event.conversationId, { summarisedMessages, totalMessages, characters }));
      return NOTHING_MORE;
    }
    case 'compaction-finished': {
      // The answer to compactConversation may have ended it first, and reloaded what this would.
      if (!(event.conversationId in getState().compactions)) return NOTHING_MORE;
      setState((state) => endCompaction(state, event.conversationId, compactedOutcome(event.coveredMessages)));
      if (getState().openConversationId !== event.conversationId) return NOTHING_MORE;
      return { ...NOTHING_MORE, refreshContextOf: event.conversationId, reloadNewestPageOf: event.conversationId };
    }
    case 'compaction-failed': {
      if (!(event.conversationId in getState().compactions)) return NOTHING_MORE;
      const outcome = { tone: unchangedOutcomeTone(event.reason), text: event.message };
      setState((state) => endCompaction(state, event.conversationId, outcome));
      return NOTHING_MORE;
    }
    case 'export-progress': {
      setState((state) => advanceExportAll(state, event.exportId, event.done, event.total));
      return NOTHING_MORE;
    }
    case 'not-answering': {
      setState((state) => applyNotAnswering(state, event.list));
      return NOTHING_MORE;
    }
    default: {
      // Events added to the contract later are ignored until this window knows them.
      const _unknown: never = event;
      return NOTHING_MORE;
    }
  }
}
