import type { CompactionPreview } from '../../src-shared/api';
import { api, errorText } from './api-client';
import {
  applyContextStatus,
  beginCompaction,
  dismissCompactionOutcome,
  endCompaction,
  resultOutcome,
} from './context-slice';
import { reloadNewestPage, showNotice } from './conversation-actions';
import { applyCoveredPage, applyOlderCoveredPage, pagingCursor, startCoveredRows, updateCoveredRows } from './messages-slice';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

/** Covered messages fetched per page. */
export const COVERED_PAGE_SIZE = 50;

/** The latest status request per conversation: an older answer arriving late is dropped. */
const statusRequests = new Map<string, number>();
let statusRequestCount = 0;

/**
 * How full the window of the brain the conversation's next turn goes to is. A failure leaves the meter as it was:
 * the meter is a guide, and the turn itself still checks the window.
 */
export async function loadContextStatus(conversationId: string): Promise<void> {
  const request = ++statusRequestCount;
  statusRequests.set(conversationId, request);
  try {
    const status = await api().getContextStatus({ conversationId });
    if (statusRequests.get(conversationId) !== request) return;
    setState((state) => applyContextStatus(state, status));
    // The main process knows whether a compaction runs: one started elsewhere shows, one whose end was missed clears.
    const running = conversationId in getState().compactions;
    if (status.compacting && !running) setState((state) => beginCompaction(state, conversationId, null));
    if (!status.compacting && running && !askedCompactions.has(conversationId)) {
      setState((state) => {
        const compactions = { ...state.compactions };
        delete compactions[conversationId];
        return { compactions };
      });
    }
  } catch {
    // The meter keeps its last reading; nothing else depends on it.
  }
}

/** Opens the Compact now dialog of the open conversation: it shows what would be folded before anything runs. */
export function openCompactDialog(): void {
  setState({ compactDialogOpen: true });
}

export function closeCompactDialog(): void {
  setState({ compactDialogOpen: false });
}

/** What Compact now would fold for the brain the conversation's next turn goes to, or why there is nothing to fold. */
export function previewCompaction(conversationId: string): Promise<CompactionPreview> {
  return api().previewCompaction({ conversationId });
}

/** Conversations whose compactConversation this window is still waiting on: their answer will end the run. */
const askedCompactions = new Set<string>();

/** Compacts the conversation now. Progress and the end arrive as events; the answer covers events this window missed. */
export async function compactNow(conversationId: string): Promise<void> {
  if (conversationId in getState().compactions) return;
  setState((state) => beginCompaction(state, conversationId, null));
  askedCompactions.add(conversationId);
  try {
    const result = await api().compactConversation({ conversationId });
    if (!(conversationId in getState().compactions)) return;
    setState((state) => endCompaction(state, conversationId, resultOutcome(result)));
    if (result.outcome === 'compacted') void reloadNewestPage(conversationId);
    void loadContextStatus(conversationId);
  } catch (error) {
    if (!(conversationId in getState().compactions)) return;
    setState((state) => endCompaction(state, conversationId, { tone: 'error', text: `Could not compact: ${errorText(error)}` }));
  } finally {
    askedCompactions.delete(conversationId);
  }
}

/**
 * After a reconnect, events may have been lost, among them the end of a compaction the main process started: a run
 * nothing will end any more would keep sending disabled. Runs this window asked for end with their answer.
 */
export function forgetCompactionsAfterGap(): void {
  setState((state) => {
    const compactions = Object.fromEntries(
      Object.entries(state.compactions).filter(([conversationId]) => askedCompactions.has(conversationId)),
    );
    return { compactions };
  });
  const openId = getState().openConversationId;
  if (openId !== null) void loadContextStatus(openId);
}

/** Stops a running compaction: the main process leaves the conversation exactly as it was. */
export async function stopCompaction(conversationId: string): Promise<void> {
  try {
    await api().stop({ conversationId });
  } catch (error) {
    showNotice(`Could not stop the compaction: ${errorText(error)}`);
  }
}

export function dismissCompactionNotice(conversationId: string): void {
  setState((state) => dismissCompactionOutcome(state, conversationId));
}

/** The newest page of the rows a summary covers. */
export async function loadCoveredMessages(summaryId: string): Promise<void> {
  const conversationId = getState().openConversationId;
  setState((state) => startCoveredRows(state, summaryId));
  try {
    const page = await api().listCoveredMessages({ summaryId, limit: COVERED_PAGE_SIZE });
    if (getState().openConversationId !== conversationId) return;
    setState((state) => applyCoveredPage(state, summaryId, page));
  } catch (error) {
    setState((state) => updateCoveredRows(state, summaryId, { status: 'error', error: errorText(error) }));
  }
}

export async function loadOlderCoveredMessages(summaryId: string): Promise<void> {
  const state = getState();
  const rows = state.coveredBySummary[summaryId];
  const conversationId = state.openConversationId;
  if (rows === undefined || !rows.hasOlder || rows.loadingOlder || rows.status !== 'ready') return;
  const beforeSeq = pagingCursor(rows.messages);
  if (beforeSeq === undefined) return;
  setState((current) => updateCoveredRows(current, summaryId, { loadingOlder: true }));
  try {
    const page = await api().listCoveredMessages({ summaryId, beforeSeq, limit: COVERED_PAGE_SIZE });
    if (getState().openConversationId !== conversationId) return;
    setState((current) => applyOlderCoveredPage(current, summaryId, page));
  } catch (error) {
    setState((current) => updateCoveredRows(current, summaryId, { loadingOlder: false }));
    showNotice(`Could not load older messages: ${errorText(error)}`);
  }
}
