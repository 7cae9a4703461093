/**
 * What a compaction would fold, decided before anything is asked of a brain: the span of whole turns it summarises for
 * the target's window, the brain that writes the summary, and the words that tell the person (Compact now's preview,
 * and its refusal when there is nothing to fold).
 */
import type { CompactionPreview } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import type { ResolvedWindow } from '../../../src-shared/context-windows';
import { formatCount } from '../../../src-shared/format-count';
import { measureSpan, newestRowThrough, spanEnd, type CompactionSpan } from '../store/compaction';
import { headSummaryRow, newestRowsThatFit, newestUserSeqBefore, summariesOnPath } from '../store/live-path';
import { getMessage, nextSeq } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { effectiveWindow, WIRE_MESSAGE_FRAMING_TOKENS } from './pressure';
import { suitsWindow } from './summary-choice';
import type { ContextWindows } from './windows';

/** After a compaction the kept rows fill at most this share of the target's window (half the emergency line at most). */
export const KEEP_PERCENT = 25;
/** Compact now keeps at least the newest turns as they are: the conversation it folds reads on from them. */
export const REQUESTED_KEPT_TURNS = 2;

export interface PlanOrder {
  readonly conversationId: string;
  /** The brain and model whose window the compaction makes room in. */
  readonly target: { readonly brain: BrainId; readonly model: string };
  /** Rows from this seq on (the turn being answered) stay out of the summary. */
  readonly protectedFromSeq?: number;
  /** The person asked (Compact now): the newest turns are kept whatever the window, and that brain uses the summary. */
  readonly requested?: boolean;
}

export interface CompactionPlan {
  readonly span: CompactionSpan;
  readonly targetWindow: ResolvedWindow;
  /** The brain and model that write the summary (Settings → the summarising brain). */
  readonly summariser: { readonly brain: BrainId; readonly model: string };
}

/**
 * The span a compaction for `order.target` summarises: everything but the newest rows that fill KEEP_PERCENT of its
 * window (asked for by the person: everything but the newest REQUESTED_KEPT_TURNS turns, or fewer where they overfill
 * that share), ending before a user's message so whole turns are folded. It starts after the furthest-reaching summary made for about this window (its text carried into
 * the new one), else at the first row, carrying a summary of history the conversation does not hold.
 */
function planSpan(db: AppDatabase, windows: ContextWindows, order: PlanOrder, window: ResolvedWindow): CompactionSpan {
  const { conversationId, target } = order;
  const framing = WIRE_MESSAGE_FRAMING_TOKENS[BRAINS[target.brain].wire];
  const keepPercent = Math.min(KEEP_PERCENT, Math.floor(windows.lines(target.brain).emergencyPercent / 2));
  const keepTokens = Math.floor((window.contextWindow * keepPercent) / 100);
  const kept = newestRowsThatFit(db, conversationId, keepTokens, framing).fitting;
  let keptFromSeq = kept.length > 0 ? kept[kept.length - 1]!.seq : nextSeq(db, conversationId);
  if (order.requested === true) {
    let turnStart: number | null = Number.MAX_SAFE_INTEGER;
    for (let turn = 0; turn < REQUESTED_KEPT_TURNS && turnStart !== null; turn += 1) turnStart = newestUserSeqBefore(db, conversationId, turnStart);
    // The person asked to fold: the newest turns stay, or fewer rows where those turns alone overfill the share.
    keptFromSeq = turnStart === null ? -1 : Math.max(keptFromSeq, turnStart);
  }
  const protectedFromSeq = order.protectedFromSeq ?? Number.MAX_SAFE_INTEGER;
  const throughSeq = spanEnd(db, conversationId, keptFromSeq, protectedFromSeq);
  const previous = summariesOnPath(db, conversationId, framing)
    .filter((candidate) => candidate.throughSeq <= throughSeq && suitsWindow(candidate, window.contextWindow))
    .sort((a, b) => b.throughSeq - a.throughSeq || b.tokens - a.tokens)[0];
  const afterSeq = previous?.throughSeq ?? -1;
  const previousSummary = previous === undefined ? headSummaryRow(db, conversationId) : getMessage(db, previous.id);
  const measured = measureSpan(db, conversationId, afterSeq, throughSeq);
  return { previousSummary, afterSeq, throughSeq: Math.max(afterSeq, throughSeq), ...measured };
}

export async function planCompaction(db: AppDatabase, windows: ContextWindows, order: PlanOrder): Promise<CompactionPlan> {
  const { conversationId, target } = order;
  const targetWindow = await effectiveWindow(db, windows, conversationId, target.brain, target.model);
  const brain = windows.summariser(target.brain);
  const model = brain === target.brain ? target.model : BRAINS[brain].defaultModel;
  return { span: planSpan(db, windows, order, targetWindow), targetWindow, summariser: { brain, model } };
}

/** Why there is nothing to fold, in words. */
export function nothingToFoldWords(plan: CompactionPlan, order: PlanOrder): string {
  const label = BRAINS[order.target.brain].label;
  if (plan.span.previousSummary !== null && plan.span.afterSeq >= 0) {
    return `Nothing new to fold: everything before the newest turns is already in the summary for ${label}'s window.`;
  }
  if (order.requested === true) {
    return `Nothing to fold yet: Compact now keeps the newest ${REQUESTED_KEPT_TURNS} turns as they are, and there is no earlier turn.`;
  }
  return `There is nothing old enough to summarise: every message already fits ${label}'s window.`;
}

/** The first words of the newest message a plan folds, for the person to recognise it. */
function excerptOf(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  if (words.length <= 60) return words;
  const cut = words.slice(0, 60);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 30 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** What Compact now would do for `order.target`, or why it cannot, without asking any brain. */
export async function previewCompaction(db: AppDatabase, windows: ContextWindows, order: PlanOrder): Promise<CompactionPreview> {
  const plan = await planCompaction(db, windows, order);
  const { brain, model } = order.target;
  const summariser = plan.summariser;
  const base = { brain, model, summariser: summariser.brain, summariserModel: summariser.model };
  if (plan.span.rows === 0) return { ...base, messages: 0, through: null, message: nothingToFoldWords(plan, order) };
  const through = newestRowThrough(db, order.conversationId, plan.span.throughSeq);
  const excerpt = excerptOf(through?.text ?? '');
  const count = plan.span.rows;
  const writer = summariser.brain === brain ? BRAINS[brain].label : `${BRAINS[summariser.brain].label} (${summariser.model})`;
  const message =
    `${writer} will summarise ${formatCount(count)} message${count === 1 ? '' : 's'}, up to “${excerpt}”, for ${BRAINS[brain].label}'s window. ` +
    `They stay in the conversation, folded under the summary, and other brains keep them while their windows hold them.`;
  return { ...base, messages: count, through: through === null ? null : { messageId: through.id, excerpt }, message };
}
