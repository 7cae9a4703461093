/**
 * The whole data model (see DESIGN.md). drizzle-kit generates the SQL migrations in `db/migrations` from this file;
 * the FTS5 index for memories is a custom migration, since drizzle cannot declare virtual tables.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ToolImage } from '../src-shared/tool-images';

export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    brain: text('brain'),
    model: text('model'),
    reasoningLevel: text('reasoning_level'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    archived: integer('archived', { mode: 'boolean' }).notNull().default(false),
    /** The newest message of the branch shown: the live path runs from it up through `parent_id` to the first message. */
    currentLeafId: text('current_leaf_id'),
  },
  (table) => [index('conversations_updated_at').on(table.updatedAt)],
);

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    turnId: text('turn_id').notNull(),
    role: text('role', { enum: ['user', 'assistant', 'system'] }).notNull(),
    kind: text('kind', { enum: ['chat', 'notice', 'summary'] }).notNull().default('chat'),
    text: text('text').notNull().default(''),
    tokenEstimate: integer('token_estimate').notNull().default(0),
    status: text('status', { enum: ['complete', 'streaming', 'stopped', 'interrupted', 'failed'] })
      .notNull()
      .default('complete'),
    error: text('error', { mode: 'json' }),
    brain: text('brain'),
    modelRequested: text('model_requested'),
    modelResponded: text('model_responded'),
    reasoningLevel: text('reasoning_level'),
    reasoning: text('reasoning', { mode: 'json' }),
    usage: text('usage', { mode: 'json' }),
    compactedInto: text('compacted_into'),
    /** On a summary row: the last message it summarises. */
    coversThroughId: text('covers_through_id'),
    /**
     * Running totals over the conversation's non-summary rows up to this one (a failed reply adds nothing): the token
     * estimates, and how many rows. The difference of two rows' totals counts what lies between them without reading
     * it. Null on summaries.
     */
    replayedTokensThrough: integer('replayed_tokens_through'),
    replayedRowsThrough: integer('replayed_rows_through'),
    /** While a reply streams: the process writing it (`pid@host`), so another process never marks it interrupted. */
    streamOwner: text('stream_owner'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** The message this one follows; null for the first of a path and for a summary, which follows nothing. */
    parentId: text('parent_id'),
    /**
     * 1 exactly on the rows of the live path (from `conversations.current_leaf_id` up through `parent_id`): kept by
     * store/branches.ts whenever the leaf moves, so every read of "the conversation" is one range of an index, at any
     * number of branches. A row's `seq` grows down every path, so the live path in `seq` order is the path in order.
     */
    onLivePath: integer('on_live_path').notNull().default(1),
    /**
     * On a reply that ran tools: where each tool round ended (its words, its reasoning and reasoning blocks, and how
     * many calls it ran), so the reply replays in the rounds it was written in. Null on every other row.
     */
    rounds: text('rounds', { mode: 'json' }),
  },
  (table) => [
    uniqueIndex('messages_conversation_seq').on(table.conversationId, table.seq),
    index('messages_turn').on(table.turnId),
    // The window guard walks a conversation newest-first reading only these columns: the index alone answers it,
    // so the walk never reads a message's text.
    index('messages_live_path').on(
      table.conversationId,
      table.onLivePath,
      table.seq,
      table.tokenEstimate,
      table.compactedInto,
      table.kind,
      table.status,
      table.replayedTokensThrough,
      table.replayedRowsThrough,
    ),
    // A message's alternatives (its parent's children) and a branch's descendants, in order.
    index('messages_children').on(table.conversationId, table.parentId, table.seq),
    index('messages_compacted_into')
      .on(table.compactedInto)
      .where(sql`compacted_into IS NOT NULL`),
    index('messages_status')
      .on(table.status)
      .where(sql`status = 'streaming'`),
    // Every turn looks for the summaries that could stand for older rows: a handful among a conversation's rows.
    index('messages_summaries')
      .on(table.conversationId, table.seq)
      .where(sql`kind = 'summary'`),
  ],
);

/**
 * The window a summary was made for: the target brain and model whose request it was sized to fit, that window's
 * size and the input it allowed. A turn to any brain may use the summary when its own window needs that span
 * summarised at about that size (context/summary-choice.ts).
 */
export const summaryWindows = sqliteTable('summary_windows', {
  summaryId: text('summary_id')
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  brain: text('brain').notNull(),
  model: text('model').notNull(),
  contextWindow: integer('context_window').notNull(),
  inputBudget: integer('input_budget').notNull(),
  /** The person asked for it (Compact now): that brain's requests hold it even while every row would fit. */
  requested: integer('requested', { mode: 'boolean' }).notNull().default(false),
});

export const toolInvocations = sqliteTable(
  'tool_invocations',
  {
    id: text('id').primaryKey(),
    turnId: text('turn_id').notNull(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: ['tool', 'memory', 'skill'] }).notNull(),
    server: text('server'),
    tool: text('tool').notNull(),
    providerCallId: text('provider_call_id'),
    input: text('input', { mode: 'json' }),
    output: text('output'),
    status: text('status', { enum: ['ok', 'error', 'denied', 'cancelled'] }).notNull(),
    opaque: text('opaque', { mode: 'json' }),
    startedAt: text('started_at').notNull(),
    endedAt: text('ended_at'),
    /** The images a tool result held, in order (`[{mimeType, data}]`, data in base64), or null; `output` holds its text. */
    images: text('images', { mode: 'json' }).$type<ToolImage[]>(),
  },
  (table) => [index('tool_invocations_message').on(table.messageId, table.seq), index('tool_invocations_turn').on(table.turnId)],
);

/**
 * Files attached to user messages. The bytes live once per content in `<dataDir>/attachments/<sha256>`, never in a
 * message's text; a row with no message is waiting to be sent. Deleting a message (or its conversation) deletes its
 * rows, and a file goes when no row names its sha256 any more.
 */
export const attachments = sqliteTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Sniffed from the bytes when added, never taken from the name. */
    mediaType: text('media_type').notNull(),
    kind: text('kind', { enum: ['image', 'pdf', 'text'] }).notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** A PDF's page count as read from its bytes (what providers charge by), else null. */
    pages: integer('pages'),
    createdAt: text('created_at').notNull(),
  },
  (table) => [index('attachments_message').on(table.messageId), index('attachments_sha256').on(table.sha256)],
);

/**
 * One turn per conversation across processes: the process answering in a conversation holds its lease, taken in the
 * transaction that admits the turn and released in the one that finishes it. A holder renews `expires_at` while the
 * reply runs, so a killed process's lease lapses on its own; its owner lock (store/owner-lock.ts) frees it sooner.
 */
export const turnLeases = sqliteTable('turn_leases', {
  conversationId: text('conversation_id')
    .primaryKey()
    .references(() => conversations.id, { onDelete: 'cascade' }),
  turnId: text('turn_id').notNull(),
  /** `pid@host`, as in `messages.stream_owner`. */
  owner: text('owner').notNull(),
  /** Minted when the holder opened the data folder: a later process with the same pid is not the holder. */
  token: text('token').notNull(),
  /** Milliseconds since the epoch after which another process may take the conversation. */
  expiresAt: integer('expires_at').notNull(),
});

export const memories = sqliteTable('memories', {
  id: text('id').primaryKey(),
  text: text('text').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

export const brainState = sqliteTable(
  'brain_state',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    brain: text('brain').notNull(),
    usage: text('usage', { mode: 'json' }),
    full: integer('full', { mode: 'boolean' }).notNull().default(false),
    /**
     * What the provider's size refusal said: the limit it named, else the estimate of the request it refused; with the
     * model it was for. A smaller window than the table's, learned for this conversation.
     */
    refusedTokens: integer('refused_tokens'),
    refusedModel: text('refused_model'),
    /**
     * Where this brain's request starts when rows must be left out and no summary fits: the oldest row it holds, and
     * the window the cut was made for. Kept until the request reaches the emergency line again, so the start of the
     * request stays the same between cuts and the provider's prompt cache keeps serving it.
     */
    trimFromSeq: integer('trim_from_seq'),
    trimWindow: integer('trim_window'),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.brain] })],
);

/**
 * Every request a turn or a compaction sent a provider, with what the provider counted: a reply of three tool rounds
 * is three rows, a compaction read in parts one row a part. Tokens are normalised (src-shared/usage.ts): `input` is the
 * whole input on every wire, cached reads and writes a share of it. A reply's and a conversation's totals are sums.
 */
export const requestUsage = sqliteTable(
  'request_usage',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The reply's turn, or the compaction's (its summary row carries the same turn id). */
    turnId: text('turn_id').notNull(),
    purpose: text('purpose', { enum: ['reply', 'compaction'] }).notNull(),
    /** The request's place in its turn: a reply's tool round, a compaction's part, from 0. */
    round: integer('round').notNull(),
    brain: text('brain').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    cacheReadTokens: integer('cache_read_tokens').notNull(),
    cacheWriteTokens: integer('cache_write_tokens').notNull(),
    /** The part of the cache writes kept an hour (Anthropic), priced apart from five-minute writes; 0 before it was kept. */
    cacheWriteHourTokens: integer('cache_write_hour_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull(),
    reasoningTokens: integer('reasoning_tokens').notNull(),
    createdAt: text('created_at').notNull(),
    /**
     * What the request cost in US dollars by the price list in use when it was made (cached reads and writes at their
     * own rates, the provider's long-prompt tier applied); null when the list does not know the model.
     */
    costUsd: real('cost_usd'),
  },
  (table) => [index('request_usage_turn').on(table.turnId), index('request_usage_conversation').on(table.conversationId, table.createdAt)],
);

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
});

export const counters = sqliteTable('counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull().default(0),
});

/** What the last `anybrain repair … --apply` changed, so `repair --undo` can restore each text exactly. */
export const repairChanges = sqliteTable(
  'repair_changes',
  {
    repairId: text('repair_id').notNull(),
    kind: text('kind', { enum: ['quote-escapes', 'chrome'] }).notNull(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    beforeText: text('before_text').notNull(),
    afterText: text('after_text').notNull(),
    appliedAt: text('applied_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.repairId, table.messageId] })],
);

/**
 * Each brain's model list as its provider last answered it, with the base URL asked and when: the figures that win
 * over the bundled catalogue. One row per brain, replaced whole by each answer.
 */
export const providerModels = sqliteTable('provider_models', {
  brain: text('brain').primaryKey(),
  baseUrl: text('base_url').notNull(),
  fetchedAt: text('fetched_at').notNull(),
  models: text('models', { mode: 'json' }).notNull(),
});
