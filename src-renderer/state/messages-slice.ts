import type { InvocationView, MessagePage, MessageView } from '../../src-shared/api';
import type { TurnReceipt } from '../../src-shared/receipt';

export type PageStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The open conversation's loaded messages: a window of contiguous pages, oldest first. */
export interface MessagesSlice {
  readonly openConversationId: string | null;
  readonly messagesById: Readonly<Record<string, MessageView>>;
  readonly messageIds: readonly string[];
  /**
   * Text of replies still streaming, kept apart from `messagesById` so a delta copies one small record,
   * not an entry per loaded message.
   */
  readonly streamingText: Readonly<Record<string, string>>;
  /** The tool, memory and skill uses of the loaded replies, by message id, in the order they ran. */
  readonly invocationsByMessage: Readonly<Record<string, readonly InvocationView[]>>;
  /** Receipts the host sent as turns ended: they take precedence over receipts built from loaded rows. */
  readonly receiptsByMessage: Readonly<Record<string, TurnReceipt>>;
  readonly hasOlder: boolean;
  readonly pageStatus: PageStatus;
  readonly pageError: string | null;
  readonly loadingOlder: boolean;
}

export const initialMessagesSlice: MessagesSlice = {
  openConversationId: null,
  messagesById: {},
  messageIds: [],
  streamingText: {},
  invocationsByMessage: {},
  receiptsByMessage: {},
  hasOlder: false,
  pageStatus: 'idle',
  pageError: null,
  loadingOlder: false,
};

export function openConversationState(conversationId: string | null): MessagesSlice {
  return {
    ...initialMessagesSlice,
    openConversationId: conversationId,
    pageStatus: conversationId === null ? 'idle' : 'loading',
  };
}

/** The text a row shows: the streamed text while a reply streams, else the stored text. */
export function displayedText(state: MessagesSlice, message: MessageView): string {
  return state.streamingText[message.id] ?? message.text;
}

function isOrderedBySeq(ids: readonly string[], byId: Readonly<Record<string, MessageView>>): boolean {
  let previous = -Infinity;
  for (const id of ids) {
    const seq = byId[id]?.seq ?? previous;
    if (seq < previous) return false;
    previous = seq;
  }
  return true;
}

type MergedMessages = Pick<MessagesSlice, 'messagesById' | 'messageIds' | 'streamingText'>;

/** Upserts messages of the open conversation, keeping ids ordered by seq. */
export function mergeMessages(state: MessagesSlice, messages: readonly MessageView[]): MergedMessages {
  const ownMessages = messages.filter((message) => message.conversationId === state.openConversationId);
  if (ownMessages.length === 0) {
    return { messagesById: state.messagesById, messageIds: state.messageIds, streamingText: state.streamingText };
  }
  const messagesById: Record<string, MessageView> = { ...state.messagesById };
  let streamingText: Record<string, string> | null = null;
  const addedIds: string[] = [];
  for (const message of ownMessages) {
    if (!(message.id in messagesById) && !addedIds.includes(message.id)) addedIds.push(message.id);
    messagesById[message.id] = message;
    const streamed = state.streamingText[message.id];
    // Streamed text that extends the stored text is newer than it; anything else is replaced by the stored text.
    if (streamed !== undefined && (message.status !== 'streaming' || !streamed.startsWith(message.text))) {
      streamingText ??= { ...state.streamingText };
      delete streamingText[message.id];
    }
  }
  let messageIds: readonly string[] = state.messageIds;
  if (addedIds.length > 0) {
    const combined = [...state.messageIds, ...addedIds];
    messageIds = isOrderedBySeq(combined, messagesById)
      ? combined
      : combined.sort((left, right) => (messagesById[left]?.seq ?? 0) - (messagesById[right]?.seq ?? 0));
  }
  return { messagesById, messageIds, streamingText: streamingText ?? state.streamingText };
}

/** The newest page, fetched on opening a conversation. Messages that arrived by event meanwhile are kept. */
export function applyOpeningPage(state: MessagesSlice, page: MessagePage): Partial<MessagesSlice> {
  return {
    ...mergeMessages(state, page.messages),
    ...mergeInvocations(state, page.invocations),
    hasOlder: page.hasOlder,
    pageStatus: 'ready',
    pageError: null,
  };
}

/**
 * The newest page fetched again after events may have been missed. It is merged when it overlaps what is loaded;
 * after a gap it replaces the loaded window, since the messages in between are unknown.
 */
export function applyResyncPage(state: MessagesSlice, page: MessagePage): Partial<MessagesSlice> {
  const firstOfPage = page.messages[0];
  const lastLoadedId = state.messageIds[state.messageIds.length - 1];
  const lastLoaded = lastLoadedId === undefined ? undefined : state.messagesById[lastLoadedId];
  const overlaps =
    lastLoaded === undefined || firstOfPage === undefined || !page.hasOlder || firstOfPage.seq <= lastLoaded.seq;
  if (overlaps) {
    return {
      ...mergeMessages(state, page.messages),
      ...mergeInvocations(state, page.invocations),
      hasOlder: lastLoaded === undefined ? page.hasOlder : state.hasOlder,
      pageStatus: 'ready',
      pageError: null,
    };
  }
  const fresh = openConversationState(state.openConversationId);
  return {
    ...fresh,
    ...mergeMessages(fresh, page.messages),
    ...mergeInvocations(fresh, page.invocations),
    hasOlder: page.hasOlder,
    pageStatus: 'ready',
  };
}

export function applyOlderPage(state: MessagesSlice, page: MessagePage): Partial<MessagesSlice> {
  return {
    ...mergeMessages(state, page.messages),
    ...mergeInvocations(state, page.invocations),
    hasOlder: page.hasOlder,
    loadingOlder: false,
  };
}

/** Appends streamed text to one reply; null when the reply is not loaded. */
export function appendDelta(
  state: MessagesSlice,
  messageId: string,
  textDelta: string,
): Pick<MessagesSlice, 'streamingText'> | null {
  const message = state.messagesById[messageId];
  if (message === undefined) return null;
  const current = state.streamingText[messageId] ?? message.text;
  return { streamingText: { ...state.streamingText, [messageId]: current + textDelta } };
}

/**
 * Upserts invocation rows by id under their messages, kept in the order they ran. Only the lists of the messages
 * named are replaced, so the receipts of other rows keep their identity.
 */
export function mergeInvocations(
  state: Pick<MessagesSlice, 'invocationsByMessage'>,
  invocations: readonly InvocationView[],
): Pick<MessagesSlice, 'invocationsByMessage'> {
  if (invocations.length === 0) return { invocationsByMessage: state.invocationsByMessage };
  const incomingByMessage = new Map<string, InvocationView[]>();
  for (const invocation of invocations) {
    const incoming = incomingByMessage.get(invocation.messageId);
    if (incoming === undefined) incomingByMessage.set(invocation.messageId, [invocation]);
    else incoming.push(invocation);
  }
  const invocationsByMessage: Record<string, readonly InvocationView[]> = { ...state.invocationsByMessage };
  for (const [messageId, incoming] of incomingByMessage) {
    const byId = new Map((invocationsByMessage[messageId] ?? []).map((known) => [known.id, known]));
    for (const invocation of incoming) byId.set(invocation.id, invocation);
    invocationsByMessage[messageId] = [...byId.values()].sort((left, right) => left.seq - right.seq);
  }
  return { invocationsByMessage };
}

/** The receipt the host sent for one reply. */
export function applyReceipt(
  state: Pick<MessagesSlice, 'receiptsByMessage'>,
  messageId: string,
  receipt: TurnReceipt,
): Pick<MessagesSlice, 'receiptsByMessage'> {
  return { receiptsByMessage: { ...state.receiptsByMessage, [messageId]: receipt } };
}
