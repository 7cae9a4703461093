import type { SearchHitView } from '../../src-shared/api';
import { api, errorText } from './api-client';
import { loadOlderMessages, openConversation, showAlternative } from './conversation-actions';
import { pagingCursor, type MessagesSlice } from './messages-slice';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

/** While older messages are still being indexed, the results are asked for again this often. */
const INDEXING_RETRY_MS = 1500;
/** Rows fetched per page while paging back to a hit: a hit far back in a long conversation takes few requests. */
export const HIT_PAGE_SIZE = 500;
/** How long a message opened from a search stays highlighted. */
export const FOCUS_HIGHLIGHT_MS = 2500;

let searchRequest = 0;
let indexingRetry: ReturnType<typeof setTimeout> | null = null;

function clearIndexingRetry(): void {
  if (indexingRetry !== null) clearTimeout(indexingRetry);
  indexingRetry = null;
}

/** Searches messages and titles; a newer query's answer replaces an older one's, whatever order they arrive in. */
export async function searchMessages(query: string): Promise<void> {
  const request = ++searchRequest;
  clearIndexingRetry();
  const trimmed = query.trim();
  if (trimmed === '') {
    setState({ searchQuery: '', searchResults: null, searchStatus: 'idle', searchError: null });
    return;
  }
  setState({ searchQuery: trimmed, searchStatus: 'loading', searchError: null });
  try {
    const results = await api().searchMessages({ query: trimmed });
    if (request !== searchRequest) return;
    setState({ searchResults: results, searchStatus: 'ready' });
    if (results.indexing !== null) {
      indexingRetry = setTimeout(() => void searchMessages(getState().searchQuery), INDEXING_RETRY_MS);
    }
  } catch (error) {
    if (request !== searchRequest) return;
    setState({ searchStatus: 'error', searchError: errorText(error) });
  }
}

let focusTimer: ReturnType<typeof setTimeout> | null = null;

/** Highlights a loaded message of the open conversation for a moment (MessageList scrolls it into view). */
export function focusMessage(messageId: string | null): void {
  if (focusTimer !== null) clearTimeout(focusTimer);
  focusTimer = null;
  setState({ focusedMessageId: messageId });
  if (messageId !== null) focusTimer = setTimeout(() => setState({ focusedMessageId: null }), FOCUS_HIGHLIGHT_MS);
}

function loadedCursor(state: Pick<MessagesSlice, 'messageIds' | 'messagesById'>): number | undefined {
  return pagingCursor(state.messageIds.map((id) => state.messagesById[id]));
}

/**
 * Opens the conversation of a hit at the hit, on its branch: pages back from the newest messages until the hit is loaded (the list
 * holds contiguous pages), then focuses it. A hit the list does not show (a message a summary now stands for) opens
 * the conversation at its newest messages.
 */
export async function openSearchHit(hit: SearchHitView): Promise<void> {
  focusMessage(null);
  if (hit.offBranch && hit.messageId !== null) {
    // The hit's branch is shown first, so the list loads it; where it cannot be (a reply is being written, or a summary
    // now stands for the message) the conversation opens as it is.
    if (getState().openConversationId === hit.conversationId) await showAlternative(hit.messageId);
    else await api().chooseSibling({ messageId: hit.messageId }).catch(() => undefined);
  }
  await openConversation(hit.conversationId);
  const messageId = hit.messageId;
  if (messageId === null) return;
  const loaded = () => getState().messagesById[messageId] !== undefined;
  for (;;) {
    const state = getState();
    if (state.openConversationId !== hit.conversationId || state.pageStatus !== 'ready') return;
    if (loaded() || !state.hasOlder) break;
    if (state.loadingOlder) {
      // A page the list asked for as it scrolled: wait for it rather than skip it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    const cursorBefore = loadedCursor(state);
    await loadOlderMessages(HIT_PAGE_SIZE);
    // A page that failed (a notice says so) moves the window nowhere: stop rather than ask again and again. (The
    // window's length says nothing: past its bound, each page lets as many newer rows go.)
    if (loadedCursor(getState()) === cursorBefore) break;
  }
  if (loaded()) focusMessage(messageId);
}
