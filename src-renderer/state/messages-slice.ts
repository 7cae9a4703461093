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

/**
 * The most rows the list keeps loaded. Paging further drops the pages at the far end of the window (they are out of
 * view: a page loads when the view is near one end, the dropped rows sit at the other) and fetches them again on the
 * way back, so memory and the cost of a page stay the same however far back a person scrolls.
 */
export const MAX_LOADED_ROWS = 400;

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
  /** True when newer rows were let go of (the window is away from the end) and are fetched again on the way down. */
  readonly hasNewer: boolean;
  readonly pageStatus: PageStatus;
  readonly pageError: string | null;
  readonly loadingOlder: boolean;
  readonly loadingNewer: boolean;
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
  hasNewer: false,
  pageStatus: 'idle',
  pageError: null,
  loadingOlder: false,
  loadingNewer: false,
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

/** The newest seq among rows that are not summaries: the cursor to page after. */
export function newestRowSeq(messages: readonly (MessageView | undefined)[]): number | undefined {
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
  const newestLoaded = state.hasNewer ? state.messagesById[state.messageIds[state.messageIds.length - 1] ?? ''] : undefined;
  const ownMessages = messages.filter(
    (message) =>
      message.conversationId === state.openConversationId &&
      // Rows after the window's end belong to the newer pages it let go of: they come back with those pages.
      (newestLoaded === undefined || message.id in state.messagesById || compareListPosition(message, newestLoaded) <= 0),
  );
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
    // New rows come as a page or an event, in list order, and nearly always all after (an event, a newer page) or all
    // before (an older page) the loaded ones: those keep the order without sorting the loaded rows again.
    const appended = [...state.messageIds, ...addedIds];
    const prepended = [...addedIds, ...state.messageIds];
    messageIds = isOrderedByPosition(appended, messagesById)
      ? appended
      : isOrderedByPosition(prepended, messagesById)
        ? prepended
        : appended.sort((left, right) => compareListPosition(messagesById[left], messagesById[right]));
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

type DroppedRows = Pick<
  MessagesSlice,
  'messageIds' | 'messagesById' | 'invocationsByMessage' | 'receiptsByMessage' | 'streamingText' | 'streamingReasoning' | 'editingMessageId'
>;

function withoutKeys<Value>(record: Readonly<Record<string, Value>>, dropped: ReadonlySet<string>): Readonly<Record<string, Value>> {
  if (!Object.keys(record).some((key) => dropped.has(key))) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !dropped.has(key)));
}

/** The window with the rows outside `keptIds` (a contiguous run of the loaded ids) let go of, with all they carry. */
function keepOnly(state: MessagesSlice, keptIds: readonly string[]): DroppedRows {
  const kept = new Set(keptIds);
  const dropped = new Set(state.messageIds.filter((id) => !kept.has(id)));
  const messagesById: Record<string, MessageView> = {};
  for (const id of keptIds) {
    const message = state.messagesById[id];
    if (message !== undefined) messagesById[id] = message;
  }
  return {
    messageIds: keptIds,
    messagesById,
    invocationsByMessage: withoutKeys(state.invocationsByMessage, dropped),
    receiptsByMessage: withoutKeys(state.receiptsByMessage, dropped),
    streamingText: withoutKeys(state.streamingText, dropped),
    streamingReasoning: withoutKeys(state.streamingReasoning, dropped),
    editingMessageId: state.editingMessageId !== null && dropped.has(state.editingMessageId) ? null : state.editingMessageId,
  };
}

/**
 * How many rows may stay after a page of `pageRows` came in: the window's bound, or the page itself when it is longer
 * (a search pages back in long pages and must keep the page it looks in).
 */
function rowsToKeep(pageRows: number, maxRows: number): number {
  return Math.max(maxRows, pageRows);
}

/**
 * An older page, put before the loaded rows. Past `maxRows`, the newest rows (the far end from a view at the top)
 * are let go of, unless a reply is still streaming among them: its deltas need its row.
 */
export function applyOlderPage(state: MessagesSlice, page: MessagePage, maxRows = MAX_LOADED_ROWS): Partial<MessagesSlice> {
  const merged: MessagesSlice = { ...state, ...mergeMessages(state, page.messages), ...mergeInvocations(state, page.invocations) };
  const keep = rowsToKeep(page.messages.length, maxRows);
  const surplus = merged.messageIds.slice(keep);
  const canDrop = surplus.length > 0 && surplus.every((id) => merged.messagesById[id]?.status !== 'streaming');
  const trimmed = canDrop ? keepOnly(merged, merged.messageIds.slice(0, keep)) : merged;
  return {
    ...loadedRowsOf(trimmed),
    hasOlder: page.hasOlder,
    hasNewer: state.hasNewer || canDrop,
    loadingOlder: false,
  };
}

/** The loaded rows and everything kept per row, as an update of the slice. */
function loadedRowsOf(slice: DroppedRows): DroppedRows {
  return {
    messageIds: slice.messageIds,
    messagesById: slice.messagesById,
    invocationsByMessage: slice.invocationsByMessage,
    receiptsByMessage: slice.receiptsByMessage,
    streamingText: slice.streamingText,
    streamingReasoning: slice.streamingReasoning,
    editingMessageId: slice.editingMessageId,
  };
}

/**
 * A newer page (read after the window's newest row), put after the loaded rows. Past `maxRows`, the oldest rows (the
 * far end from a view at the bottom) are let go of; they are paged in again on the way up.
 */
export function applyNewerPage(state: MessagesSlice, page: MessagePage, maxRows = MAX_LOADED_ROWS): Partial<MessagesSlice> {
  // The page is the rows just after the window's end: the rule that holds back rows past the end does not apply.
  const opened: MessagesSlice = { ...state, hasNewer: false };
  const merged: MessagesSlice = { ...state, ...mergeMessages(opened, page.messages), ...mergeInvocations(state, page.invocations) };
  const keep = rowsToKeep(page.messages.length, maxRows);
  const surplus = Math.max(merged.messageIds.length - keep, 0);
  const trimmed = surplus > 0 ? keepOnly(merged, merged.messageIds.slice(surplus)) : merged;
  return {
    ...loadedRowsOf(trimmed),
    hasOlder: state.hasOlder || surplus > 0,
    hasNewer: page.hasNewer ?? false,
    loadingNewer: false,
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
  // The new rows are the conversation's newest: rows the window let go of below them are of the branch they replace.
  const current: MessagesSlice = { ...state, hasNewer: false };
  if (first.parentId === null) {
    const restarted = keepFirstRows(current, 0);
    return { ...restarted, ...mergeMessages({ ...current, ...restarted }, rows), hasOlder: false, hasNewer: false };
  }
  const position = forkPosition(current, first.parentId);
  if (position === current.messageIds.length) return { ...mergeMessages(current, rows), hasNewer: false };
  // A live summary stands for the start of every path through the rows it covers, the new one included.
  const kept = keepFirstRows(current, position ?? leadingSummaries(current));
  return {
    ...kept,
    ...mergeMessages({ ...current, ...kept }, rows),
    hasOlder: position === null ? true : state.hasOlder,
    hasNewer: false,
    loadingOlder: false,
    loadingNewer: false,
  };
}

/**
 * The answer to a branch switch: the new live path from the fork's parent down (or its newest page). Rows above its
 * first row stay; when that row is not shown, the page replaces the list.
 */
export function applyBranchPage(state: MessagesSlice, page: MessagePage): Partial<MessagesSlice> {
  const anchor = page.messages.find((message) => message.kind !== 'summary');
  const anchorIndex = anchor === undefined ? -1 : state.messageIds.indexOf(anchor.id);
  const kept = keepFirstRows(state, Math.max(anchorIndex, 0));
  // The page runs down to the new path's leaf: nothing the window let go of lies below it.
  const base: MessagesSlice = { ...state, ...kept, hasNewer: false };
  return {
    ...kept,
    ...mergeMessages(base, page.messages),
    ...mergeInvocations(base, page.invocations),
    hasOlder: anchorIndex >= 0 ? state.hasOlder : page.hasOlder,
    hasNewer: false,
    loadingNewer: false,
    loadingOlder: false,
    pageStatus: 'ready',
    pageError: null,
  };
}
