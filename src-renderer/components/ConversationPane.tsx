import { useEffect } from 'react';
import { stopCompaction } from '../state/context-actions';
import { stopTurn } from '../state/turn-actions';
import { selectDialogOpen } from '../state/selectors';
import { useAppStore } from '../state/store';
import { UnplacedApprovals } from './ApprovalPrompt';
import { Composer } from './Composer';
import { ContextNotices } from './ContextNotices';
import { ConversationHeader } from './ConversationHeader';
import { MessageList } from './MessageList';
import { useBrainShortcuts } from './useBrainShortcuts';

/** Esc stops a running reply or compaction when no control has focus (the composer handles its own Esc). */
function useEscapeStops(conversationId: string): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target;
      if (target instanceof HTMLElement && target !== document.body && target.closest('input, textarea, select')) return;
      const state = useAppStore.getState();
      if (selectDialogOpen(state)) return;
      if (conversationId in state.activeTurns) void stopTurn(conversationId);
      else if (conversationId in state.compactions) void stopCompaction(conversationId);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [conversationId]);
}

export function ConversationPane({ conversationId }: { readonly conversationId: string }) {
  useEscapeStops(conversationId);
  useBrainShortcuts(conversationId);
  return (
    <section className="conversation-pane" aria-label="Conversation">
      <ConversationHeader conversationId={conversationId} />
      <ContextNotices conversationId={conversationId} />
      <MessageList conversationId={conversationId} />
      <UnplacedApprovals conversationId={conversationId} />
      <Composer conversationId={conversationId} />
    </section>
  );
}
