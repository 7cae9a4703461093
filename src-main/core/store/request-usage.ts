/**
 * What each provider request cost in tokens, one row per request (db/schema.ts `request_usage`), and the sums a
 * reply, a compaction or a conversation is reported by.
 */
import type { SpendView, Usage } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { normaliseUsage, type NormalisedUsage } from '../../../src-shared/usage';
import { newId } from './clock';
import { inTransaction, type AppDatabase } from './open';
import { statementCacheFor } from './statements';

export interface RequestUsageRecord {
  readonly conversationId: string;
  readonly turnId: string;
  readonly purpose: 'reply' | 'compaction';
  readonly round: number;
  readonly brain: BrainId;
  readonly model: string;
  /** As the provider's stream reported it; stored normalised. */
  readonly usage: Usage;
  /** Dollars by the price list in use now; null when it does not know the model. */
  readonly costUsd: number | null;
  readonly now: string;
}

const insertUsage = statementCacheFor(
  `INSERT INTO request_usage (id, conversation_id, turn_id, purpose, round, brain, model, input_tokens, cache_read_tokens,
     cache_write_tokens, cache_write_hour_tokens, output_tokens, reasoning_tokens, created_at, cost_usd)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);

export function recordRequestUsage(db: AppDatabase, record: RequestUsageRecord): void {
  const tokens = normaliseUsage(record.usage, BRAINS[record.brain].wire);
  insertUsage(db).run(
    newId(),
    record.conversationId,
    record.turnId,
    record.purpose,
    record.round,
    record.brain,
    record.model,
    tokens.inputTokens,
    tokens.cacheReadTokens,
    tokens.cacheWriteTokens,
    Math.min(record.usage.cacheWriteHourTokens ?? 0, tokens.cacheWriteTokens),
    tokens.outputTokens,
    tokens.reasoningTokens,
    record.now,
    record.costUsd,
  );
}

export interface UsageTotals extends NormalisedUsage {
  /** How many provider requests the sums cover. */
  readonly requests: number;
  /** Their dollars summed; null when any one's price is unknown, or there is none. */
  readonly costUsd: number | null;
}

const SUMS = `count(*) AS requests, coalesce(sum(input_tokens), 0) AS inputTokens, coalesce(sum(cache_read_tokens), 0) AS cacheReadTokens,
  coalesce(sum(cache_write_tokens), 0) AS cacheWriteTokens, coalesce(sum(output_tokens), 0) AS outputTokens,
  coalesce(sum(reasoning_tokens), 0) AS reasoningTokens,
  CASE WHEN count(*) > 0 AND count(cost_usd) = count(*) THEN round(sum(cost_usd), 8) END AS costUsd`;
const selectTurnTotals = statementCacheFor(`SELECT ${SUMS} FROM request_usage WHERE turn_id = ?`);
const selectConversationTotals = statementCacheFor(`SELECT ${SUMS} FROM request_usage WHERE conversation_id = ?`);

/** Every request of one turn (a reply's tool rounds, or a compaction's parts), summed. */
export function usageOfTurn(db: AppDatabase, turnId: string): UsageTotals {
  return selectTurnTotals(db).get(turnId) as UsageTotals;
}

const selectReplyTotals = statementCacheFor(
  `SELECT turn_id AS turnId, ${SUMS} FROM request_usage WHERE purpose = 'reply' AND turn_id IN (SELECT value FROM json_each(?)) GROUP BY turn_id`,
);

/** Each reply's requests (its tool rounds) summed, by turn id; a turn with no stored request is absent. */
export function replyUsageByTurn(db: AppDatabase, turnIds: readonly string[]): Map<string, UsageTotals> {
  const byTurn = new Map<string, UsageTotals>();
  if (turnIds.length === 0) return byTurn;
  for (const row of selectReplyTotals(db).all(JSON.stringify([...new Set(turnIds)])) as Array<UsageTotals & { turnId: string }>) {
    const { turnId, ...totals } = row;
    byTurn.set(turnId, totals);
  }
  return byTurn;
}

/** Every request a conversation's replies and compactions made, summed. */
export function usageOfConversation(db: AppDatabase, conversationId: string): UsageTotals {
  return selectConversationTotals(db).get(conversationId) as UsageTotals;
}

/** One stored request's tokens, with its brain, model and time. */
export interface StoredRequestUsage extends NormalisedUsage {
  readonly brain: string;
  readonly model: string;
  readonly createdAt: string;
  /** Its dollars by the price list in use when it ended; null when unknown (or counted before prices were kept). */
  readonly costUsd: number | null;
}

const COLUMNS = `brain, model, created_at AS createdAt, input_tokens AS inputTokens, cache_read_tokens AS cacheReadTokens,
  cache_write_tokens AS cacheWriteTokens, output_tokens AS outputTokens, reasoning_tokens AS reasoningTokens, cost_usd AS costUsd`;
const selectAllSince = statementCacheFor(`SELECT ${COLUMNS} FROM request_usage WHERE created_at >= ? ORDER BY created_at`);
const selectConversationSince = statementCacheFor(
  `SELECT ${COLUMNS} FROM request_usage WHERE conversation_id = ? AND created_at >= ? ORDER BY created_at`,
);

/** The requests of one conversation, or of all, made at or after `since` (an ISO 8601 instant), oldest first. */
export function listRequestUsage(db: AppDatabase, filter: { readonly conversationId?: string; readonly since?: string }): StoredRequestUsage[] {
  const since = filter.since ?? '';
  return (
    filter.conversationId === undefined ? selectAllSince(db).all(since) : selectConversationSince(db).all(filter.conversationId, since)
  ) as StoredRequestUsage[];
}

/** What the window shows of a reply's requests; null when none was stored. */
export function spendView(totals: UsageTotals | undefined): SpendView | null {
  if (totals === undefined || totals.requests === 0) return null;
  const { requests, inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens, costUsd } = totals;
  return { requests, inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens, costUsd };
}

const selectPricedModels = statementCacheFor(`SELECT DISTINCT brain, model FROM request_usage ORDER BY brain, model`);

/** Every brain and model a request was counted for. */
export function listCountedModels(db: AppDatabase): Array<{ readonly brain: string; readonly model: string }> {
  return selectPricedModels(db).all() as Array<{ brain: string; model: string }>;
}

/** One stored request's tokens, as a price needs them. */
export interface PricedTokens {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly cacheWriteHourTokens: number;
  readonly outputTokens: number;
  readonly createdAt: string;
}

const selectModelRequests = statementCacheFor(
  `SELECT id, input_tokens AS inputTokens, cache_read_tokens AS cacheReadTokens, cache_write_tokens AS cacheWriteTokens,
     cache_write_hour_tokens AS cacheWriteHourTokens, output_tokens AS outputTokens, created_at AS createdAt
   FROM request_usage WHERE brain = ? AND model = ?`,
);
const updateCost = statementCacheFor(`UPDATE request_usage SET cost_usd = ? WHERE id = ?`);

/** Prices every counted request of one model again (a price the user set or cleared), in one transaction. */
export function repriceRequests(db: AppDatabase, brain: BrainId, model: string, priceOf: (tokens: PricedTokens) => number | null): number {
  return inTransaction(db, () => {
    const rows = selectModelRequests(db).all(brain, model) as Array<PricedTokens & { id: string }>;
    for (const { id, ...tokens } of rows) updateCost(db).run(priceOf(tokens), id);
    return rows.length;
  });
}
