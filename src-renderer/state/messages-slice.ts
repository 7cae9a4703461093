import type { InvocationView, MessagePage, MessageView } from '../../src-shared/api';
import type { TurnReceipt } from '../../src-shared/receipt';

export type PageStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The rows one summary covers, loaded when the person expands it: oldest first, paged from the newest. */
export interface CoveredRows {
  readonly messages: readonly MessageView[];
  readonly hasOlder: boolean;
  readonly status: 'loading' | 'ready' | 'error';
  readonly error: string | null;
  readonly loadingOlder: boolean;
}

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
  /** Readable reasoning of replies still streaming, by message id; a finished reply carries its own. */
  readonly streamingReasoning: Readonly<Record<string, string>>;
  /** The tool, memory and skill uses of the loaded replies, by message id, in the order they ran. */
  readonly invocationsByMessage: Readonly<Record<string, readonly InvocationView[]>>;
  /** Receipts the host sent as turns ended: they take precedence over receipts built from loaded rows. */
  readonly receiptsByMessage: Readonly<Record<string, TurnReceipt>>;
  readonly hasOlder: boolean;
  readonly pageStatus: PageStatus;
  readonly pageError: string | null;
  readonly loadingOlder: boolean;
  /** Rows of the open conversation's summaries, by summary id, once expanded. */
  readonly coveredBySummary: Readonly<Record<string, CoveredRows>>;
  /** The user message whose editor is open in place of its text, or null. */
  readonly editingMessageId: string | null;
}

export const initialMessagesSlice: MessagesSlice = {
  openConversationId: null,
  messagesById: {},
  messageIds: [],
  streamingText: {},
  streamingReasoning: {},
  invocationsByMessage: {},
  receiptsByMessage: {},
  hasOlder: false,
  pageStatus: 'idle',
  pageError: null,
  loadingOlder: false,
  coveredBySummary: {},
  editingMessageId: null,
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

/**
 * Where a row sits in the list. A summary is stored after the rows it covers, so its seq is newer than rows shown
 * below it; the live summary stands for the start of the conversation and comes first.
 */
function listPosition(message: MessageView | undefined): number {
  if (message === undefined) return Infinity;
  return message.kind === 'summary' ? -Infinity : message.seq;
}

function compareListPosition(left: MessageView | undefined, right: MessageView | undefined): number {
  const byPosition = listPosition(left) - listPosition(right);
  if (!Number.isNaN(byPosition) && byPosition !== 0) return byPosition;
  return (left?.seq ?? 0) - (right?.seq ?? 0);
}

function isOrderedByPosition(ids: readonly string[], byId: Readonly<Record<string, MessageView>>): boolean {
  for (let index = 1; index < ids.length; index += 1) {
    const previous = byId[ids[index - 1] ?? ''];
    const current = byId[ids[index] ?? ''];
    if (previous !== undefined && current !== undefined && compareListPosition(previous, current) > 0) return false;
  }
  return true;
}

/**
 * The seq to page before: the oldest row that is not a summary. A summary's seq is newer than rows after it, so
 * paging before it would skip them. Undefined when only summaries are loaded.
 */
export function pagingCursor(messages: readonly (MessageView | undefined)[]): number | undefined {
  let oldest: number | undefined;
  for (const message of messages) {
    if (message === undefined || message.kind === 'summary') continue;
    if (oldest === undefined || message.seq < oldest) oldest = message.seq;
  }
  return oldest;
}

/** The newest seq among rows that are not summaries. */
function newestRowSeq(messages: readonly (MessageView | undefined)[]): number | undefined {
  let newest: number | undefined;
  for (const message of messages) {
    if (message === undefined || message.kind === 'summary') continue;
    if (newest === undefined || message.seq > newest) newest = message.seq;
  }
  return newest;
}

type MergedMessages = Pick<MessagesSlice, 'messagesById' | 'messageIds' | 'streamingText'>;

/** Upserts messages of the open conversation, keeping ids ordered by seq, the live summary first. */
/**
 * Whether `current` is a later state of the same row than `incoming`: a page read while a reply finished can arrive
 * after the event that finished it, and must not turn it back into a streaming row. A finished row never streams
 * again, and every change to a row moves its `updatedAt` on.
 */
export function isLaterState(current: MessageView | undefined, incoming: MessageView): current is MessageView {
  if (current === undefined) return false;
  if (current.status !== 'streaming' && incoming.status === 'streaming') return true;
  return current.updatedAt > incoming.updatedAt;
}

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
    if (isLaterState(messagesById[message.id], message)) continue;
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
    messageIds = isOrderedByPosition(combined, messagesById)
      ? combined
      : combined.sort((left, right) => compareListPosition(messagesById[left], messagesById[right]));
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
  const firstOfPage = pagingCursor(page.messages);
  const lastLoaded = newestRowSeq(state.messageIds.map((id) => state.messagesById[id]));
  const overlaps = lastLoaded === undefined || firstOfPage === undefined || !page.hasOlder || firstOfPage <= lastLoaded;
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

/**
 * The newest page fetched again after a compaction moved rows under a summary: it replaces the loaded window (the
 * rows the summary covers left the list). Rows that arrived by event while the page was read (not in `loadedBefore`)
 * stay.
 */
export function applyReloadedPage(
  state: MessagesSlice,
  page: MessagePage,
  loadedBefore: ReadonlySet<string>,
): Partial<MessagesSlice> {
  const fresh: MessagesSlice = {
    ...openConversationState(state.openConversationId),
    invocationsByMessage: state.invocationsByMessage,
    receiptsByMessage: state.receiptsByMessage,
  };
  const arrivedSince = state.messageIds
    .filter((id) => !loadedBefore.has(id))
    .map((id) => state.messagesById[id])
    .filter((message): message is MessageView => message !== undefined && message.kind !== 'summary');
  // A row the page holds in an earlier state than events already brought (a reply that finished while it was read)
  // keeps the later state.
  const pageMessages = page.messages.map((message) => {
    const current = state.messagesById[message.id];
    return isLaterState(current, message) ? current : message;
  });
  const merged = mergeMessages(fresh, [...pageMessages, ...arrivedSince]);
  const streamingText: Record<string, string> = {};
  for (const message of [...pageMessages, ...arrivedSince]) {
    const streamed = state.streamingText[message.id];
    if (streamed !== undefined && message.status === 'streaming' && streamed.startsWith(message.text)) streamingText[message.id] = streamed;
  }
  return {
    ...fresh,
    ...merged,
    streamingText,
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

/**
 * Appends streamed text to replies, in one copy of `streamingText`. Text for a row that is not loaded or no longer
 * streams is dropped: the row's stored text already ends the reply. Null when nothing changes.
 */
export function appendDeltas(
  state: MessagesSlice,
  textByMessage: ReadonlyMap<string, string>,
): Pick<MessagesSlice, 'streamingText'> | null {
  let streamingText: Record<string, string> | null = null;
  for (const [messageId, textDelta] of textByMessage) {
    const message = state.messagesById[messageId];
    if (message?.status !== 'streaming') continue;
    streamingText ??= { ...state.streamingText };
    streamingText[messageId] = (streamingText[messageId] ?? message.text) + textDelta;
  }
  return streamingText === null ? null : { streamingText };
}

/** Appends streamed reasoning to replies still streaming, in one copy of `streamingReasoning`. Null when nothing changes. */
export function appendReasoningDeltas(
  state: MessagesSlice,
  textByMessage: ReadonlyMap<string, string>,
): Pick<MessagesSlice, 'streamingReasoning'> | null {
  let streamingReasoning: Record<string, string> | null = null;
  for (const [messageId, textDelta] of textByMessage) {
    const message = state.messagesById[messageId];
    if (message?.status !== 'streaming') continue;
    streamingReasoning ??= { ...state.streamingReasoning };
    streamingReasoning[messageId] = (streamingReasoning[messageId] ?? '') + textDelta;
  }
  return streamingReasoning === null ? null : { streamingReasoning };
}

/** A reply ended: the reasoning it streamed gives way to the reasoning stored with it. */
export function dropStreamedReasoning(state: MessagesSlice, messageId: string): Pick<MessagesSlice, 'streamingReasoning'> {
  if (!(messageId in state.streamingReasoning)) return { streamingReasoning: state.streamingReasoning };
  const streamingReasoning = { ...state.streamingReasoning };
  delete streamingReasoning[messageId];
  return { streamingReasoning };
}

/** The reasoning a reply shows: what has streamed while it streams, else what was stored with it. */
export function displayedReasoning(state: MessagesSlice, message: MessageView): string {
  if (message.status === 'streaming') return state.streamingReasoning[message.id] ?? message.reasoning?.text ?? '';
  return message.reasoning?.text ?? '';
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

/** A summary's rows are being fetched for the first time. */
export function startCoveredRows(state: MessagesSlice, summaryId: string): Pick<MessagesSlice, 'coveredBySummary'> {
  const loading: CoveredRows = { messages: [], hasOlder: false, status: 'loading', error: null, loadingOlder: false };
  return { coveredBySummary: { ...state.coveredBySummary, [summaryId]: loading } };
}

/** The newest page of a summary's rows. */
export function applyCoveredPage(
  state: MessagesSlice,
  summaryId: string,
  page: MessagePage,
): Pick<MessagesSlice, 'coveredBySummary' | 'invocationsByMessage'> {
  const rows: CoveredRows = { messages: page.messages, hasOlder: page.hasOlder, status: 'ready', error: null, loadingOlder: false };
  return { coveredBySummary: { ...state.coveredBySummary, [summaryId]: rows }, ...mergeInvocations(state, page.invocations) };
}

/** An older page of a summary's rows, put before those loaded. */
export function applyOlderCoveredPage(
  state: MessagesSlice,
  summaryId: string,
  page: MessagePage,
): Pick<MessagesSlice, 'coveredBySummary' | 'invocationsByMessage'> {
  const current = state.coveredBySummary[summaryId];
  if (current === undefined) return { coveredBySummary: state.coveredBySummary, invocationsByMessage: state.invocationsByMessage };
  const loadedIds = new Set(current.messages.map((message) => message.id));
  const older = page.messages.filter((message) => !loadedIds.has(message.id));
  const rows: CoveredRows = { ...current, messages: [...older, ...current.messages], hasOlder: page.hasOlder, loadingOlder: false };
  return { coveredBySummary: { ...state.coveredBySummary, [summaryId]: rows }, ...mergeInvocations(state, page.invocations) };
}

/** `loadingOlder` set or cleared, or a load failure recorded, for one summary's rows. */
export function updateCoveredRows(
  state: MessagesSlice,
  summaryId: string,
  change: Partial<Pick<CoveredRows, 'loadingOlder' | 'status' | 'error'>>,
): Pick<MessagesSlice, 'coveredBySummary'> {
  const current = state.coveredBySummary[summaryId];
  if (current === undefined) return { coveredBySummary: state.coveredBySummary };
  return { coveredBySummary: { ...state.coveredBySummary, [summaryId]: { ...current, ...change } } };
}

/**
 * The rows shown from the top down to `keepCount`, with everything below dropped: what stays of the list when a branch
 * replaces the path below a fork.
 */
type KeptRows = Pick<MessagesSlice, 'messageIds' | 'messagesById' | 'streamingText' | 'editingMessageId'>;

function keepFirstRows(state: MessagesSlice, keepCount: number): KeptRows {
  const messageIds = state.messageIds.slice(0, keepCount);
  const kept = new Set(messageIds);
  const messagesById: Record<string, MessageView> = {};
  for (const id of messageIds) {
    const message = state.messagesById[id];
    if (message !== undefined) messagesById[id] = message;
  }
  const streamingText = Object.fromEntries(Object.entries(state.streamingText).filter(([id]) => kept.has(id)));
  const editingMessageId = state.editingMessageId !== null && kept.has(state.editingMessageId) ? state.editingMessageId : null;
  return { messageIds, messagesById, streamingText, editingMessageId };
}

/**
 * Where rows that hang under `parentId` go in the list: the count of shown rows that stay above them. The parent
 * itself when it is shown; else the first shown row with the same parent (an alternative the new rows replace: the
 * parent is under a summary, or not loaded); null when the fork is above everything loaded.
 */
function forkPosition(state: MessagesSlice, parentId: string): number | null {
  const parentIndex = state.messageIds.indexOf(parentId);
  if (parentIndex >= 0) return parentIndex + 1;
  const siblingIndex = state.messageIds.findIndex((id) => {
    const shown = state.messagesById[id];
    return shown !== undefined && shown.kind !== 'summary' && shown.parentId === parentId;
  });
  return siblingIndex >= 0 ? siblingIndex : null;
}

function leadingSummaries(state: MessagesSlice): number {
  const firstRow = state.messageIds.findIndex((id) => state.messagesById[id]?.kind !== 'summary');
  return firstRow < 0 ? state.messageIds.length : firstRow;
}

/**
 * A turn's new rows (oldest first). The first one's `parentId` says where they hang: the live path now runs through
 * that parent, so the rows shown below it (another branch) leave the list. A first message (no parent) starts the
 * list again. A fork above the loaded rows leaves only the new rows (under the live summary, if one is shown), with
 * older ones to page in.
 */
export function applyStartedTurn(state: MessagesSlice, rows: readonly MessageView[]): Partial<MessagesSlice> {
  const first = rows[0];
  // Until the opening page is in, nothing shown can belong to another branch; the page merges with these rows.
  if (first === undefined || first.conversationId !== state.openConversationId || state.pageStatus !== 'ready') {
    return mergeMessages(state, rows);
  }
  if (first.parentId === null) {
    const restarted = keepFirstRows(state, 0);
    return { ...restarted, ...mergeMessages({ ...state, ...restarted }, rows), hasOlder: false };
  }
  const position = forkPosition(state, first.parentId);
  if (position === state.messageIds.length) return mergeMessages(state, rows);
  // A live summary stands for the start of every path through the rows it covers, the new one included.
  const kept = keepFirstRows(state, position ?? leadingSummaries(state));
  return { ...kept, ...mergeMessages({ ...state, ...kept }, rows), hasOlder: position === null ? true : state.hasOlder, loadingOlder: false };
}

/**
 * The answer to a branch switch: the new live path from the fork's parent down (or its newest page). Rows above its
 * first row stay; when that row is not shown, the page replaces the list.
 */
export function applyBranchPage(state: MessagesSlice, page: MessagePage): Partial<MessagesSlice> {
  const anchor = page.messages.find((message) => message.kind !== 'summary');
  const anchorIndex = anchor === undefined ? -1 : state.messageIds.indexOf(anchor.id);
  const kept = keepFirstRows(state, Math.max(anchorIndex, 0));
  const base: MessagesSlice = { ...state, ...kept };
  return {
    ...kept,
    ...mergeMessages(base, page.messages),
    ...mergeInvocations(base, page.invocations),
    hasOlder: anchorIndex >= 0 ? state.hasOlder : page.hasOlder,
    loadingOlder: false,
    pageStatus: 'ready',
    pageError: null,
  };
}
