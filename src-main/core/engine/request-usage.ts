/**
 * Keeps what a provider request cost as its stream ends. The count is accounting, not the reply: a store that refuses
 * the write (a full disk, another process holding the lock) loses that row and never the reply, which reports the
 * disk on its own end.
 */
import { guardedWrite } from '../store/guarded-write';
import { commitSyncingInBackground } from '../store/log-sync';
import type { AppDatabase } from '../store/open';
import { recordRequestUsage, type RequestUsageRecord } from '../store/request-usage';

export function keepRequestUsage(db: AppDatabase, record: RequestUsageRecord): void {
  const written = guardedWrite('keeping what a request cost', () => commitSyncingInBackground(db, () => recordRequestUsage(db, record)));
  if (written.kind === 'written') written.value.durable.catch(() => undefined);
}
