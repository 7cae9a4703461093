import { and, asc, desc, eq, getTableColumns, getTableName, gt, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { AttachmentView, MessageKind, MessageRole, MessageStatus, MessageView, ReasoningView, SpendView, SiblingsView, TurnError, Usage } from '../../../src-shared/api';
import { isBrainId, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { isSameModel } from '../../../src-shared/models/same-model';
import { messages } from '../../../db/schema';
import { estimateMessageTokens } from '../context/token-estimate';
import { attachmentsOfMessages } from './attachments';
import { currentLeafId, extendLeaf, moveLeaf, siblingsOf } from './branches';
import { inTransaction, type AppDatabase } from './open';
import { replyUsageByTurn, spendView } from './request-usage';
import { statementCacheFor } from './statements';

export type MessageRow = typeof messages.$inferSelect;

/** Reasoning as stored: its own brain and model, the readable text, and the opaque carriers verbatim. */
export interface StoredReasoning {
  readonly brain: BrainId;
  readonly model: string;
  readonly text: string;
  readonly opaque: unknown;
  /** How long the brain reasoned before its first words or call, as measured while it streamed (absent on older rows). */
  readonly durationMs?: number;
}

/**
 * Where one tool round of a reply ended, as the reply streamed: how long its words and its reasoning text had grown,
 * how many reasoning blocks it had given, and how many calls that round ran.
 */
export interface StoredRoundEnd {
  readonly textLength: number;
  readonly reasoningTextLength: number;
  readonly reasoningBlockCount: number;
  readonly callCount: number;
}

/** The readable part of stored reasoning: the opaque carriers stay in the main process. */
function toReasoningView(stored: unknown): ReasoningView | null {
  const reasoning = stored as Partial<StoredReasoning> | null;
  if (typeof reasoning?.text !== 'string' || reasoning.text.length === 0) return null;
  const { durationMs } = reasoning;
  return { text: reasoning.text, durationMs: typeof durationMs === 'number' && Number.isFinite(durationMs) ? durationMs : null };
}

/**
 * `coveredMessages`: for a summary row, how many rows it covers directly (see `countCoveredMessages`); `siblings`: its
 * place among its alternatives (see `siblingsOf`).
 */
export function toMessageView(
  row: MessageRow,
  coveredMessages = 0,
  siblings: SiblingsView | null = null,
  attachments: readonly AttachmentView[] = [],
  spend: SpendView | null = null,
): MessageView {
  return {
    id: row.id,
    conversationId: row.conversationId,
    seq: row.seq,
    turnId: row.turnId,
    role: row.role,
    kind: row.kind,
    text: row.text,
    status: row.status,
    error: (row.error as TurnError | null) ?? null,
    brain: isBrainId(row.brain) ? row.brain : null,
    modelRequested: row.modelRequested,
    modelResponded: row.modelResponded,
    modelMismatch:
      row.modelRequested !== null && row.modelResponded !== null && !isSameModel(row.modelRequested, row.modelResponded),
    reasoningLevel: (REASONING_LEVELS as readonly string[]).includes(row.reasoningLevel ?? '')
      ? (row.reasoningLevel as ReasoningLevel)
      : null,
    usage: (row.usage as Usage | null) ?? null,
    compactedInto: row.compactedInto,
    coversThroughId: row.coversThroughId,
    coveredMessages: row.kind === 'summary' ? coveredMessages : 0,
    parentId: row.parentId,
    siblings,
    reasoning: toReasoningView(row.reasoning),
    attachments,
    spend: row.role === 'assistant' ? spend : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface NewMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly seq: number;
  readonly turnId: string;
  readonly role: MessageRole;
  readonly kind?: MessageKind;
  readonly text: string;
  readonly status: MessageStatus;
  readonly brain?: BrainId | null;
  readonly modelRequested?: string | null;
  readonly modelResponded?: string | null;
  readonly reasoningLevel?: ReasoningLevel | null;
  readonly reasoning?: StoredReasoning | null;
  readonly usage?: Usage | null;
  readonly error?: TurnError | null;
  /** The process writing a streaming reply (`pid@host`). */
  readonly streamOwner?: string | null;
  /** What the row costs in a replay (see context/row-estimate.ts); its words and framing when left out. */
  readonly tokenEstimate?: number;
  /** On a summary row: the last message it summarises. */
  readonly coversThroughId?: string | null;
  /** The message this one follows: absent, the conversation's current leaf (the row extends the branch shown). */
  readonly parentId?: string | null;
  /**
   * Whether the row becomes the conversation's current leaf (default: yes, but never a summary). An import writes a
   * whole tree first and then sets the leaf once.
   */
  readonly becomesLeaf?: boolean;
  readonly createdAt: string;
}

/** What a row adds to the running totals: a failed reply never replays, a summary is not counted among the rows. */
function contribution(kind: MessageKind, status: MessageStatus, tokenEstimate: number): { tokens: number; rows: number } {
  if (kind === 'summary' || status === 'failed') return { tokens: 0, rows: 0 };
  return { tokens: tokenEstimate, rows: 1 };
}

const selectTotalsOfParent = statementCacheFor(
  `SELECT replayed_tokens_through AS tokens, replayed_rows_through AS rows FROM messages WHERE id = ? AND conversation_id = ?`,
);
// CROSS JOIN keeps the walked row outside, so each step looks its children up by (conversation, parent) in
// `messages_children`; with `messages` outside, SQLite scans the whole conversation per row walked.
export const SHIFT_TOTALS_BELOW_SQL = `WITH RECURSIVE below(id) AS (
     SELECT ? UNION ALL SELECT m.id FROM below CROSS JOIN messages m ON m.conversation_id = ? AND m.parent_id = below.id
   )
   UPDATE messages SET replayed_tokens_through = replayed_tokens_through + ?, replayed_rows_through = replayed_rows_through + ?
   WHERE id IN (SELECT id FROM below)`;
const shiftTotalsBelow = statementCacheFor(SHIFT_TOTALS_BELOW_SQL);

/** The running totals of the path up to `parentId`, that row included (nothing before the first message). */
function totalsThrough(db: AppDatabase, conversationId: string, parentId: string | null): { tokens: number; rows: number } {
  if (parentId === null) return { tokens: 0, rows: 0 };
  const row = selectTotalsOfParent(db).get(parentId, conversationId) as { tokens: number | null; rows: number | null } | undefined;
  if (row === undefined) throw new Error(`Message ${parentId} is not in conversation ${conversationId}.`);
  return { tokens: row.tokens ?? 0, rows: row.rows ?? 0 };
}

/** A row's cost changed: its running totals and those of every row below it, on every branch, move by the difference. */
function shiftTotals(db: AppDatabase, conversationId: string, id: string, tokens: number, rows: number): void {
  if (tokens === 0 && rows === 0) return;
  shiftTotalsBelow(db).run(id, conversationId, tokens, rows);
}

export const RECOUNT_TOTALS_SQL = `WITH RECURSIVE down(id, tokens, rows) AS (
     SELECT id, CASE WHEN status = 'failed' THEN 0 ELSE token_estimate END, CASE WHEN status = 'failed' THEN 0 ELSE 1 END
     FROM messages WHERE conversation_id = ? AND parent_id IS NULL AND kind != 'summary'
     UNION ALL
     SELECT m.id, down.tokens + CASE WHEN m.status = 'failed' THEN 0 ELSE m.token_estimate END,
       down.rows + CASE WHEN m.status = 'failed' THEN 0 ELSE 1 END
     FROM down CROSS JOIN messages m ON m.conversation_id = ? AND m.parent_id = down.id
   )
   UPDATE messages SET replayed_tokens_through = down.tokens, replayed_rows_through = down.rows
   FROM down WHERE messages.id = down.id`;
const recountTotals = statementCacheFor(RECOUNT_TOTALS_SQL);

/**
 * Rebuilds a conversation's running totals from its rows, after changes to many of them at once (a repair): one pass
 * down the tree in SQL, where shifting the rows below each change would cost a pass per change.
 */
export function recomputeReplayedTotals(db: AppDatabase, conversationId: string): void {
  recountTotals(db).run(conversationId, conversationId);
}

/**
 * Stores a message. A summary follows nothing and leaves the leaf alone; any other row follows `parentId` (by default
 * the current leaf) and, unless told otherwise, becomes the current leaf, so the branch shown runs through it.
 */
export function insertMessage(db: AppDatabase, message: NewMessage): MessageRow {
  const kind = message.kind ?? 'chat';
  const tokenEstimate = message.tokenEstimate ?? estimateMessageTokens(message.text);
  const own = contribution(kind, message.status, tokenEstimate);
  if (kind === 'summary') return writeMessage(db, message, { tokenEstimate, parentId: null, onLivePath: false, totals: null });
  return inTransaction(db, () => {
    const leafId = currentLeafId(db, message.conversationId);
    const parentId = message.parentId === undefined ? leafId : message.parentId;
    const becomesLeaf = message.becomesLeaf ?? true;
    const before = totalsThrough(db, message.conversationId, parentId);
    const totals = { tokens: before.tokens + own.tokens, rows: before.rows + own.rows };
    const extendsLeaf = becomesLeaf && parentId === leafId;
    const row = writeMessage(db, message, { tokenEstimate, parentId, onLivePath: extendsLeaf, totals });
    if (extendsLeaf) extendLeaf(db, message.conversationId, row.id);
    else if (becomesLeaf) {
      moveLeaf(db, message.conversationId, row.id);
      return { ...row, onLivePath: 1 };
    }
    return row;
  });
}

interface Placement {
  readonly tokenEstimate: number;
  readonly parentId: string | null;
  readonly onLivePath: boolean;
  readonly totals: { readonly tokens: number; readonly rows: number } | null;
}

/** A JSON column's value as drizzle encodes it: null stays NULL, anything else is stored as its JSON text. */
function jsonColumn(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * Every column of `messages`, in schema order: written and returned in that order, the returned row is mapped by
 * `selectLiveRowFrom`, which is checked against the schema when the module loads.
 */
const MESSAGE_COLUMNS = Object.values(getTableColumns(messages)).map((column) => `"${column.name}"`);

/**
 * Prepared once per connection: each turn inserts two rows on the main thread as it is admitted, and drizzle's insert
 * builder would build the SQL and prepare it (compiling the table's search and totals triggers) every time.
 */
const insertMessageRow = statementCacheFor(
  `INSERT INTO messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${MESSAGE_COLUMNS.map(() => '?').join(', ')}) RETURNING ${MESSAGE_COLUMNS.join(', ')}`,
);

function writeMessage(db: AppDatabase, message: NewMessage, placement: Placement): MessageRow {
  const kind = message.kind ?? 'chat';
  const { tokenEstimate, totals } = placement;
  const values = insertMessageRow(db)
    .raw(true)
    .get(
      message.id,
      message.conversationId,
      message.seq,
      message.turnId,
      message.role,
      kind,
      message.text,
      tokenEstimate,
      message.status,
      jsonColumn(message.error),
      message.brain ?? null,
      message.modelRequested ?? null,
      message.modelResponded ?? null,
      message.reasoningLevel ?? null,
      jsonColumn(message.reasoning),
      jsonColumn(message.usage),
      null,
      message.coversThroughId ?? null,
      totals === null ? null : totals.tokens,
      totals === null ? null : totals.rows,
      message.streamOwner ?? null,
      message.createdAt,
      message.createdAt,
      placement.parentId,
      placement.onLivePath ? 1 : 0,
      null,
    ) as unknown[];
  return selectLiveRowFrom(values);
}

export function nextSeq(db: AppDatabase, conversationId: string): number {
  const row = db
    .select({ maxSeq: sql<number | null>`max(${messages.seq})` })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .get();
  return (row?.maxSeq ?? -1) + 1;
}

/** Whether the conversation holds a message of the user's, without reading any text. */
export function hasUserMessage(db: AppDatabase, conversationId: string): boolean {
  return (
    db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'user')))
      .limit(1)
      .get() !== undefined
  );
}

export function getMessage(db: AppDatabase, id: string): MessageRow | null {
  return db.select().from(messages).where(eq(messages.id, id)).get() ?? null;
}

const selectCost = statementCacheFor(`SELECT id, conversation_id AS conversationId, kind, status, token_estimate AS tokenEstimate FROM messages WHERE id = ?`);

interface RowCost {
  readonly id: string;
  readonly conversationId: string;
  readonly kind: MessageKind;
  readonly status: MessageStatus;
  readonly tokenEstimate: number;
}

/** Moves the running totals by what a row's new cost differs from its old one. */
function retotal(db: AppDatabase, before: RowCost, kind: MessageKind, status: MessageStatus, tokenEstimate: number): void {
  const was = contribution(before.kind, before.status, before.tokenEstimate);
  const is = contribution(kind, status, tokenEstimate);
  shiftTotals(db, before.conversationId, before.id, is.tokens - was.tokens, is.rows - was.rows);
}

const updateStreamingText = statementCacheFor(
  `UPDATE messages SET text = ?, token_estimate = ?, updated_at = ? WHERE id = ? AND status = 'streaming'`,
);

/**
 * Writes the streamed text so far; called on a timer while a reply streams. The statement is prepared once per
 * connection: preparing an UPDATE of `messages` compiles its triggers (search, running totals) every time, and a
 * checkpoint runs four times a second on the main thread.
 */
export function checkpointMessageText(db: AppDatabase, id: string, text: string, now: string): void {
  inTransaction(db, () => {
    const before = selectCost(db).get(id) as RowCost | undefined;
    if (before === undefined || before.status !== 'streaming') return;
    const tokenEstimate = estimateMessageTokens(text);
    updateStreamingText(db).run(text, tokenEstimate, now, id);
    retotal(db, before, before.kind, before.status, tokenEstimate);
  });
}

const selectNewestReply = statementCacheFor(
  `SELECT id, rounds FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND role = 'assistant' AND kind = 'chat'
     AND status IN ('complete', 'stopped', 'interrupted') AND compacted_into IS NULL ORDER BY seq DESC LIMIT 1`,
);

/** The newest reply a replay shows, when it ran tools in rounds it kept: the id of the reply that replays as written. */
export function newestReplyWithRounds(db: AppDatabase, conversationId: string): string | null {
  const row = selectNewestReply(db).get(conversationId) as { id: string; rounds: string | null } | undefined;
  return row === undefined || row.rounds === null ? null : row.id;
}

export interface FinishedMessage {
  readonly text: string;
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly error: TurnError | null;
  readonly modelResponded: string | null;
  readonly reasoning: StoredReasoning | null;
  readonly usage: Usage | null;
  /** Where each tool round ended, when the reply ran tools and its stored text is the text those ends measure. */
  readonly rounds?: readonly StoredRoundEnd[] | null;
  /** The finished row's cost in a replay, its calls included (see context/row-estimate.ts). */
  readonly tokenEstimate: number;
  readonly now: string;
}

/** Prepared once per connection, like `insertMessageRow`: every reply ends with it, on the main thread. */
const finishMessageRow = statementCacheFor(
  `UPDATE messages SET text = ?, token_estimate = ?, status = ?, error = ?, model_responded = ?, reasoning = ?, usage = ?,
     rounds = ?, stream_owner = NULL, updated_at = ? WHERE id = ? RETURNING ${MESSAGE_COLUMNS.join(', ')}`,
);

export function finishMessage(db: AppDatabase, id: string, finished: FinishedMessage): MessageRow {
  const before = selectCost(db).get(id) as RowCost | undefined;
  const values = finishMessageRow(db)
    .raw(true)
    .get(
      finished.text,
      finished.tokenEstimate,
      finished.status,
      jsonColumn(finished.error),
      finished.modelResponded,
      jsonColumn(finished.reasoning),
      jsonColumn(finished.usage),
      finished.rounds === undefined || finished.rounds === null || finished.rounds.length === 0 ? null : JSON.stringify(finished.rounds),
      finished.now,
      id,
    ) as unknown[] | undefined;
  const row = values === undefined ? undefined : selectLiveRowFrom(values);
  if (!row || before === undefined) throw new Error(`Message ${id} vanished before its reply finished.`);
  retotal(db, before, row.kind, row.status, row.tokenEstimate);
  return { ...row, ...(selectTotalsOf(db).get(id) as Pick<MessageRow, 'replayedTokensThrough' | 'replayedRowsThrough'>) };
}

const selectTotalsOf = statementCacheFor(
  `SELECT replayed_tokens_through AS replayedTokensThrough, replayed_rows_through AS replayedRowsThrough FROM messages WHERE id = ?`,
);

/** The newest `limit` rows matching `where` (before `beforeSeq` when given), oldest first, and whether older ones exist. */
function pageBefore(db: AppDatabase, where: SQL | undefined, limit: number, beforeSeq: number | undefined): { rows: MessageRow[]; hasOlder: boolean } {
  const newestFirst = db
    .select()
    .from(messages)
    .where(beforeSeq === undefined ? where : and(where, lt(messages.seq, beforeSeq)))
    .orderBy(desc(messages.seq))
    .limit(limit + 1)
    .all();
  return { rows: newestFirst.slice(0, limit).reverse(), hasOlder: newestFirst.length > limit };
}

/**
 * A page of the conversation as shown, oldest first: the newest `limit` rows no summary covers, or the `limit` before
 * `beforeSeq`. The page that reaches the start begins with the summary that stands for the covered rows, if any: it
 * was written after them, so its seq is larger than the rows that follow it, and it is never a paging cursor.
 */
export function listMessagePage(
  db: AppDatabase,
  conversationId: string,
  limit: number,
  beforeSeq?: number,
): { rows: MessageRow[]; hasOlder: boolean } {
  const shown = and(
    eq(messages.conversationId, conversationId),
    eq(messages.onLivePath, 1),
    isNull(messages.compactedInto),
    ne(messages.kind, 'summary'),
  );
  const { rows, hasOlder } = pageBefore(db, shown, limit, beforeSeq);
  if (hasOlder) return { rows, hasOlder };
  const summary = liveSummary(db, conversationId);
  return { rows: summary === null ? rows : [summary, ...rows], hasOlder };
}

/**
 * The `limit` rows no summary covers just after `afterSeq`, oldest first, and whether newer ones exist: the list
 * fetching again, on its way back down, the pages it let go of. The page never holds the summary (it stands for the
 * start), and rows exist before it, so `hasOlder` is true.
 */
export function listMessagePageAfter(
  db: AppDatabase,
  conversationId: string,
  limit: number,
  afterSeq: number,
): { rows: MessageRow[]; hasOlder: boolean; hasNewer: boolean } {
  const oldestFirst = db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.onLivePath, 1),
        isNull(messages.compactedInto),
        ne(messages.kind, 'summary'),
        gt(messages.seq, afterSeq),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(limit + 1)
    .all();
  return { rows: oldestFirst.slice(0, limit), hasOlder: true, hasNewer: oldestFirst.length > limit };
}

const countShownFromSeq = statementCacheFor(
  `SELECT count(*) AS count FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND compacted_into IS NULL AND kind != 'summary'
   AND seq >= (SELECT seq FROM messages WHERE id = ?)`,
);

/** How many messages of the live path the window shows from `messageId` down to the leaf, that message included. */
export function countShownFrom(db: AppDatabase, conversationId: string, messageId: string): number {
  return (countShownFromSeq(db).get(conversationId, messageId) as { count: number }).count;
}

const selectNewestCoveredOnPath = statementCacheFor(
  `SELECT compacted_into AS compactedInto FROM messages
   WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' AND compacted_into IS NOT NULL ORDER BY seq DESC LIMIT 1`,
);

/**
 * The summary that stands for the live path's covered rows: the newest covered row's summary, followed up to the one
 * no later summary covers.
 */
export function liveSummary(db: AppDatabase, conversationId: string): MessageRow | null {
  const covered = selectNewestCoveredOnPath(db).get(conversationId) as { compactedInto: string } | undefined;
  let summary = covered === undefined ? null : getMessage(db, covered.compactedInto);
  // A chain of summaries is as long as the number of compactions; the bound only guards against a corrupted loop.
  for (let hops = 0; summary !== null && summary.compactedInto !== null && hops < 10_000; hops += 1) {
    summary = getMessage(db, summary.compactedInto);
  }
  return summary;
}

/**
 * A page of the rows one summary covers directly, oldest first, paged like `listMessagePage`. An older summary among
 * them stands for what came before the rest, so the page that reaches the start begins with it.
 */
export function listCoveredPage(db: AppDatabase, summaryId: string, limit: number, beforeSeq?: number): { rows: MessageRow[]; hasOlder: boolean } {
  const covered = and(eq(messages.compactedInto, summaryId), ne(messages.kind, 'summary'));
  const { rows, hasOlder } = pageBefore(db, covered, limit, beforeSeq);
  if (hasOlder) return { rows, hasOlder };
  const olderSummaries = db
    .select()
    .from(messages)
    .where(and(eq(messages.compactedInto, summaryId), eq(messages.kind, 'summary')))
    .orderBy(messages.seq)
    .all();
  return { rows: [...olderSummaries, ...rows], hasOlder };
}

const countStoodFor = statementCacheFor(
  `WITH RECURSIVE chain(id) AS (
     SELECT ? UNION ALL SELECT m.id FROM messages m JOIN chain ON m.compacted_into = chain.id WHERE m.kind = 'summary'
   )
   SELECT count(*) AS count FROM messages WHERE compacted_into IN (SELECT id FROM chain) AND kind != 'summary'`,
);

/** How many messages each of these summaries stands for: the rows it covers, and those under the summaries it covers. */
export function countCoveredMessages(db: AppDatabase, summaryIds: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of summaryIds) counts.set(id, (countStoodFor(db).get(id) as { count: number } | undefined)?.count ?? 0);
  return counts;
}

/** Views of rows, each summary with its count of covered rows, each message with its place among its alternatives. */
export function toMessageViews(db: AppDatabase, rows: readonly MessageRow[]): MessageView[] {
  const counts = countCoveredMessages(
    db,
    rows.filter((row) => row.kind === 'summary').map((row) => row.id),
  );
  const siblings = siblingsOf(db, rows);
  const attachments = attachmentsOfMessages(
    db,
    rows.filter((row) => row.role === 'user').map((row) => row.id),
  );
  const spent = replyUsageByTurn(db, rows.filter((row) => row.role === 'assistant').map((row) => row.turnId));
  return rows.map((row) => toMessageView(row, counts.get(row.id) ?? 0, siblings.get(row.id) ?? null, attachments.get(row.id) ?? [], spendView(spent.get(row.turnId))));
}

/** A JSON column's value as drizzle decodes it: NULL stays null, anything else is parsed. */
export function parseJsonColumn(value: unknown): unknown {
  return value === null ? null : JSON.parse(value as string);
}

/**
 * A query over every column of `table`, for the reads a replay makes over a whole conversation: there, drizzle's
 * per-cell row mapping, and even better-sqlite3's own row objects, cost more than SQLite's read itself. SQLite returns
 * each row as an array of the table's columns in schema order, and `rowFrom` builds the row in one object literal,
 * the same row drizzle's `select()` returns. `rowFrom` is checked against the schema when the module loads, so a column
 * added to the table without it fails at once instead of shifting values into the wrong fields. `clauses` follows
 * `FROM table`. Measured against drizzle's own mapping in bench/RESULTS.md (2026-12-01): it still pays for itself.
 */
export function handMappedQuery<Row extends object>(
  table: SQLiteTable,
  clauses: string,
  rowFrom: (values: readonly unknown[]) => Row,
): (db: AppDatabase, ...params: unknown[]) => Row[] {
  const fields = Object.entries(getTableColumns(table));
  // Each column's position, passed through `rowFrom`, must come back under that column's field, in schema order.
  const probe = rowFrom(fields.map((_, position) => position)) as Record<string, unknown>;
  const probeFields = Object.keys(probe);
  if (probeFields.length !== fields.length || fields.some(([field], position) => probeFields[position] !== field || probe[field] !== position)) {
    throw new Error(`The hand-written row mapping for ${getTableName(table)} no longer matches its columns in db/schema.ts.`);
  }
  const text = `SELECT ${fields.map(([, column]) => `"${column.name}"`).join(', ')} FROM "${getTableName(table)}" ${clauses}`;
  const statement = statementCacheFor(text);
  return (db, ...params) => (statement(db).raw(true).all(...params) as unknown[][]).map(rowFrom);
}

/** A row from SQLite's array of the table's columns, in schema order (see `handMappedQuery`). */
function selectLiveRowFrom(values: readonly unknown[]): MessageRow {
  return {
    id: values[0] as string,
    conversationId: values[1] as string,
    seq: values[2] as number,
    turnId: values[3] as string,
    role: values[4] as MessageRow['role'],
    kind: values[5] as MessageRow['kind'],
    text: values[6] as string,
    tokenEstimate: values[7] as number,
    status: values[8] as MessageRow['status'],
    error: parseJsonColumn(values[9]),
    brain: values[10] as string | null,
    modelRequested: values[11] as string | null,
    modelResponded: values[12] as string | null,
    reasoningLevel: values[13] as string | null,
    reasoning: parseJsonColumn(values[14]),
    usage: parseJsonColumn(values[15]),
    compactedInto: values[16] as string | null,
    coversThroughId: values[17] as string | null,
    replayedTokensThrough: values[18] as number | null,
    replayedRowsThrough: values[19] as number | null,
    streamOwner: values[20] as string | null,
    createdAt: values[21] as string,
    updatedAt: values[22] as string,
    parentId: values[23] as string | null,
    onLivePath: values[24] as number,
    rounds: parseJsonColumn(values[25]),
  };
}

const selectLiveMessagesFrom = handMappedQuery(
  messages,
  "WHERE conversation_id = ? AND on_live_path = 1 AND seq >= ? AND compacted_into IS NULL AND kind != 'summary' ORDER BY seq",
  selectLiveRowFrom,
);

const selectLiveMessagesBetween = handMappedQuery(
  messages,
  "WHERE conversation_id = ? AND on_live_path = 1 AND seq > ? AND seq <= ? AND kind != 'summary' ORDER BY seq LIMIT ?",
  (values) => selectLiveRowFrom(values),
);

/**
 * Up to `limit` rows of the live path with `afterSeq < seq ≤ throughSeq`, in order, whether a summary covers them or
 * not (which history a request holds is the window guard's choice): a replay and a compaction read their rows so.
 */
export function listLiveMessagesBetween(db: AppDatabase, conversationId: string, afterSeq: number, throughSeq: number, limit: number): MessageRow[] {
  return selectLiveMessagesBetween(db, conversationId, afterSeq, throughSeq, limit);
}

/**
 * The rows no summary covers from `fromSeq` on, in order (summaries are read on their own: see live-path.ts). A replay
 * reads only the rows that fit its window, so `fromSeq` comes from `scanLivePath`.
 */
export function listLiveMessagesFrom(db: AppDatabase, conversationId: string, fromSeq: number): MessageRow[] {
  return selectLiveMessagesFrom(db, conversationId, fromSeq);
}

/** Every row no summary covers, in order, summaries left out: for checks that must see the whole live conversation. */
export function listLiveMessages(db: AppDatabase, conversationId: string): MessageRow[] {
  return selectLiveMessagesFrom(db, conversationId, 0);
}

/** Every row of every branch, summaries included, in the order they were written. */
export function listAllMessages(db: AppDatabase, conversationId: string): MessageRow[] {
  return db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.seq)).all();
}

export const INTERRUPTED_ERROR: TurnError = {
  code: 'interrupted',
  message: 'Anybrain closed while this reply was being written. The text up to that point is kept; retry to get a full reply.',
  retryable: true,
};

/**
 * At start-up, a row still `streaming` whose writer is gone belongs to a process that died mid-reply: it becomes
 * `interrupted`, its text kept as last checkpointed. Rows another live process is still writing are left alone.
 * Returns how many rows changed.
 */
export function markStreamingAsInterrupted(db: AppDatabase, now: string, isOwnerAlive: (owner: string) => boolean = () => false): number {
  const orphaned = db
    .select({ id: messages.id, owner: messages.streamOwner })
    .from(messages)
    .where(eq(messages.status, 'streaming'))
    .all()
    .filter((row) => row.owner === null || !isOwnerAlive(row.owner))
    .map((row) => row.id);
  if (orphaned.length === 0) return 0;
  return db
    .update(messages)
    .set({ status: 'interrupted', error: INTERRUPTED_ERROR, streamOwner: null, updatedAt: now })
    .where(and(eq(messages.status, 'streaming'), inArray(messages.id, orphaned)))
    .run().changes;
}

export function countMessagesByStatus(db: AppDatabase): Record<MessageStatus, number> {
  const counts: Record<MessageStatus, number> = { complete: 0, streaming: 0, stopped: 0, interrupted: 0, failed: 0 };
  const rows = db
    .select({ status: messages.status, count: sql<number>`count(*)` })
    .from(messages)
    .groupBy(messages.status)
    .all();
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/** How many rows each conversation holds, every branch and system line included (what a JSON export lists). */
export function countMessagesByConversation(db: AppDatabase): Map<string, number> {
  const rows = db
    .select({ conversationId: messages.conversationId, count: sql<number>`count(*)` })
    .from(messages)
    .groupBy(messages.conversationId)
    .all();
  return new Map(rows.map((row) => [row.conversationId, row.count]));
}
