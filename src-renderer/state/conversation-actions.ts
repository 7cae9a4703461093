import type { ConversationView, ExportFormat, ExportOptions, ExportResult, ImportSummaryView } from '../../src-shared/api';
import { startsLikeZip } from '../../src-shared/zip-signature';
import { writeConversationHash } from '../routing/hash-route';
import { api, errorText } from './api-client';
import { loadApprovals } from './approval-actions';
import { loadNotAnswering } from './outside-actions';
import {
  appendConversationPage,
  conversationListCursor,
  hideConversation,
  isPendingDelete,
  removeConversation,
  replaceConversationList,
  unhideConversation,
  upsertConversation,
} from './conversations-slice';
import { dropConversationHits } from './search-slice';
import {
  applyBranchPage,
  applyNewerPage,
  applyOlderPage,
  applyOpeningPage,
  applyReloadedPage,
  applyResyncPage,
  newestRowSeq,
  openConversationState,
  pagingCursor,
} from './messages-slice';
import { dropPendingDeltas, flushPendingDeltas } from './delta-buffer';
import { beginImport, endImport } from './import-slice';
import { useAppStore } from './store';
import { reconcileActiveTurn } from './turns-slice';

/** Messages fetched per page. */
export const PAGE_SIZE = 50;
/** Conversations fetched per page of the sidebar's list (a search lists every title that matches). */
export const CONVERSATION_PAGE_SIZE = 100;

const { getState, setState } = useAppStore;

let conversationListRequest = 0;
let pageRequest = 0;

export function showNotice(notice: string | null): void {
  setState({ notice });
}

export async function loadConversations(query: string = getState().conversationQuery): Promise<void> {
  const request = ++conversationListRequest;
  setState({ conversationQuery: query });
  const trimmed = query.trim();
  try {
    const conversations = await api().listConversations(trimmed === '' ? { limit: CONVERSATION_PAGE_SIZE } : { query: trimmed });
    if (request !== conversationListRequest) return;
    const haveMore = trimmed === '' && conversations.length === CONVERSATION_PAGE_SIZE;
    setState((state) => replaceConversationList(state, query, conversations, haveMore));
  } catch (error) {
    if (request === conversationListRequest) showNotice(`Could not load conversations: ${errorText(error)}`);
  }
}

/** The sidebar's next page of conversations, after the last one it shows. */
export async function loadMoreConversations(): Promise<void> {
  const state = getState();
  const before = conversationListCursor(state);
  if (!state.conversationsHaveMore || state.loadingMoreConversations || before === undefined) return;
  const request = conversationListRequest;
  setState({ loadingMoreConversations: true });
  try {
    const conversations = await api().listConversations({ before, limit: CONVERSATION_PAGE_SIZE });
    if (request !== conversationListRequest) return;
    setState((current) => appendConversationPage(current, conversations, conversations.length === CONVERSATION_PAGE_SIZE));
  } catch (error) {
    if (request !== conversationListRequest) return;
    setState({ loadingMoreConversations: false });
    showNotice(`Could not load conversations: ${errorText(error)}`);
  }
}

export function closeConversation(): void {
  pageRequest += 1;
  dropPendingDeltas();
  setState({ ...openConversationState(null), requestPreviewOpen: false, compactDialogOpen: false });
  writeConversationHash(null);
}

export async function openConversation(conversationId: string): Promise<void> {
  const state = getState();
  // Choosing a conversation in a narrow window's sidebar overlay reveals the conversation.
  if (state.sidebarOverlayOpen) setState({ sidebarOverlayOpen: false });
  if (state.openConversationId === conversationId && state.pageStatus !== 'error') {
    writeConversationHash(conversationId);
    return;
  }
  const request = ++pageRequest;
  dropPendingDeltas();
  setState({ ...openConversationState(conversationId), requestPreviewOpen: false, compactDialogOpen: false });
  writeConversationHash(conversationId);
  const conversationRequest = api()
    .getConversation({ id: conversationId })
    .then((conversation) => ({ conversation, missing: false }) as const)
    .catch(() => ({ conversation: null, missing: true }) as const);
  try {
    const [page, lookup] = await Promise.all([
      api().listMessages({ conversationId, limit: PAGE_SIZE }),
      conversationRequest,
    ]);
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => ({
      ...applyOpeningPage(current, page),
      ...reconcileActiveTurn(current, conversationId, page.messages),
      ...(lookup.conversation === null ? {} : upsertConversation(current, lookup.conversation)),
    }));
  } catch (error) {
    if (request !== pageRequest) return;
    if ((await conversationRequest).missing) {
      closeConversation();
      setState((current) => removeConversation(current, conversationId));
      showNotice('That conversation no longer exists.');
      return;
    }
    setState({ pageStatus: 'error', pageError: errorText(error) });
  }
}

export async function loadOlderMessages(limit = PAGE_SIZE): Promise<void> {
  const state = getState();
  const conversationId = state.openConversationId;
  const beforeSeq = pagingCursor(state.messageIds.map((id) => state.messagesById[id]));
  if (conversationId === null || beforeSeq === undefined || !state.hasOlder || state.loadingOlder) return;
  if (state.pageStatus !== 'ready') return;
  const request = pageRequest;
  setState({ loadingOlder: true });
  try {
    const page = await api().listMessages({ conversationId, beforeSeq, limit });
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => applyOlderPage(current, page));
  } catch (error) {
    if (request !== pageRequest) return;
    setState({ loadingOlder: false });
    showNotice(`Could not load older messages: ${errorText(error)}`);
  }
}

/** Fetches again, after the window's newest row, a page the window let go of while the view was further up. */
export async function loadNewerMessages(limit = PAGE_SIZE): Promise<void> {
  const state = getState();
  const conversationId = state.openConversationId;
  const afterSeq = newestRowSeq(state.messageIds.map((id) => state.messagesById[id]));
  if (conversationId === null || afterSeq === undefined || !state.hasNewer || state.loadingNewer) return;
  if (state.pageStatus !== 'ready') return;
  const request = pageRequest;
  setState({ loadingNewer: true });
  try {
    const page = await api().listMessages({ conversationId, afterSeq, limit });
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => applyNewerPage(current, page));
  } catch (error) {
    if (request !== pageRequest) return;
    setState({ loadingNewer: false });
    showNotice(`Could not load newer messages: ${errorText(error)}`);
  }
}

/** The way back to the newest messages from far up: when the window let them go, the newest page replaces it. */
export async function showLatestMessages(): Promise<void> {
  const { openConversationId, hasNewer } = getState();
  if (openConversationId === null || !hasNewer) return;
  await reloadNewestPage(openConversationId);
}

/** Fetches again what pushed events keep current, after some of them may have been lost. */
export async function resync(): Promise<void> {
  const conversationId = getState().openConversationId;
  const listing = Promise.all([loadConversations(), loadApprovals(), loadNotAnswering()]);
  if (conversationId === null) {
    await listing;
    return;
  }
  const request = pageRequest;
  try {
    const page = await api().listMessages({ conversationId, limit: PAGE_SIZE });
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => ({
      ...applyResyncPage(current, page),
      ...reconcileActiveTurn(current, conversationId, page.messages),
    }));
  } catch (error) {
    if (request === pageRequest) showNotice(`Could not refresh this conversation: ${errorText(error)}`);
  }
  await listing;
}

/**
 * Fetches the newest page again, in place of the loaded window: after a compaction moved the oldest rows under a
 * summary, or to go back to the newest messages from a window that let them go.
 */
export async function reloadNewestPage(conversationId: string): Promise<void> {
  if (getState().openConversationId !== conversationId) return;
  const request = ++pageRequest;
  const loadedBefore = new Set(getState().messageIds);
  try {
    const page = await api().listMessages({ conversationId, limit: PAGE_SIZE });
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => ({
      ...applyReloadedPage(current, page, loadedBefore),
      ...reconcileActiveTurn(current, conversationId, page.messages),
    }));
  } catch (error) {
    if (request === pageRequest) showNotice(`Could not refresh this conversation: ${errorText(error)}`);
  }
}

/**
 * Shows the alternative `messageId` (and the newest branch below it): the host moves the conversation's current leaf
 * there, and its answer (the path from the fork down) replaces the rows shown below the fork.
 */
export async function showAlternative(messageId: string): Promise<void> {
  const conversationId = getState().openConversationId;
  if (conversationId === null) return;
  // A page read before the switch would bring back rows of the branch left.
  const request = ++pageRequest;
  try {
    const page = await api().chooseSibling({ messageId });
    if (request !== pageRequest) return;
    flushPendingDeltas();
    setState((current) => ({
      ...applyBranchPage(current, page),
      ...reconcileActiveTurn(current, conversationId, page.messages),
    }));
  } catch (error) {
    if (request === pageRequest) showNotice(`Could not show that alternative: ${errorText(error)}`);
  }
}

let resyncTimer: ReturnType<typeof setTimeout> | null = null;

/** Coalesces resync requests that arrive together (several deltas for a reply not loaded yet). */
export function scheduleResync(delayMs = 150): void {
  if (resyncTimer !== null) return;
  resyncTimer = setTimeout(() => {
    resyncTimer = null;
    void resync();
  }, delayMs);
}

export async function createConversation(): Promise<void> {
  try {
    const conversation = await api().createConversation({});
    if (getState().conversationQuery !== '') void loadConversations('');
    setState((state) => upsertConversation(state, conversation));
    await openConversation(conversation.id);
  } catch (error) {
    showNotice(`Could not create a conversation: ${errorText(error)}`);
  }
}

/** Throws the Api's error, for the caller to show beside the control that asked. */
export async function renameConversation(conversationId: string, title: string): Promise<void> {
  const conversation = await api().renameConversation({ id: conversationId, title });
  setState((state) => upsertConversation(state, conversation));
}

/** How long a deleted conversation can be brought back before it is deleted in the store. */
export const UNDO_DELETE_MS = 8_000;

const undoTimers = new Map<string, ReturnType<typeof setTimeout>>();
/** Deletes sent to the store and not yet answered: too late to undo, and not to be sent twice. */
const committingDeletes = new Set<string>();

/**
 * Deletes as the user sees it at once: the conversation leaves the list (and the window, if open) and a toast offers
 * Undo. The store deletes it only when that toast expires or is dismissed; a window closed or reloaded before then
 * leaves it in the store, so nothing is ever deleted that the user might still have undone.
 */
export function deleteConversation(conversationId: string): void {
  if (isPendingDelete(getState(), conversationId) || !(conversationId in getState().conversationsById)) return;
  const wasOpen = getState().openConversationId === conversationId;
  if (wasOpen) closeConversation();
  setState((state) => ({ ...hideConversation(state, conversationId, wasOpen), ...dropConversationHits(state, conversationId) }));
  undoTimers.set(
    conversationId,
    setTimeout(() => void commitDelete(conversationId), UNDO_DELETE_MS),
  );
}

/**
 * The toast's Undo: nothing was deleted in the store, so the conversation simply shows again, and opens again if it
 * was open and the window has not moved to another one since.
 */
export function undoDelete(conversationId: string): void {
  const pending = getState().pendingDeletes.find((entry) => entry.conversationId === conversationId);
  if (pending === undefined || committingDeletes.has(conversationId)) return;
  clearUndoTimer(conversationId);
  setState((state) => unhideConversation(state, conversationId));
  if (pending.wasOpen && getState().openConversationId === null) void openConversation(conversationId);
}

/** Undoes the newest delete still on offer (Ctrl/Cmd+Z). Returns whether there was one. */
export function undoLatestDelete(): boolean {
  const latest = getState().pendingDeletes.findLast((entry) => !committingDeletes.has(entry.conversationId));
  if (latest === undefined) return false;
  undoDelete(latest.conversationId);
  return true;
}

/** The toast expired or was dismissed: the delete happens in the store, once. */
export async function commitDelete(conversationId: string): Promise<void> {
  if (!isPendingDelete(getState(), conversationId) || committingDeletes.has(conversationId)) return;
  clearUndoTimer(conversationId);
  committingDeletes.add(conversationId);
  try {
    await api().deleteConversation({ id: conversationId });
    setState((state) => removeConversation(state, conversationId));
  } catch (error) {
    // The conversation still exists, so it must not stay hidden as if deleted.
    setState((state) => unhideConversation(state, conversationId));
    showNotice(`Could not delete the conversation: ${errorText(error)}`);
  } finally {
    committingDeletes.delete(conversationId);
  }
}

function clearUndoTimer(conversationId: string): void {
  const timer = undoTimers.get(conversationId);
  if (timer !== undefined) clearTimeout(timer);
  undoTimers.delete(conversationId);
}

export async function exportConversation(conversationId: string, format: ExportFormat, options: ExportOptions = {}): Promise<ExportResult> {
  const { turnIds, ...includes } = options;
  return api().exportConversation({ id: conversationId, format, ...includes, ...(turnIds === undefined ? {} : { turnIds: [...turnIds] }) });
}

/** A file's bytes in base64 without one giant argument list (`String.fromCharCode(...bytes)` overflows the stack). */
function bytesToBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  return btoa(binary);
}

/**
 * Imports a file of conversations (a transcript v1, ChatGPT's or Claude's export, or ChatGPT's zip: the host tells them
 * apart by content) and opens the first new one. A zip goes as bytes, anything else as text. Throws the Api's
 * refusal, which names the first bad path; nothing was imported then.
 */
export async function importConversationsFile(name: string, bytes: Uint8Array): Promise<ImportSummaryView> {
  let input: { name: string; content: string } | { name: string; contentBase64: string };
  if (startsLikeZip(bytes)) input = { name, contentBase64: bytesToBase64(bytes) };
  else {
    const content = new TextDecoder().decode(bytes);
    if (content.trim() === '') throw new Error('The file is empty. Nothing was imported.');
    input = { name, content };
  }
  setState(beginImport(name));
  try {
    const summary = await api().importConversations(input);
    await loadConversations('');
    const first = summary.conversationIds[0];
    if (first !== undefined) await openConversation(first);
    return summary;
  } finally {
    setState(endImport());
  }
}

/** Imports a transcript v1 document and opens it. Throws the Api's refusal, which names the first bad path. */
export async function importTranscript(content: string): Promise<ConversationView> {
  const conversation = await api().importTranscript({ content });
  if (getState().conversationQuery !== '') void loadConversations('');
  setState((state) => upsertConversation(state, conversation));
  await openConversation(conversation.id);
  return conversation;
}
