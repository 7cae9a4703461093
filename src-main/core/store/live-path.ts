/**
 * The live path, read the way the window guard needs it: newest first, from the token estimate each row stores, never
 * reading a message's text (the `messages_live_path` index answers every walk here on its own). Walking from the
 * newest row, the first row a summary covers ends the path, and that summary stands for everything before it. A summary
 * that covers nothing here (imported with the history it summarised left behind, or whose rows were deleted) stands at
 * the head of the path, for the history before it.
 */
import { statementCacheFor } from './statements';
import type { AppDatabase } from './open';

/** The summary that stands for the covered rows. */
export interface LiveSummary {
  readonly id: string;
  readonly tokens: number;
}

/** One row of the walk: only what the index holds. */
export interface PathEntry {
  readonly seq: number;
  readonly tokens: number;
}

export interface LivePath {
  readonly summary: LiveSummary | null;
  /** The newest rows that fit the budget, newest first. */
  readonly fitting: readonly PathEntry[];
  /** Their tokens, the summary's included when it fits. */
  readonly fittingTokens: number;
  /** The summary was left out because it alone did not fit. */
  readonly summaryOutside: boolean;
  /** Live rows older than the fitting ones: the replay leaves them out. */
  readonly outsideRows: number;
  readonly outsideTokens: number;
}

const walkNewestFirst = statementCacheFor(
  `SELECT seq, token_estimate AS tokens, compacted_into AS compactedInto, status,
     replayed_tokens_through AS tokensThrough, replayed_rows_through AS rowsThrough
   FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' ORDER BY seq DESC`,
);
const selectTotalsAt = statementCacheFor(
  `SELECT replayed_tokens_through AS tokensThrough, replayed_rows_through AS rowsThrough FROM messages
   WHERE conversation_id = ? AND seq = ? AND kind != 'summary'`,
);
const selectSummaryLink = statementCacheFor(
  `SELECT id, seq, token_estimate AS tokens, compacted_into AS compactedInto, covers_through_id AS coversThroughId FROM messages WHERE id = ?`,
);

/** Every row but a summary carries them: written with the row (store/messages.ts), backfilled by migration 0004. */
interface RunningTotals {
  readonly tokensThrough: number;
  readonly rowsThrough: number;
}

interface WalkedRow extends RunningTotals {
  readonly seq: number;
  readonly tokens: number;
  readonly compactedInto: string | null;
  readonly status: string;
}

interface SummaryLink {
  readonly id: string;
  readonly seq: number;
  readonly tokens: number;
  readonly compactedInto: string | null;
  readonly coversThroughId: string | null;
}

/** Follows `compacted_into` from a covered row to the summary no later summary covers. */
function resolveSummary(db: AppDatabase, summaryId: string): SummaryLink | null {
  let current = selectSummaryLink(db).get(summaryId) as SummaryLink | undefined;
  // A chain of summaries is as long as the number of compactions; the bound only guards against a corrupted loop.
  for (let hops = 0; current && current.compactedInto !== null && hops < 10_000; hops += 1) {
    current = selectSummaryLink(db).get(current.compactedInto) as SummaryLink | undefined;
  }
  return current ?? null;
}

/**
 * Walks the live path newest first and keeps the rows that fit `budget` tokens (the summary's room taken first).
 * Reads at most the fitting rows one by one; the rows beyond are counted by one aggregate over the index. Every row
 * costs its stored estimate plus `rowFramingTokens`: what the target's wire wraps each message in beyond the framing
 * the stored estimate already counts.
 */
export function scanLivePath(
  db: AppDatabase,
  conversationId: string,
  budget: number = Number.POSITIVE_INFINITY,
  rowFramingTokens: number = 0,
): LivePath {
  const fitting: PathEntry[] = [];
  let fittingTokens = 0;
  let boundary: { seq: number; summaryId: string } | null = null;
  let cutoffSeq: number | null = null;
  let firstOutside: RunningTotals = { tokensThrough: 0, rowsThrough: 0 };
  // The summary's room is known only at the walk's end; rows are taken against the whole budget and the summary is
  // then left out if it no longer fits, which costs the replay nothing it could have held.
  for (const row of walkNewestFirst(db).iterate(conversationId) as IterableIterator<WalkedRow>) {
    if (row.compactedInto !== null) {
      boundary = { seq: row.seq, summaryId: row.compactedInto };
      break;
    }
    if (row.status === 'failed' || row.status === 'streaming') continue;
    const tokens = row.tokens + rowFramingTokens;
    if (fittingTokens + tokens > budget) {
      cutoffSeq = row.seq + 1;
      firstOutside = row;
      break;
    }
    fitting.push({ seq: row.seq, tokens });
    fittingTokens += tokens;
  }
  let summary: LiveSummary | null = null;
  let boundarySeq = -1;
  if (cutoffSeq === null && boundary !== null) {
    boundarySeq = boundary.seq;
    const resolved = resolveSummary(db, boundary.summaryId);
    summary = resolved === null ? null : { id: resolved.id, tokens: resolved.tokens + rowFramingTokens };
  } else if (cutoffSeq !== null) {
    // The walk stopped for room: find where the path ends below it (the newest covered row), to count what is left.
    const below = coveredBoundaryBelow(db, conversationId, cutoffSeq);
    boundarySeq = below.seq;
    summary = below.summary === null ? null : { id: below.summary.id, tokens: below.summary.tokens + rowFramingTokens };
  }
  if (summary === null && boundary === null) {
    const head = headSummary(db, conversationId);
    summary = head === null ? null : { id: head.id, tokens: head.tokens + rowFramingTokens };
  }
  const older = cutoffSeq === null ? { rows: 0, tokens: 0 } : olderLiveRows(db, conversationId, firstOutside, boundarySeq);
  let summaryOutside = false;
  let outsideRows = older.rows;
  let outsideTokens = older.tokens + older.rows * rowFramingTokens;
  if (summary !== null) {
    if (cutoffSeq === null && fittingTokens + summary.tokens <= budget) fittingTokens += summary.tokens;
    else {
      summaryOutside = true;
      outsideRows += 1;
      outsideTokens += summary.tokens;
    }
  }
  return { summary, fitting, fittingTokens, summaryOutside, outsideRows, outsideTokens };
}

/**
 * The live rows from the first that did not fit down to the newest covered one: the difference of the two rows'
 * running totals, two index lookups at any length where an aggregate would read every index entry between them.
 */
function olderLiveRows(db: AppDatabase, conversationId: string, firstOutside: RunningTotals, boundarySeq: number): { rows: number; tokens: number } {
  const floor = boundarySeq < 0 ? undefined : (selectTotalsAt(db).get(conversationId, boundarySeq) as RunningTotals | undefined);
  return { rows: firstOutside.rowsThrough - (floor?.rowsThrough ?? 0), tokens: firstOutside.tokensThrough - (floor?.tokensThrough ?? 0) };
}

const selectNewestCoveredBelow = statementCacheFor(
  `SELECT seq, compacted_into AS compactedInto FROM messages
   WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' AND seq < ? AND compacted_into IS NOT NULL ORDER BY seq DESC LIMIT 1`,
);
const selectOldestRow = statementCacheFor(
  `SELECT seq, compacted_into AS compactedInto FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' ORDER BY seq LIMIT 1`,
);
const selectHeadSummary = statementCacheFor(
  `SELECT id, token_estimate AS tokens FROM messages AS summary
   WHERE conversation_id = ? AND on_live_path = 0 AND kind = 'summary' AND compacted_into IS NULL
     AND seq < coalesce((SELECT min(seq) FROM messages WHERE conversation_id = summary.conversation_id AND on_live_path = 1 AND kind != 'summary'), 9007199254740991)
     AND NOT EXISTS (SELECT 1 FROM messages AS covered WHERE covered.compacted_into = summary.id)
   ORDER BY seq DESC LIMIT 1`,
);

/**
 * A summary before the live path's first row that covers nothing in this conversation: its history was left behind
 * (an import) or deleted. It stands at the head of the path. A summary off the path stays outside the tree, so it is
 * found by its place and by covering no row, not by the path.
 */
function headSummary(db: AppDatabase, conversationId: string): LiveSummary | null {
  const row = selectHeadSummary(db).get(conversationId) as { id: string; tokens: number } | undefined;
  return row ?? null;
}

const selectSeqOf = statementCacheFor(`SELECT seq FROM messages WHERE id = ? AND conversation_id = ?`);

/**
 * The newest covered row below `seq` (-1 when none) and the summary that stands for it: the live path ends just above
 * it. A compaction covers every row from the oldest up to the span it summarises (store/compaction.ts), so the covered
 * rows are a prefix of the conversation: the oldest row says whether there are any, and the live summary's
 * `covers_through_id` names the newest. That answer costs a few lookups, where searching the index for the newest
 * covered row reads every entry below `seq` (about 11 ms at 100,000 messages).
 */
function coveredBoundaryBelow(db: AppDatabase, conversationId: string, seq: number): { seq: number; summary: LiveSummary | null } {
  const oldest = selectOldestRow(db).get(conversationId) as { seq: number; compactedInto: string | null } | undefined;
  if (oldest === undefined || oldest.seq >= seq || oldest.compactedInto === null) return { seq: -1, summary: null };
  const live = resolveSummary(db, oldest.compactedInto);
  const through = live?.coversThroughId ? (selectSeqOf(db).get(live.coversThroughId, conversationId) as { seq: number } | undefined) : undefined;
  if (live !== null && through !== undefined && through.seq < seq) {
    return { seq: through.seq, summary: { id: live.id, tokens: live.tokens } };
  }
  // Covered rows that are not a prefix (no compaction writes them so): search the index.
  const row = selectNewestCoveredBelow(db).get(conversationId, seq) as { seq: number; compactedInto: string } | undefined;
  if (row === undefined) return { seq: -1, summary: null };
  const resolved = resolveSummary(db, row.compactedInto);
  return { seq: row.seq, summary: resolved === null ? null : { id: resolved.id, tokens: resolved.tokens } };
}

const selectNewestMeasured = statementCacheFor(
  `SELECT seq, brain, usage FROM messages
   WHERE conversation_id = ? AND on_live_path = 1 AND seq >= ? AND role = 'assistant' AND kind != 'summary' AND compacted_into IS NULL AND usage IS NOT NULL
   ORDER BY seq DESC LIMIT 1`,
);

/** The newest reply at or after `fromSeq` that carries a provider's usage snapshot: what it measured, and where. */
export function newestUsageSnapshot(db: AppDatabase, conversationId: string, fromSeq: number): { seq: number; brain: string | null; usage: unknown } | null {
  const row = selectNewestMeasured(db).get(conversationId, fromSeq) as { seq: number; brain: string | null; usage: string } | undefined;
  return row ? { seq: row.seq, brain: row.brain, usage: JSON.parse(row.usage) as unknown } : null;
}

const selectNewestUserBefore = statementCacheFor(
  `SELECT seq FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND seq < ? AND role = 'user' AND compacted_into IS NULL ORDER BY seq DESC LIMIT 1`,
);

/** The seq of the newest user message before `beforeSeq`: the one a turn answers. */
export function newestUserSeqBefore(db: AppDatabase, conversationId: string, beforeSeq: number): number | null {
  const row = selectNewestUserBefore(db).get(conversationId, beforeSeq) as { seq: number } | undefined;
  return row?.seq ?? null;
}
