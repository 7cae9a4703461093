/**
 * What the provider requests cost: the stored rows summed per day (UTC), brain and model, each request with the price
 * it was given when it ended (a provider's long-prompt tier applies to one request, not to a day's sum); and the prices
 * they are given, the user's own where set.
 */
import { ApiError, type ModelPriceView, type UsageDayView } from '../../../src-shared/api';
import { BRAIN_IDS, BRAINS, isBrainId, type BrainId } from '../../../src-shared/brains';
import { offeredModels } from '../../../src-shared/models/catalogue';
import { listOwnPrices, readOwnPrice, writeOwnPrice } from '../store/own-prices';
import { inTransaction, type AppDatabase } from '../store/open';
import { listCountedModels, listRequestUsage, repriceRequests, type StoredRequestUsage } from '../store/request-usage';
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

/** The price list is large (about 0.5 MB of JavaScript): read when prices are first asked for. */
const prices = () => import('../prices');

/**
 * Every model a request was counted for, every model the pickers offer and every model the user priced, for the
 * brains whose providers charge; by brain in the pickers' order, then by name.
 */
async function modelPriceViews(db: AppDatabase): Promise<ModelPriceView[]> {
  const { chargesForTokens, modelPrice } = await prices();
  const models = new Map<string, { brain: BrainId; model: string }>();
  const add = (brain: BrainId, model: string) => models.set(`${brain}/${model}`, { brain, model });
  for (const brain of BRAIN_IDS) for (const model of offeredModels(brain)) add(brain, model);
  for (const { brain, model } of listCountedModels(db)) if (isBrainId(brain)) add(brain, model);
  for (const { brain, model } of listOwnPrices(db)) add(brain, model);
  return [...models.values()]
    .filter(({ brain }) => chargesForTokens(brain))
    .sort((left, right) => BRAIN_IDS.indexOf(left.brain) - BRAIN_IDS.indexOf(right.brain) || (left.model < right.model ? -1 : left.model > right.model ? 1 : 0))
    .map(({ brain, model }) => {
      const listed = modelPrice(brain, model);
      return {
        brain,
        model,
        listed: listed === null ? null : { inputPerMillion: listed.inputPerMillion, outputPerMillion: listed.outputPerMillion, cacheReadPerMillion: listed.cacheReadPerMillion, cacheWritePerMillion: listed.cacheWritePerMillion },
        pricedAs: listed?.pricedAs ?? null,
        own: readOwnPrice(db, brain, model),
      };
    });
}

export function usageCommands({ db }: Pick<CommandDependencies, 'db'>) {
  return {
    getUsage: async ({ conversationId, since }) => {
      if (conversationId !== undefined) requireConversation(db, conversationId);
      return usageByDay(listRequestUsage(db, { ...(conversationId === undefined ? {} : { conversationId }), ...(since === undefined ? {} : { since }) }));
    },
    getModelPrices: () => modelPriceViews(db),
    setModelPrice: async ({ brain, model, price }) => {
      const { chargesForTokens, costOf } = await prices();
      if (!chargesForTokens(brain)) throw new ApiError('invalid-input', `${BRAINS[brain].label} runs on this machine: its tokens cost nothing.`);
      // The price and every request priced by it change together, or neither does.
      inTransaction(db, () => {
        writeOwnPrice(db, brain, model, price);
        repriceRequests(db, brain, model, (tokens) => costOf(brain, model, tokens, new Date(tokens.createdAt), price));
      });
      return modelPriceViews(db);
    },
  } satisfies HandlerGroup;
}
