import type { CompactionResult, ContextStatusView } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import { formatCount } from '../../src-shared/format-count';

/** A compaction under way: asked for by this window, or started by the main process before a turn. */
export interface CompactionRun {
  /** The brain writing the summary; null until `compaction-started` names it. */
  readonly brain: BrainId | null;
  readonly model: string | null;
  /** Messages to summarise; null until `compaction-started` says. */
  readonly totalMessages: number | null;
  readonly summarisedMessages: number;
  /** Characters of summary written so far in the current part. */
  readonly characters: number;
}

/** How a notice about a finished compaction reads: done and info are plain, a stop is calm, a failure is an error. */
export type CompactionOutcomeTone = 'done' | 'calm' | 'info' | 'error';

export interface CompactionOutcome {
  readonly tone: CompactionOutcomeTone;
  readonly text: string;
}

export interface ContextSlice {
  /** The window status last heard for each conversation, from `getContextStatus` or a `context-pressure` event. */
  readonly contextStatus: Readonly<Record<string, ContextStatusView>>;
  readonly compactions: Readonly<Record<string, CompactionRun>>;
  /** How the last compaction of each conversation ended, until the person dismisses it or another one starts. */
  readonly compactionOutcomes: Readonly<Record<string, CompactionOutcome>>;
}

export const initialContextSlice: ContextSlice = { contextStatus: {}, compactions: {}, compactionOutcomes: {} };

export function applyContextStatus(state: ContextSlice, status: ContextStatusView): Pick<ContextSlice, 'contextStatus'> {
  return { contextStatus: { ...state.contextStatus, [status.conversationId]: status } };
}

export interface CompactionStart {
  readonly brain: BrainId;
  readonly model: string;
  readonly messages: number;
}

/** A compaction begins: `start` is null when this window asked and the main process has not named it yet. */
export function beginCompaction(
  state: ContextSlice,
  conversationId: string,
  start: CompactionStart | null,
): Pick<ContextSlice, 'compactions' | 'compactionOutcomes'> {
  const current = state.compactions[conversationId];
  const run: CompactionRun = {
    brain: start?.brain ?? current?.brain ?? null,
    model: start?.model ?? current?.model ?? null,
    totalMessages: start?.messages ?? current?.totalMessages ?? null,
    summarisedMessages: current?.summarisedMessages ?? 0,
    characters: current?.characters ?? 0,
  };
  const compactionOutcomes = { ...state.compactionOutcomes };
  delete compactionOutcomes[conversationId];
  return { compactions: { ...state.compactions, [conversationId]: run }, compactionOutcomes };
}

export interface CompactionProgress {
  readonly summarisedMessages: number;
  readonly totalMessages: number;
  readonly characters: number;
}

export function advanceCompaction(
  state: ContextSlice,
  conversationId: string,
  progress: CompactionProgress,
): Pick<ContextSlice, 'compactions'> {
  const current = state.compactions[conversationId] ?? { brain: null, model: null };
  const run: CompactionRun = { ...current, ...progress };
  return { compactions: { ...state.compactions, [conversationId]: run } };
}

/** The compaction ended; `outcome` is what the person is told. */
export function endCompaction(
  state: ContextSlice,
  conversationId: string,
  outcome: CompactionOutcome,
): Pick<ContextSlice, 'compactions' | 'compactionOutcomes'> {
  const compactions = { ...state.compactions };
  delete compactions[conversationId];
  return { compactions, compactionOutcomes: { ...state.compactionOutcomes, [conversationId]: outcome } };
}

export function dismissCompactionOutcome(state: ContextSlice, conversationId: string): Pick<ContextSlice, 'compactionOutcomes'> {
  if (!(conversationId in state.compactionOutcomes)) return { compactionOutcomes: state.compactionOutcomes };
  const compactionOutcomes = { ...state.compactionOutcomes };
  delete compactionOutcomes[conversationId];
  return { compactionOutcomes };
}

/** What a finished compaction tells the person: the covered count, in words. */
export function compactedOutcome(coveredMessages: number): CompactionOutcome {
  return { tone: 'done', text: `Summarised ${messageCount(coveredMessages)}. They stay here, collapsed under the summary.` };
}

/** The tone of a compaction that changed nothing. */
export function unchangedOutcomeTone(reason: 'stopped' | 'failed' | 'nothing-to-compact'): CompactionOutcomeTone {
  switch (reason) {
    case 'stopped':
      return 'calm';
    case 'nothing-to-compact':
      return 'info';
    case 'failed':
      return 'error';
    default: {
      const _unknown: never = reason;
      return 'error';
    }
  }
}

/** The notice for what `compactConversation` answered. */
export function resultOutcome(result: CompactionResult): CompactionOutcome {
  if (result.outcome === 'compacted') return compactedOutcome(result.coveredMessages);
  return { tone: unchangedOutcomeTone(result.outcome), text: result.message };
}

/** "1 message", "812 messages". */
export function messageCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;
}
