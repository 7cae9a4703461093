/**
 * What each provider request cost in tokens, one row per request (db/schema.ts `request_usage`), and the sums a
 * reply, a compaction or a conversation is reported by.
 */
import type { Usage } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { normaliseUsage, type NormalisedUsage } from '../../../src-shared/usage';
import { newId } from './clock';
import type { AppDatabase } from './open';
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
  readonly now: string;
}

const insertUsage = statementCacheFor(
  `INSERT INTO request_usage (id, conversation_id, turn_id, purpose, round, brain, model, input_tokens, cache_read_tokens,
     cache_write_tokens, output_tokens, reasoning_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    tokens.outputTokens,
    tokens.reasoningTokens,
    record.now,
  );
}

export interface UsageTotals extends NormalisedUsage {
  /** How many provider requests the sums cover. */
  readonly requests: number;
}

const SUMS = `count(*) AS requests, coalesce(sum(input_tokens), 0) AS inputTokens, coalesce(sum(cache_read_tokens), 0) AS cacheReadTokens,
  coalesce(sum(cache_write_tokens), 0) AS cacheWriteTokens, coalesce(sum(output_tokens), 0) AS outputTokens,
  coalesce(sum(reasoning_tokens), 0) AS reasoningTokens`;
const selectTurnTotals = statementCacheFor(`SELECT ${SUMS} FROM request_usage WHERE turn_id = ?`);
const selectConversationTotals = statementCacheFor(`SELECT ${SUMS} FROM request_usage WHERE conversation_id = ?`);

/** Every request of one turn (a reply's tool rounds, or a compaction's parts), summed. */
export function usageOfTurn(db: AppDatabase, turnId: string): UsageTotals {
  return selectTurnTotals(db).get(turnId) as UsageTotals;
}

/** Every request a conversation's replies and compactions made, summed. */
export function usageOfConversation(db: AppDatabase, conversationId: string): UsageTotals {
  return selectConversationTotals(db).get(conversationId) as UsageTotals;
}
