/**
 * Step 3 of a turn: guard the target brain's window. Measure what the request would hold; at the emergency line, or
 * when the provider refused this conversation's size, compact first; then take the newest rows that fit, with a
 * notice line when older ones stay outside. A request never exceeds the target's window, and the rows read are at
 * most one window's worth at any conversation length.
 */
import type { ApiEvent, CompactionResult, ContextStatusView } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { runCompaction, type CompactionDependencies } from '../context/compaction';
import type { ContinuationDependencies } from '../context/summary-continuation';
import { keepCutPoint, measurePressure, replyTokens, type Pressure } from '../context/pressure';
import { wholeCallsExtraTokens } from '../context/row-estimate';
import type { ContextWindows } from '../context/windows';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import type { ReplayTurn } from '../replay/types';
import { nowIso } from '../store/clock';
import type { LivePath } from '../store/live-path';
import { listInvocationsByMessage } from '../store/invocations';
import { getMessage, listLiveMessagesBetween, newestReplyWithRounds, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import type { ToolDefinition } from '../tools/catalogue';
import type { Skill } from '../tools/skills';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from './event-loop-turn';
import { requestOverhead } from './turn-request';
import type { ResolvedTarget } from './resolve-target';

export interface WindowGuardDependencies extends ContinuationDependencies {
  readonly db: AppDatabase;
  readonly windows: ContextWindows;
  readonly emit: (event: ApiEvent) => void;
  readonly stream: (call: ProviderCall) => AsyncIterable<StreamPart>;
  readonly callFor: CompactionDependencies['callFor'];
}

/**
 * The rows a request holds: the summary standing for older rows, if the path chose one, then the newest rows that fit. Read a
 * page of `LONG_HISTORY_ROWS` at a time with a turn of the event loop between pages: a window of a million tokens holds
 * thousands of rows, tens of milliseconds to read at once.
 */
export async function replayRows(db: AppDatabase, conversationId: string, path: LivePath): Promise<MessageRow[]> {
  const oldest = path.fitting[path.fitting.length - 1];
  const rows: MessageRow[] = [];
  if (oldest !== undefined) {
    for (let afterSeq = oldest.seq - 1; ; ) {
      const page = listLiveMessagesBetween(db, conversationId, afterSeq, Number.MAX_SAFE_INTEGER, LONG_HISTORY_ROWS);
      rows.push(...page);
      if (page.length < LONG_HISTORY_ROWS) break;
      afterSeq = page[page.length - 1]!.seq;
      await nextEventLoopTurn();
    }
  }
  const summary = path.summary === null ? null : getMessage(db, path.summary.id);
  return summary === null ? rows : [summary, ...rows];
}

/**
 * The line that tells the brain (and the request's reader) that part of the conversation is out of its sight. The same
 * words every turn, without the count (the window's meter shows it): a request's start that changes each turn would
 * defeat the provider's prompt cache.
 */
export function outsideWindowNotice(path: LivePath, brain: BrainId): ReplayTurn[] {
  if (path.outsideRows === 0) return [];
  const text = `Older messages of this conversation are outside ${BRAINS[brain].label}'s window and not shown here.`;
  return [{ messageId: 'outside-window', role: 'system-line', kind: 'notice', text, calls: [] }];
}

export interface GuardedReplay {
  readonly rows: readonly MessageRow[];
  readonly leading: readonly ReplayTurn[];
  readonly maxOutputTokens: number;
  /** The target's window the rows were measured against. */
  readonly contextWindow: number;
  readonly status: ContextStatusView;
  /** How the compaction this turn ran first ended, or null when none ran. */
  readonly compaction: CompactionResult | null;
}

export interface GuardOrder {
  readonly conversationId: string;
  readonly target: ResolvedTarget;
  readonly tools: readonly ToolDefinition[];
  readonly skills: readonly Skill[];
  /** Tokens of turns the request adds after the stored rows (a preview's new message). */
  readonly pendingTokens?: number;
  /** Whether a compaction may run first (a turn), or the replay only fits (a preview). */
  readonly mayCompact: boolean;
  /** Rows from this seq on are the turn being answered: never summarised. */
  readonly protectedFromSeq?: number;
  /** Compaction's own stop: a Stop during it ends the compaction, and the turn goes on with the rows that fit. */
  readonly compactionControl?: CompactionControl;
}

/** How the running turn lends Stop to a compaction while it runs. */
export interface CompactionControl {
  readonly start: () => AbortSignal;
  readonly end: () => void;
}

/** What the newest reply's calls add whole, as it replays in the rounds it was written in, over its stored estimate. */
function newestReplyWholeCalls(db: AppDatabase, conversationId: string): number {
  const replyId = newestReplyWithRounds(db, conversationId);
  if (replyId === null) return 0;
  return wholeCallsExtraTokens(listInvocationsByMessage(db, [replyId]).get(replyId) ?? []);
}

/** How full the target's window is for the request `order` describes: the guard's measure, reading no row's text. */
export async function measure(deps: WindowGuardDependencies, order: Omit<GuardOrder, 'mayCompact'>): Promise<Pressure> {
  const overheadTokens = requestOverhead(order.target, order.tools, order.skills) + (order.pendingTokens ?? 0) + newestReplyWholeCalls(deps.db, order.conversationId);
  return measurePressure(deps.db, deps.windows, { conversationId: order.conversationId, brain: order.target.brain, model: order.target.model, overheadTokens });
}

export async function guardWindow(deps: WindowGuardDependencies, order: GuardOrder): Promise<GuardedReplay> {
  const { conversationId, target } = order;
  let pressure = await measure(deps, order);
  let compaction: CompactionResult | null = null;
  if (order.mayCompact) deps.emit({ type: 'context-pressure', conversationId, status: pressure.status });
  if (order.mayCompact && pressure.compactFirst) {
    const signal = order.compactionControl?.start() ?? new AbortController().signal;
    try {
      compaction = await runCompaction(deps, {
        conversationId,
        target,
        request: { tools: order.tools, skills: order.skills },
        signal,
        ...(order.protectedFromSeq === undefined ? {} : { protectedFromSeq: order.protectedFromSeq }),
      });
    } finally {
      order.compactionControl?.end();
    }
    pressure = await measure(deps, order);
    deps.emit({ type: 'context-pressure', conversationId, status: pressure.status });
  }
  if (order.mayCompact) {
    try {
      keepCutPoint(deps.db, conversationId, target.brain, pressure, nowIso());
    } catch {
      // A cut point not kept (a full disk) only means the next turn cuts again: the turn goes on.
    }
  }
  await nextEventLoopTurn();
  return {
    rows: await replayRows(deps.db, conversationId, pressure.path),
    leading: outsideWindowNotice(pressure.path, target.brain),
    maxOutputTokens: replyTokens(pressure.window),
    contextWindow: pressure.window.contextWindow,
    status: pressure.status,
    compaction,
  };
}
