/**
 * The live path, read the way the window guard needs it: newest first, from the token estimate each row stores, never
 * reading a message's text (the `messages_live_path` index answers every walk here on its own). Every row of the path
 * replays while the target's window holds it, whatever summaries cover it; when it does not, a summary that suits the
 * window stands for the rows it covers (context/summary-choice.ts). A summary that covers nothing here (imported with
 * the history it summarised left behind, or whose rows were deleted) stands at the head of the path.
 */
import { chooseSummary, countNewerThan, type PathEntry, type SummaryCandidate, type SummaryTarget } from '../context/summary-choice';
import { getMessage, type MessageRow } from './messages';
import { statementCacheFor } from './statements';
import type { AppDatabase } from './open';

export type { PathEntry } from '../context/summary-choice';

/** The summary a request holds, and the window it was made for. */
export interface LiveSummary {
  readonly id: string;
  readonly tokens: number;
  readonly madeFor: SummaryCandidate['madeFor'];
}

export interface LivePath {
  /** The summary the request holds in place of older rows, or null. */
  readonly summary: LiveSummary | null;
  /** The newest rows that fit the budget, newest first. */
  readonly fitting: readonly PathEntry[];
  /** Their tokens, the summary's included. */
  readonly fittingTokens: number;
  /** What the replay leaves out: older rows no summary in the request stands for, and a head summary with no room. */
  readonly outsideRows: number;
  readonly outsideTokens: number;
  /** While rows are left out without a summary: the seq the request starts at (see `TrimOrder`); else null. */
  readonly cutFromSeq: number | null;
  /** When the newest summary that could stand for part of the path was written (its seq), or null when none could. */
  readonly newestSummarySeq: number | null;
}

/**
 * How rows are left out when no summary fits: in one block, never one row a turn. A cut keeps the newest rows that fill
 * `keepTokens`, and stays where it is (`storedFromSeq`) while the rows from it fit the budget, so the start of the
 * request stays byte-identical between cuts.
 */
export interface TrimOrder {
  readonly storedFromSeq: number | null;
  readonly keepTokens: number;
}

const walkNewestFirst = statementCacheFor(
  `SELECT seq, token_estimate AS tokens, status, replayed_tokens_through AS tokensThrough, replayed_rows_through AS rowsThrough
   FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND kind != 'summary' ORDER BY seq DESC`,
);

/** Every row but a summary carries them: written with the row (store/messages.ts), backfilled by migration 0004. */
interface RunningTotals {
  readonly tokensThrough: number;
  readonly rowsThrough: number;
}

interface WalkedRow extends RunningTotals {
  readonly seq: number;
  readonly tokens: number;
  readonly status: string;
}

export interface NewestRows {
  /** Newest first. */
  readonly fitting: readonly PathEntry[];
  readonly fittingTokens: number;
  /** The newest replayed row that did not fit, or null when every row fits. */
  readonly firstOutside: (RunningTotals & { readonly seq: number }) | null;
}

/**
 * The newest rows of the live path that fit `budget` tokens, each costing its stored estimate plus `rowFramingTokens`
 * (what the target's wire wraps each message in beyond the framing the stored estimate already counts). Reads at most
 * the fitting rows and one more; failed and streaming replies never replay.
 */
export function newestRowsThatFit(db: AppDatabase, conversationId: string, budget: number, rowFramingTokens: number): NewestRows {
  const fitting: PathEntry[] = [];
  let fittingTokens = 0;
  for (const row of walkNewestFirst(db).iterate(conversationId) as IterableIterator<WalkedRow>) {
    if (row.status === 'failed' || row.status === 'streaming') continue;
    const tokens = row.tokens + rowFramingTokens;
    if (fittingTokens + tokens > budget) return { fitting, fittingTokens, firstOutside: row };
    fitting.push({ seq: row.seq, tokens });
    fittingTokens += tokens;
  }
  return { fitting, fittingTokens, firstOutside: null };
}

const selectSummariesOnPath = statementCacheFor(
  `SELECT summary.id, summary.seq, summary.token_estimate AS tokens, through.seq AS throughSeq,
     made.brain AS madeForBrain, made.model AS madeForModel, made.context_window AS madeForWindow, made.requested
   FROM messages AS summary
   JOIN messages AS through ON through.id = summary.covers_through_id AND through.conversation_id = summary.conversation_id
   LEFT JOIN summary_windows AS made ON made.summary_id = summary.id
   WHERE summary.conversation_id = ? AND summary.kind = 'summary' AND through.on_live_path = 1 AND through.kind != 'summary'`,
);

/**
 * The summaries that could stand for a prefix of the live path: those whose last covered row the path shows (a summary
 * of another branch's rows ends on a row this path does not hold). Each costs its estimate plus `rowFramingTokens`.
 */
export function summariesOnPath(db: AppDatabase, conversationId: string, rowFramingTokens: number): SummaryCandidate[] {
  const rows = selectSummariesOnPath(db).all(conversationId) as Array<{
    id: string;
    seq: number;
    tokens: number;
    throughSeq: number;
    madeForBrain: string | null;
    madeForModel: string | null;
    madeForWindow: number | null;
    requested: number | null;
  }>;
  return rows.map((row) => ({
    id: row.id,
    seq: row.seq,
    tokens: row.tokens + rowFramingTokens,
    throughSeq: row.throughSeq,
    madeFor:
      row.madeForBrain === null || row.madeForModel === null || row.madeForWindow === null
        ? null
        : { brain: row.madeForBrain, model: row.madeForModel, contextWindow: row.madeForWindow, requested: row.requested === 1 },
  }));
}

/** Whose request a scan is for: its brain and window (which summaries suit it), and how to cut when none fits. */
export interface ScanOptions {
  readonly target?: SummaryTarget;
  readonly trim?: TrimOrder;
}

/**
 * The history a request holds within `budget` tokens (see context/summary-choice.ts for the choice of a summary):
 * every row while they fit (a summary of history this conversation does not hold at their head, or the summary the
 * person asked this brain to use), else the least compressed summary that suits the window and fits with the rows
 * after it, else the newest rows that fit (cut as `options.trim` says) and a count of the rest.
 */
export function scanLivePath(
  db: AppDatabase,
  conversationId: string,
  budget: number = Number.POSITIVE_INFINITY,
  rowFramingTokens: number = 0,
  options: ScanOptions = {},
): LivePath {
  const { fitting, fittingTokens, firstOutside } = newestRowsThatFit(db, conversationId, budget, rowFramingTokens);
  const { target = { brain: '', contextWindow: 0 }, trim } = options;
  const summaries = summariesOnPath(db, conversationId, rowFramingTokens);
  const newestSummarySeq = summaries.reduce<number | null>((newest, summary) => Math.max(newest ?? summary.seq, summary.seq), null);
  const choice = chooseSummary(fitting, firstOutside?.seq ?? null, summaries, budget, target);
  if (choice !== null) {
    const { id, tokens, madeFor } = choice.summary;
    return { newestSummarySeq, summary: { id, tokens, madeFor }, fitting: choice.kept, fittingTokens: choice.tokens, outsideRows: 0, outsideTokens: 0, cutFromSeq: null };
  }
  if (firstOutside === null) {
    const head = headSummary(db, conversationId);
    if (head === null) return { newestSummarySeq, summary: null, fitting, fittingTokens, outsideRows: 0, outsideTokens: 0, cutFromSeq: null };
    const summary = { id: head.id, tokens: head.tokens + rowFramingTokens, madeFor: null };
    if (fittingTokens + summary.tokens <= budget) {
      return { newestSummarySeq, summary, fitting, fittingTokens: fittingTokens + summary.tokens, outsideRows: 0, outsideTokens: 0, cutFromSeq: null };
    }
    return { newestSummarySeq, summary: null, fitting, fittingTokens, outsideRows: 1, outsideTokens: summary.tokens, cutFromSeq: null };
  }
  // The running totals through the first row left out count every replayed row from the start through it; the rows
  // that fit but fall before the cut are added to them.
  const kept = trim === undefined ? fitting : keptAfterCut(fitting, firstOutside.seq, trim);
  const dropped = fitting.slice(kept.length);
  const droppedTokens = dropped.reduce((sum, entry) => sum + entry.tokens, 0);
  const head = headSummary(db, conversationId);
  return {
    newestSummarySeq,
    summary: null,
    fitting: kept,
    fittingTokens: fittingTokens - droppedTokens,
    outsideRows: firstOutside.rowsThrough + dropped.length + (head === null ? 0 : 1),
    outsideTokens:
      firstOutside.tokensThrough + firstOutside.rowsThrough * rowFramingTokens + droppedTokens + (head === null ? 0 : head.tokens + rowFramingTokens),
    cutFromSeq: trim === undefined || kept.length === 0 ? null : kept[kept.length - 1]!.seq,
  };
}

/**
 * The rows a cut keeps, newest first: those from the stored cut while they all fit (every row above the first that did
 * not), else the newest that fill `keepTokens`, at least one.
 */
function keptAfterCut(fitting: readonly PathEntry[], firstOutsideSeq: number, trim: TrimOrder): readonly PathEntry[] {
  const stored = trim.storedFromSeq;
  if (stored !== null && stored > firstOutsideSeq) {
    const kept = fitting.slice(0, countNewerThan(fitting, stored - 1));
    if (kept.length > 0) return kept;
  }
  let tokens = 0;
  let count = 0;
  while (count < fitting.length && (count === 0 || tokens + fitting[count]!.tokens <= trim.keepTokens)) {
    tokens += fitting[count]!.tokens;
    count += 1;
  }
  return fitting.slice(0, count);
}

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
function headSummary(db: AppDatabase, conversationId: string): { id: string; tokens: number } | null {
  const row = selectHeadSummary(db).get(conversationId) as { id: string; tokens: number } | undefined;
  return row ?? null;
}

/** The summary at the head of the path (see `headSummary`), whole: a first compaction carries its text on. */
export function headSummaryRow(db: AppDatabase, conversationId: string): MessageRow | null {
  const head = headSummary(db, conversationId);
  return head === null ? null : getMessage(db, head.id);
}

const selectNewestMeasured = statementCacheFor(
  `SELECT seq, brain, usage FROM messages
   WHERE conversation_id = ? AND on_live_path = 1 AND seq >= ? AND role = 'assistant' AND kind != 'summary' AND usage IS NOT NULL
   ORDER BY seq DESC LIMIT 1`,
);

/** The newest reply at or after `fromSeq` that carries a provider's usage snapshot: what it measured, and where. */
export function newestUsageSnapshot(db: AppDatabase, conversationId: string, fromSeq: number): { seq: number; brain: string | null; usage: unknown } | null {
  const row = selectNewestMeasured(db).get(conversationId, fromSeq) as { seq: number; brain: string | null; usage: string } | undefined;
  return row ? { seq: row.seq, brain: row.brain, usage: JSON.parse(row.usage) as unknown } : null;
}

const selectNewestUserBefore = statementCacheFor(
  `SELECT seq FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND seq < ? AND role = 'user' AND kind != 'summary' ORDER BY seq DESC LIMIT 1`,
);

/** The seq of the newest user message before `beforeSeq`: the one a turn answers. */
export function newestUserSeqBefore(db: AppDatabase, conversationId: string, beforeSeq: number): number | null {
  const row = selectNewestUserBefore(db).get(conversationId, beforeSeq) as { seq: number } | undefined;
  return row?.seq ?? null;
}
