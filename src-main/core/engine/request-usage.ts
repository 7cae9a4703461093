/**
 * Keeps what a provider request cost as its stream ends: its tokens, and its dollars by the price list in use now. The
 * count is accounting, not the reply: a store that refuses the write (a full disk, another process holding the lock)
 * loses that row and never the reply, which reports the disk on its own end.
 */
import { BRAINS } from '../../../src-shared/brains';
import { normaliseUsage } from '../../../src-shared/usage';
import { guardedWrite } from '../store/guarded-write';
import { commitSyncingInBackground } from '../store/log-sync';
import type { AppDatabase } from '../store/open';
import { readOwnPrice } from '../store/own-prices';
import { recordRequestUsage, type RequestUsageRecord } from '../store/request-usage';
import type * as Prices from '../prices';

/** The price list is large (about 0.5 MB of JavaScript): read once, when the first request is counted. */
let priceList: Promise<typeof Prices> | null = null;

/** The request's dollars, or null when the price list does not know the model or cannot be read. */
async function priceOf(db: AppDatabase, record: Omit<RequestUsageRecord, 'costUsd'>): Promise<number | null> {
  try {
    const { costOf } = await (priceList ??= import('../prices'));
    const hourWrites = record.usage.cacheWriteHourTokens;
    const tokens = { ...normaliseUsage(record.usage, BRAINS[record.brain].wire), ...(hourWrites === undefined ? {} : { cacheWriteHourTokens: hourWrites }) };
    return costOf(record.brain, record.model, tokens, new Date(record.now), readOwnPrice(db, record.brain, record.model));
  } catch {
    return null;
  }
}

export async function keepRequestUsage(db: AppDatabase, record: Omit<RequestUsageRecord, 'costUsd'>): Promise<void> {
  const costUsd = await priceOf(db, record);
  const written = guardedWrite('keeping what a request cost', () => commitSyncingInBackground(db, () => recordRequestUsage(db, { ...record, costUsd })));
  if (written.kind === 'written') written.value.durable.catch(() => undefined);
}
