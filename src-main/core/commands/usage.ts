/**
 * What the provider requests cost: the stored rows summed per day (UTC), brain and model, each request with the price
 * it was given when it ended (a provider's long-prompt tier applies to one request, not to a day's sum).
 */
import type { UsageDayView } from '../../../src-shared/api';
import { isBrainId } from '../../../src-shared/brains';
import { listRequestUsage, type StoredRequestUsage } from '../store/request-usage';
import { requireConversation } from './conversations';
import type { CommandDependencies, HandlerGroup } from './handlers';

/** Rows summed per day, brain and model, in the order their first request came; a day's unknown price stays unknown. */
export function usageByDay(rows: readonly StoredRequestUsage[]): UsageDayView[] {
  const days = new Map<string, UsageDayView>();
  for (const row of rows) {
    if (!isBrainId(row.brain)) continue;
    const day = row.createdAt.slice(0, 10);
    const key = `${day}\n${row.brain}\n${row.model}`;
    const cost = row.costUsd;
    const sum = days.get(key);
    days.set(key, {
      day,
      brain: row.brain,
      model: row.model,
      requests: (sum?.requests ?? 0) + 1,
      inputTokens: (sum?.inputTokens ?? 0) + row.inputTokens,
      cacheReadTokens: (sum?.cacheReadTokens ?? 0) + row.cacheReadTokens,
      cacheWriteTokens: (sum?.cacheWriteTokens ?? 0) + row.cacheWriteTokens,
      outputTokens: (sum?.outputTokens ?? 0) + row.outputTokens,
      reasoningTokens: (sum?.reasoningTokens ?? 0) + row.reasoningTokens,
      costUsd: sum === undefined ? cost : sum.costUsd === null || cost === null ? null : Math.round((sum.costUsd + cost) * 1e8) / 1e8,
    });
  }
  return [...days.values()];
}

export function usageCommands({ db }: Pick<CommandDependencies, 'db'>) {
  return {
    getUsage: async ({ conversationId, since }) => {
      if (conversationId !== undefined) requireConversation(db, conversationId);
      return usageByDay(listRequestUsage(db, { ...(conversationId === undefined ? {} : { conversationId }), ...(since === undefined ? {} : { since }) }));
    },
  } satisfies HandlerGroup;
}
