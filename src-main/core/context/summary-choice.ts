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
  /** When it was written: a summary takes the next seq of its conversation. */
  readonly seq: number;
  /** What it costs in the request, with the target wire's framing. */
  readonly tokens: number;
  readonly throughSeq: number;
  /**
   * The window it was made for, and whether the person asked for it (Compact now); null on a summary written before
   * windows were recorded, or imported, which suits every window.
   */
  readonly madeFor: { readonly brain: string; readonly model: string; readonly contextWindow: number; readonly requested: boolean } | null;
}

/** The brain a request goes to, and its window. */
export interface SummaryTarget {
  readonly brain: string;
  readonly contextWindow: number;
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
 * The summary a request to `target` holds within `budget`, given the newest rows that fit (`fitting`, newest first)
 * and the first row that did not (`firstOutsideSeq`, null when every row fits). The summary the person last asked
 * this brain to use comes first, whenever it fits. Otherwise a summary stands only when rows must be left out: among
 * those that suit the target's window and reach the fitting rows (every row after them fits), the one covering the
 * fewest rows, the largest of those first. Null when the rows stand alone.
 */
export function chooseSummary(
  fitting: readonly PathEntry[],
  firstOutsideSeq: number | null,
  candidates: readonly SummaryCandidate[],
  budget: number,
  target: SummaryTarget,
): SummaryChoice | null {
  const reaching = candidates.filter((candidate) => firstOutsideSeq === null || candidate.throughSeq >= firstOutsideSeq);
  if (reaching.length === 0) return null;
  // Tokens of the fitting rows newer than each position: `newerTokens[i]` sums fitting[0..i-1].
  const newerTokens: number[] = [0];
  for (const entry of fitting) newerTokens.push(newerTokens[newerTokens.length - 1]! + entry.tokens);
  const fits = (candidate: SummaryCandidate): SummaryChoice | null => {
    const keptCount = countNewerThan(fitting, candidate.throughSeq);
    const tokens = candidate.tokens + newerTokens[keptCount]!;
    return tokens <= budget ? { summary: candidate, kept: fitting.slice(0, keptCount), tokens } : null;
  };
  const requested = reaching
    .filter((candidate) => candidate.madeFor?.requested === true && candidate.madeFor.brain === target.brain)
    .sort((a, b) => b.seq - a.seq);
  for (const candidate of requested.slice(0, 1)) {
    const choice = fits(candidate);
    if (choice !== null) return choice;
  }
  if (firstOutsideSeq === null) return null;
  const ordered = reaching
    .filter((candidate) => suitsWindow(candidate, target.contextWindow))
    .sort((a, b) => a.throughSeq - b.throughSeq || b.tokens - a.tokens);
  for (const candidate of ordered) {
    const choice = fits(candidate);
    if (choice !== null) return choice;
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
