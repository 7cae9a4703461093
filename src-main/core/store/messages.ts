import type Database from 'better-sqlite3';
import { and, asc, desc, eq, getTableColumns, getTableName, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { MessageKind, MessageRole, MessageStatus, MessageView, TurnError, Usage } from '../../../src-shared/api';
import { isBrainId, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { isSameModel } from '../../../src-shared/models';
import { messages } from '../../../db/schema';
import { estimateMessageTokens } from '../context/token-estimate';
import { inTransaction, type AppDatabase } from './open';

export type MessageRow = typeof messages.$inferSelect;

/** Reasoning as stored: its own brain and model, the readable text, and the opaque carriers verbatim. */
export interface StoredReasoning {
  readonly brain: BrainId;
  readonly model: string;
  readonly text: string;
  readonly opaque: unknown;
}

/** `coveredMessages`: for a summary row, how many rows it covers directly (see `countCoveredMessages`). */
export function toMessageView(row: MessageRow, coveredMessages = 0): MessageView {
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
  readonly createdAt: string;
}

/** What a row adds to the running totals: a failed reply never replays, a summary is not counted among the rows. */
function contribution(kind: MessageKind, status: MessageStatus, tokenEstimate: number): { tokens: number; rows: number } {
  if (kind === 'summary' || status === 'failed') return { tokens: 0, rows: 0 };
  return { tokens: tokenEstimate, rows: 1 };
}

const selectTotalsBefore = statementCacheFor(
  `SELECT replayed_tokens_through AS tokens, replayed_rows_through AS rows FROM messages
   WHERE conversation_id = ? AND kind != 'summary' AND seq < ? ORDER BY seq DESC LIMIT 1`,
);
const shiftTotalsFrom = statementCacheFor(
  `UPDATE messages SET replayed_tokens_through = replayed_tokens_through + ?, replayed_rows_through = replayed_rows_through + ?
   WHERE conversation_id = ? AND seq >= ? AND kind != 'summary'`,
);

/** The running totals of the rows before `seq`. */
function totalsBefore(db: AppDatabase, conversationId: string, seq: number): { tokens: number; rows: number } {
  const row = selectTotalsBefore(db).get(conversationId, seq) as { tokens: number | null; rows: number | null } | undefined;
  return { tokens: row?.tokens ?? 0, rows: row?.rows ?? 0 };
}

/** A row's cost changed: its running totals and those of every row after it move by the difference. */
function shiftTotals(db: AppDatabase, conversationId: string, seq: number, tokens: number, rows: number): void {
  if (tokens === 0 && rows === 0) return;
  shiftTotalsFrom(db).run(tokens, rows, conversationId, seq);
}

const recountTotals = statementCacheFor(
  `UPDATE messages SET replayed_tokens_through = totals.tokens, replayed_rows_through = totals.rows
   FROM (
     SELECT id,
       sum(CASE WHEN status = 'failed' THEN 0 ELSE token_estimate END) OVER (ORDER BY seq) AS tokens,
       sum(CASE WHEN status = 'failed' THEN 0 ELSE 1 END) OVER (ORDER BY seq) AS rows
     FROM messages WHERE conversation_id = ? AND kind != 'summary'
   ) AS totals
   WHERE messages.id = totals.id`,
);

/**
 * Rebuilds a conversation's running totals from its rows, after changes to many of them at once (a repair): one pass
 * in SQL, where shifting the rows after each change would cost a pass per change.
 */
export function recomputeReplayedTotals(db: AppDatabase, conversationId: string): void {
  recountTotals(db).run(conversationId);
}

export function insertMessage(db: AppDatabase, message: NewMessage): MessageRow {
  const kind = message.kind ?? 'chat';
  const tokenEstimate = message.tokenEstimate ?? estimateMessageTokens(message.text);
  const own = contribution(kind, message.status, tokenEstimate);
  const before = kind === 'summary' ? null : totalsBefore(db, message.conversationId, message.seq);
  return db
    .insert(messages)
    .values({
      id: message.id,
      conversationId: message.conversationId,
      seq: message.seq,
      turnId: message.turnId,
      role: message.role,
      kind,
      text: message.text,
      tokenEstimate,
      status: message.status,
      error: message.error ?? null,
      brain: message.brain ?? null,
      modelRequested: message.modelRequested ?? null,
      modelResponded: message.modelResponded ?? null,
      reasoningLevel: message.reasoningLevel ?? null,
      reasoning: message.reasoning ?? null,
      usage: message.usage ?? null,
      streamOwner: message.streamOwner ?? null,
      coversThroughId: message.coversThroughId ?? null,
      replayedTokensThrough: before === null ? null : before.tokens + own.tokens,
      replayedRowsThrough: before === null ? null : before.rows + own.rows,
      createdAt: message.createdAt,
      updatedAt: message.createdAt,
    })
    .returning()
    .get();
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

const selectCost = statementCacheFor(`SELECT conversation_id AS conversationId, seq, kind, status, token_estimate AS tokenEstimate FROM messages WHERE id = ?`);

interface RowCost {
  readonly conversationId: string;
  readonly seq: number;
  readonly kind: MessageKind;
  readonly status: MessageStatus;
  readonly tokenEstimate: number;
}

/** Moves the running totals by what a row's new cost differs from its old one. */
function retotal(db: AppDatabase, before: RowCost, kind: MessageKind, status: MessageStatus, tokenEstimate: number): void {
  const was = contribution(before.kind, before.status, before.tokenEstimate);
  const is = contribution(kind, status, tokenEstimate);
  shiftTotals(db, before.conversationId, before.seq, is.tokens - was.tokens, is.rows - was.rows);
}

/** Writes the streamed text so far; called on a timer while a reply streams. */
export function checkpointMessageText(db: AppDatabase, id: string, text: string, now: string): void {
  inTransaction(db, () => {
    const before = selectCost(db).get(id) as RowCost | undefined;
    if (before === undefined || before.status !== 'streaming') return;
    const tokenEstimate = estimateMessageTokens(text);
    db.update(messages).set({ text, tokenEstimate, updatedAt: now }).where(and(eq(messages.id, id), eq(messages.status, 'streaming'))).run();
    retotal(db, before, before.kind, before.status, tokenEstimate);
  });
}

export interface FinishedMessage {
  readonly text: string;
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly error: TurnError | null;
  readonly modelResponded: string | null;
  readonly reasoning: StoredReasoning | null;
  readonly usage: Usage | null;
  /** The finished row's cost in a replay, its calls included (see context/row-estimate.ts). */
  readonly tokenEstimate: number;
  readonly now: string;
}

export function finishMessage(db: AppDatabase, id: string, finished: FinishedMessage): MessageRow {
  const before = selectCost(db).get(id) as RowCost | undefined;
  const row = db
    .update(messages)
    .set({
      text: finished.text,
      tokenEstimate: finished.tokenEstimate,
      status: finished.status,
      error: finished.error,
      modelResponded: finished.modelResponded,
      reasoning: finished.reasoning,
      usage: finished.usage,
      streamOwner: null,
      updatedAt: finished.now,
    })
    .where(eq(messages.id, id))
    .returning()
    .get();
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
  const shown = and(eq(messages.conversationId, conversationId), isNull(messages.compactedInto), ne(messages.kind, 'summary'));
  const { rows, hasOlder } = pageBefore(db, shown, limit, beforeSeq);
  if (hasOlder) return { rows, hasOlder };
  const summary = liveSummary(db, conversationId);
  return { rows: summary === null ? rows : [summary, ...rows], hasOlder };
}

/** The summary that stands for a conversation's covered rows: the one no later summary covers. */
export function liveSummary(db: AppDatabase, conversationId: string): MessageRow | null {
  return (
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.kind, 'summary'), isNull(messages.compactedInto)))
      .orderBy(desc(messages.seq))
      .limit(1)
      .get() ?? null
  );
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

/** Views of rows, each summary with its count of covered rows. */
export function toMessageViews(db: AppDatabase, rows: readonly MessageRow[]): MessageView[] {
  const counts = countCoveredMessages(
    db,
    rows.filter((row) => row.kind === 'summary').map((row) => row.id),
  );
  return rows.map((row) => toMessageView(row, counts.get(row.id) ?? 0));
}

/** One prepared statement per database connection, prepared on first use. */
export function statementCacheFor(sqlText: string): (db: AppDatabase) => Database.Statement<unknown[], unknown> {
  const statements = new WeakMap<Database.Database, Database.Statement<unknown[], unknown>>();
  return (db) => {
    let statement = statements.get(db.$client);
    if (!statement) {
      statement = db.$client.prepare<unknown[], unknown>(sqlText);
      statements.set(db.$client, statement);
    }
    return statement;
  };
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
  };
}

const selectLiveMessagesFrom = handMappedQuery(
  messages,
  "WHERE conversation_id = ? AND seq >= ? AND compacted_into IS NULL AND kind != 'summary' ORDER BY seq",
  selectLiveRowFrom,
);

const selectLiveMessagesBetween = handMappedQuery(
  messages,
  "WHERE conversation_id = ? AND seq > ? AND seq <= ? AND compacted_into IS NULL AND kind != 'summary' ORDER BY seq LIMIT ?",
  (values) => selectLiveRowFrom(values),
);

/** Up to `limit` rows no summary covers with `afterSeq < seq ≤ throughSeq`, in order: a compaction reads its span so. */
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
