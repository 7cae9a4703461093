/**
 * The window guard: how much of the *target* brain's window the next request fills, and which rows it can hold.
 * It sums the stored token estimates of the live path newest first and never reads a message's text; a provider's
 * usage snapshot lends its count (never its window) for the rows it measured.
 */
import type { ContextStatusView, Usage } from '../../../src-shared/api';
import { BRAINS, isBrainId, type BrainId, type WireId } from '../../../src-shared/brains';
import { contextLevel, contextPercent, describeContextShare, type ContextLines, type ResolvedWindow } from '../../../src-shared/context-windows';
import { newestUsageSnapshot, scanLivePath, type LivePath } from '../store/live-path';
import type { AppDatabase } from '../store/open';
import { spendView, usageOfConversation } from '../store/request-usage';
import { readBrainState, saveBrainState } from '../store/settings';

type BrainStateRow = ReturnType<typeof readBrainState>;
import type { ContextWindows } from './windows';
import { formatCount } from '../../../src-shared/format-count';
import { normaliseUsage } from '../../../src-shared/usage';

/**
 * What each wire's JSON wraps one message in beyond the MESSAGE_FRAMING_TOKENS a stored estimate already counts, in the
 * estimate's own measure (characters / 4 of the request body): Anthropic's content blocks (`[{"type":"text","text":…}]`)
 * cost the most, Gemini's `parts` less, a bare `{"role","content"}` least. Stored estimates are shared by every brain,
 * so the wire's part is added when a request's rows are counted; without it a conversation of short messages builds a
 * body up to a tenth past the emergency line.
 */
export const WIRE_MESSAGE_FRAMING_TOKENS: Readonly<Record<WireId, number>> = {
  'anthropic-messages': 11,
  'openai-responses': 5,
  'chat-completions': 5,
  'gemini-generate-content': 6,
  'ollama-chat': 5,
};

/** The most a reply may take, whatever the model allows: the same cap every request has always sent. */
export const MAX_OUTPUT_TOKENS = 32_000;

/** What one reply may take in this window: never more than a quarter of a small window, so the history keeps room. */
export function replyTokens(window: Pick<ResolvedWindow, 'contextWindow' | 'outputLimit'>): number {
  return Math.max(256, Math.min(MAX_OUTPUT_TOKENS, window.outputLimit, Math.floor(window.contextWindow / 4)));
}

/**
 * Rows left out without a summary go in one block of this share of the window: the request then grows by about as
 * much before the next cut, and keeps the same start meanwhile.
 */
export const TRIM_BLOCK_SHARE = 0.5;

/** The most a request's input may hold: below the emergency line, and leaving the reply its room. */
export function inputBudget(window: Pick<ResolvedWindow, 'contextWindow' | 'outputLimit'>, lines: ContextLines): number {
  return Math.min(Math.floor((window.contextWindow * lines.emergencyPercent) / 100), window.contextWindow - replyTokens(window));
}

/** The tokens a usage snapshot measured for its request and reply, in the one measure of `normaliseUsage`. */
export function measuredTokens(usage: Usage, brain: BrainId): number {
  const normalised = normaliseUsage(usage, BRAINS[brain].wire);
  return normalised.inputTokens + normalised.outputTokens;
}

export interface PressureInput {
  readonly conversationId: string;
  readonly brain: BrainId;
  readonly model: string;
  /** The request's own cost beside the history: system prompt, tool declarations, turns not yet stored. */
  readonly overheadTokens: number;
}

export interface Pressure {
  readonly status: ContextStatusView;
  readonly window: ResolvedWindow;
  readonly lines: ContextLines;
  /** The live path as the next request can hold it. */
  readonly path: LivePath;
  /** Whether the next turn should compact first: at the emergency line, or the provider refused the size. */
  readonly compactFirst: boolean;
  /** The cut point this conversation kept for this brain when the pressure was measured (see `keepCutPoint`). */
  readonly keptCut: { readonly fromSeq: number | null; readonly window: number | null };
}

/** The window a request to this brain is built against, lowered to what its provider refused for this conversation. */
export async function effectiveWindow(
  db: AppDatabase,
  windows: ContextWindows,
  conversationId: string,
  brain: BrainId,
  model: string,
  state: BrainStateRow | null = readBrainState(db, conversationId, brain),
): Promise<ResolvedWindow> {
  const window = await windows.resolve(brain, model);
  if (state?.refusedTokens && state.refusedModel === model && state.refusedTokens < window.contextWindow) {
    const label = BRAINS[brain].label;
    return {
      ...window,
      contextWindow: state.refusedTokens,
      note: `${label} refused a request of this conversation at ${formatCount(state.refusedTokens)} tokens, so Anybrain keeps below that.`,
    };
  }
  return window;
}

export async function measurePressure(db: AppDatabase, windows: ContextWindows, input: PressureInput): Promise<Pressure> {
  const { conversationId, brain, model, overheadTokens } = input;
  const state = readBrainState(db, conversationId, brain);
  const window = await effectiveWindow(db, windows, conversationId, brain, model, state);
  const lines = windows.lines(brain);
  const budget = Math.max(0, inputBudget(window, lines) - overheadTokens);
  const trim = {
    storedFromSeq: state?.trimFromSeq != null && state.trimWindow === window.contextWindow ? state.trimFromSeq : null,
    keepTokens: Math.max(budget - Math.floor(window.contextWindow * TRIM_BLOCK_SHARE), Math.floor(budget / 4)),
  };
  const path = scanLivePath(db, conversationId, budget, WIRE_MESSAGE_FRAMING_TOKENS[BRAINS[brain].wire], {
    target: { brain, contextWindow: window.contextWindow },
    trim,
  });
  const estimated = path.fittingTokens + path.outsideTokens + overheadTokens;
  const measured = measuredTotal(db, conversationId, path, brain);
  // A provider's count is the truth for what it measured: the whole live path, unless rows are left outside now that
  // its request may not have held, where the larger figure is the safe one.
  const tokens = measured === 0 ? estimated : path.outsideRows === 0 ? measured : Math.max(measured, estimated);
  const full = state?.full ?? false;
  const level = contextLevel(tokens, window.contextWindow, lines);
  const status: ContextStatusView = {
    conversationId,
    brain,
    model,
    tokens,
    measuredBy: measured !== 0 && tokens === measured ? 'usage' : 'estimate',
    contextWindow: window.contextWindow,
    outputLimit: window.outputLimit,
    windowSource: window.source,
    windowReportedAt: window.reportedAt,
    windowNote: window.note,
    percent: contextPercent(tokens, window.contextWindow),
    level,
    lines,
    full,
    outsideWindow: path.outsideRows,
    summary: path.summary === null ? null : { messageId: path.summary.id, madeFor: summaryMadeFor(path.summary) },
    compacting: false,
    spent: spendView(usageOfConversation(db, conversationId)),
    description: describeContextShare(tokens, window.contextWindow, brain),
  };
  const keptCut = { fromSeq: state?.trimFromSeq ?? null, window: state?.trimWindow ?? null };
  return { status, window, lines, path, compactFirst: full || level === 'emergency', keptCut };
}

/**
 * Keeps where a turn's request started while rows are left out without a summary, so the next turn starts there too;
 * forgets it once the request holds every row or a summary. Written by a turn, never by a preview.
 */
export function keepCutPoint(db: AppDatabase, conversationId: string, brain: BrainId, pressure: Pressure, now: string): void {
  const kept = pressure.keptCut;
  const cut = pressure.path.cutFromSeq;
  const window = pressure.window.contextWindow;
  if (cut === null ? kept.fromSeq === null : kept.fromSeq === cut && kept.window === window) return;
  saveBrainState(db, { conversationId, brain, trim: cut === null ? null : { fromSeq: cut, window }, now });
}

/**
 * The history's size as a provider last counted it: the newest reply's usage snapshot (its request and its own words),
 * plus the estimates of the rows after it. Zero when no fitting reply carries a snapshot, or when the snapshot's
 * request may have held another history: once a summary exists, brains with other windows replay different histories,
 * so only the target's own count after the newest summary was written stands.
 */
function measuredTotal(db: AppDatabase, conversationId: string, path: LivePath, brain: BrainId): number {
  const oldest = path.fitting[path.fitting.length - 1];
  if (oldest === undefined) return 0;
  const snapshot = newestUsageSnapshot(db, conversationId, oldest.seq);
  if (snapshot === null || !isBrainId(snapshot.brain)) return 0;
  const newestSummary = path.newestSummarySeq;
  if (newestSummary !== null && (snapshot.brain !== brain || newestSummary > snapshot.seq)) return 0;
  const measured = measuredTokens(snapshot.usage as Usage, snapshot.brain);
  if (measured === 0) return 0;
  const after = path.fitting.filter((entry) => entry.seq > snapshot.seq).reduce((sum, entry) => sum + entry.tokens, 0);
  // The snapshot's request held its own system prompt and tools, counted in `measured`.
  return measured + after;
}

/** The brain a summary was made for, when it was recorded and is a brain this build knows. */
function summaryMadeFor(summary: NonNullable<LivePath['summary']>): BrainId | null {
  return summary.madeFor !== null && isBrainId(summary.madeFor.brain) ? summary.madeFor.brain : null;
}
