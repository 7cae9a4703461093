import type { ConversationView } from '../../src-shared/api';

export interface ConversationsSlice {
  /** Every conversation seen so far, the open one included even when the search hides it. */
  readonly conversationsById: Readonly<Record<string, ConversationView>>;
  /** The sidebar's list for the current query, newest first. */
  readonly conversationOrder: readonly string[];
  readonly conversationQuery: string;
  readonly conversationsLoaded: boolean;
  /** True when the list holds the first pages only: more come as it scrolls to its end. */
  readonly conversationsHaveMore: boolean;
  readonly loadingMoreConversations: boolean;
  /**
   * Conversations the user deleted whose undo toast still shows, oldest first. They are hidden from the list and
   * deleted in the store only when their toast expires or is dismissed, so Undo never has anything to re-create.
   */
  readonly pendingDeletes: readonly PendingDelete[];
}

export interface PendingDelete {
  readonly conversationId: string;
  /** The title when deleted, for the toast. */
  readonly title: string;
  /** Whether it was the open conversation, to open it again on Undo. */
  readonly wasOpen: boolean;
}

export const initialConversationsSlice: ConversationsSlice = {
  conversationsById: {},
  conversationOrder: [],
  conversationQuery: '',
  conversationsLoaded: false,
  conversationsHaveMore: false,
  loadingMoreConversations: false,
  pendingDeletes: [],
};

export function compareNewestFirst(left: ConversationView, right: ConversationView): number {
  if (left.updatedAt !== right.updatedAt) return left.updatedAt < right.updatedAt ? 1 : -1;
  if (left.id === right.id) return 0;
  return left.id < right.id ? 1 : -1;
}

export function titleMatchesQuery(title: string, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  return needle === '' || title.toLocaleLowerCase().includes(needle);
}

function sortedIds(byId: Readonly<Record<string, ConversationView>>, ids: Iterable<string>): string[] {
  const conversations: ConversationView[] = [];
  for (const id of ids) {
    const conversation = byId[id];
    if (conversation !== undefined) conversations.push(conversation);
  }
  return conversations.sort(compareNewestFirst).map((conversation) => conversation.id);
}

/** A fresh list from `listConversations` for `query`; `haveMore` when it is a first page with more after it. */
export function replaceConversationList(
  state: ConversationsSlice,
  query: string,
  conversations: readonly ConversationView[],
  haveMore = false,
): Partial<ConversationsSlice> {
  const conversationsById = { ...state.conversationsById };
  for (const conversation of conversations) conversationsById[conversation.id] = conversation;
  const visible = conversations
    .filter((conversation) => !conversation.archived && !isPendingDelete(state, conversation.id))
    .map((conversation) => conversation.id);
  return {
    conversationsById,
    conversationOrder: sortedIds(conversationsById, new Set(visible)),
    conversationQuery: query,
    conversationsLoaded: true,
    conversationsHaveMore: haveMore,
    loadingMoreConversations: false,
  };
}

/** Where the next page of the list starts: after its last conversation. Undefined for an empty list. */
export function conversationListCursor(state: ConversationsSlice): { readonly updatedAt: string; readonly id: string } | undefined {
  const last = state.conversationsById[state.conversationOrder[state.conversationOrder.length - 1] ?? ''];
  return last === undefined ? undefined : { updatedAt: last.updatedAt, id: last.id };
}

/** The next page of the list, after those shown. */
export function appendConversationPage(
  state: ConversationsSlice,
  conversations: readonly ConversationView[],
  haveMore: boolean,
): Partial<ConversationsSlice> {
  const conversationsById = { ...state.conversationsById };
  const listed = new Set(state.conversationOrder);
  const added: string[] = [];
  for (const conversation of conversations) {
    conversationsById[conversation.id] = conversation;
    if (!conversation.archived && !isPendingDelete(state, conversation.id) && !listed.has(conversation.id)) added.push(conversation.id);
  }
  return {
    conversationsById,
    // The page comes after the last one shown, in the list's order: appended, nothing sorts again.
    conversationOrder: [...state.conversationOrder, ...added],
    conversationsHaveMore: haveMore,
    loadingMoreConversations: false,
  };
}

/** A created or changed conversation: kept in the list while it matches the query, and moved to its place. */
export function upsertConversation(
  state: ConversationsSlice,
  conversation: ConversationView,
): Partial<ConversationsSlice> {
  const conversationsById = { ...state.conversationsById, [conversation.id]: conversation };
  const listed = new Set(state.conversationOrder);
  const last = state.conversationsById[state.conversationOrder[state.conversationOrder.length - 1] ?? ''];
  // Past the pages loaded, a conversation comes with its page: listed now, it would move the next page's cursor past
  // the ones between.
  const beyondLoadedPages = state.conversationsHaveMore && last !== undefined && compareNewestFirst(conversation, last) > 0;
  const shouldList =
    !conversation.archived &&
    !isPendingDelete(state, conversation.id) &&
    (listed.has(conversation.id) || (!beyondLoadedPages && titleMatchesQuery(conversation.title, state.conversationQuery)));
  if (shouldList) listed.add(conversation.id);
  else listed.delete(conversation.id);
  return { conversationsById, conversationOrder: sortedIds(conversationsById, listed) };
}

export function removeConversation(state: ConversationsSlice, conversationId: string): Partial<ConversationsSlice> {
  const pending = isPendingDelete(state, conversationId);
  if (!(conversationId in state.conversationsById) && !state.conversationOrder.includes(conversationId) && !pending) return {};
  const conversationsById = { ...state.conversationsById };
  delete conversationsById[conversationId];
  return {
    conversationsById,
    conversationOrder: state.conversationOrder.filter((id) => id !== conversationId),
    ...(pending ? { pendingDeletes: state.pendingDeletes.filter((entry) => entry.conversationId !== conversationId) } : {}),
  };
}

export function isPendingDelete(state: ConversationsSlice, conversationId: string): boolean {
  return state.pendingDeletes.some((entry) => entry.conversationId === conversationId);
}

/** A delete the user may still undo: the conversation leaves the list at once but stays known. */
export function hideConversation(
  state: ConversationsSlice,
  conversationId: string,
  wasOpen: boolean,
): Partial<ConversationsSlice> {
  const conversation = state.conversationsById[conversationId];
  if (conversation === undefined || isPendingDelete(state, conversationId)) return {};
  return {
    conversationOrder: state.conversationOrder.filter((id) => id !== conversationId),
    pendingDeletes: [...state.pendingDeletes, { conversationId, title: conversation.title, wasOpen }],
  };
}

/** Undo: the conversation goes back to its place in the list, as any changed conversation would. */
export function unhideConversation(state: ConversationsSlice, conversationId: string): Partial<ConversationsSlice> {
  if (!isPendingDelete(state, conversationId)) return {};
  const shown = { ...state, pendingDeletes: state.pendingDeletes.filter((entry) => entry.conversationId !== conversationId) };
  const conversation = state.conversationsById[conversationId];
  return {
    pendingDeletes: shown.pendingDeletes,
    ...(conversation === undefined ? {} : upsertConversation(shown, conversation)),
  };
}
