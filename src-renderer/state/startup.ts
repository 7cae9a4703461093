import { conversationIdFromHash, writeConversationHash } from '../routing/hash-route';
import type { Connection } from '../transport/connection';
import { forgetCompactionsAfterGap, loadContextStatus } from './context-actions';
import {
  closeConversation,
  loadConversations,
  openConversation,
  reloadNewestPage,
  resync,
  scheduleResync,
} from './conversation-actions';
import { loadSettings } from './settings-actions';
import { installApi } from './api-client';
import { loadApprovals } from './approval-actions';
import { handleApiEvent } from './events';
import { loadNotAnswering } from './outside-actions';
import { useAppStore } from './store';
import { refreshSkillSuggestions } from './tool-actions';
import { installMessageQueue } from './turn-actions';

function followHash(): void {
  const conversationId = conversationIdFromHash(window.location.hash);
  const openId = useAppStore.getState().openConversationId;
  if (conversationId === openId) return;
  if (conversationId === null) closeConversation();
  else void openConversation(conversationId);
}

/** Wires the host's events into the store and loads the first state. Returns the teardown. */
export function startApp(connection: Connection): () => void {
  installApi(connection.api);
  useAppStore.setState({ host: connection.host });
  let wasLive = false;
  const unsubscribes = [
    connection.onEvent((event) => {
      const outcome = handleApiEvent(event);
      if (outcome.needsResync) scheduleResync();
      if (outcome.closedOpenConversation) writeConversationHash(null);
      if (outcome.reloadNewestPageOf !== null) void reloadNewestPage(outcome.reloadNewestPageOf);
      if (outcome.refreshContextOf !== null) void loadContextStatus(outcome.refreshContextOf);
    }),
    connection.onResync(() => {
      forgetCompactionsAfterGap();
      void resync();
    }),
    installMessageQueue(),
    connection.onStatus((status) => {
      useAppStore.setState({ connectionStatus: status });
      // Events sent before the stream first opened were missed by the first fetches.
      if (status === 'live' && !wasLive && connection.host === 'web') scheduleResync();
      if (status === 'live') wasLive = true;
    }),
  ];
  void loadSettings();
  void loadConversations('');
  void loadApprovals();
  void loadNotAnswering();
  refreshSkillSuggestions();
  followHash();
  window.addEventListener('hashchange', followHash);
  return () => {
    window.removeEventListener('hashchange', followHash);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
