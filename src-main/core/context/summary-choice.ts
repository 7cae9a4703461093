/**
 * Which history a request holds when the target's window cannot take every row: the rows themselves while they fit,
 * else the least compressed summary that fits with the rows after it. A summary belongs to the window it was made for:
 * one written for a much smaller window would cost a large window most of what it can hold, so that brain summarises
 * for itself instead, and a small window's compaction never changes what a large window sees.
 */

/** One row of the path as the guard counts it. */
export interface PathEntry {
  readonly seq: number;
  readonly tokens: number;
}

/** A summary that could stand for the path's rows from its start through `throughSeq`. */
export interface SummaryCandidate {
  readonly id: string;
  /** What it costs in the request, with the target wire's framing. */
  readonly tokens: number;
  readonly throughSeq: number;
  /** The window it was made for; null on a summary written before windows were recorded, which suits every window. */
  readonly madeFor: { readonly brain: string; readonly model: string; readonly contextWindow: number } | null;
}

/** A summary made for a window smaller than this share of the target's is not used for it. */
const SMALLEST_SUITABLE_SHARE = 0.5;

/** Whether a summary was sized for about this window or a larger one. */
export function suitsWindow(candidate: Pick<SummaryCandidate, 'madeFor'>, targetWindow: number): boolean {
  return candidate.madeFor === null || candidate.madeFor.contextWindow >= targetWindow * SMALLEST_SUITABLE_SHARE;
}

export interface SummaryChoice {
  readonly summary: SummaryCandidate;
  /** The rows after the summary, newest first. */
  readonly kept: readonly PathEntry[];
  /** The summary's tokens and the kept rows'. */
  readonly tokens: number;
}

/**
 * The summary a request holds when the rows from `firstOutsideSeq` down do not fit `budget`: among the summaries that
 * suit `targetWindow` and reach the fitting rows (every row after them fits), the one covering the fewest rows, the
 * largest of those first; null when none fits. `fitting` is newest first, as the walk found it.
 */
export function chooseSummary(
  fitting: readonly PathEntry[],
  firstOutsideSeq: number,
  candidates: readonly SummaryCandidate[],
  budget: number,
  targetWindow: number,
): SummaryChoice | null {
  const ordered = candidates
    .filter((candidate) => candidate.throughSeq >= firstOutsideSeq && suitsWindow(candidate, targetWindow))
    .sort((a, b) => a.throughSeq - b.throughSeq || b.tokens - a.tokens);
  if (ordered.length === 0) return null;
  // Tokens of the fitting rows newer than each position, oldest position last: `newerTokens[i]` sums fitting[0..i-1].
  const newerTokens: number[] = [0];
  for (const entry of fitting) newerTokens.push(newerTokens[newerTokens.length - 1]! + entry.tokens);
  for (const candidate of ordered) {
    const keptCount = countNewerThan(fitting, candidate.throughSeq);
    const tokens = candidate.tokens + newerTokens[keptCount]!;
    if (tokens <= budget) return { summary: candidate, kept: fitting.slice(0, keptCount), tokens };
  }
  return null;
}

/** How many entries of a newest-first list have a seq above `seq`. */
export function countNewerThan(newestFirst: readonly PathEntry[], seq: number): number {
  let low = 0;
  let high = newestFirst.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newestFirst[middle]!.seq > seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
