/**
 * Compaction: the oldest live rows are summarised by a brain into one summary row, so the replay keeps within the
 * target brain's window while every row stays stored and shown. A span longer than the summarising brain's own window
 * is read in parts, each part's summary carried into the next; only the final summary is stored, in one transaction
 * (store/compaction.ts). Stopped, failed or killed before that, nothing has changed.
 */
import type { ApiEvent, CompactionResult, Usage } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import type { ResolvedTarget } from '../engine/resolve-target';
import type { RequestBody } from '../engine/turn-request';
import { refusalMessage } from '../providers/provider-errors';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from '../engine/event-loop-turn';
import { keepRequestUsage } from '../engine/request-usage';
import { collectReplayTurns } from '../replay/collect';
import type { ReplayAttachment, ReplayTurn } from '../replay/types';
import { newId, nowIso } from '../store/clock';
import { CompactionConflictError, storeSummary, type CompactionSpan } from '../store/compaction';
import { attachmentRowsOfMessages } from '../store/attachments';
import { listInvocationsByMessage, type InvocationRow } from '../store/invocations';
import { listLiveMessagesBetween, toMessageViews, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { effectiveWindow, inputBudget, replyTokens } from './pressure';
import { nothingToFoldWords, planCompaction } from './compaction-plan';
import { encodeSummaryRequest } from './summary-body';
import { continuationBody, type ContinuationDependencies, type TargetRequest } from './summary-continuation';
import { summaryRequestText, summarySystemPrompt } from './summary-prompt';
import { estimateTokens } from './token-estimate';
import type { ContextWindows } from './windows';

/** A summary's share of the target's window, in words. */
const SUMMARY_SHARE = 0.04;
const SUMMARY_WORDS_MIN = 120;
const SUMMARY_WORDS_MAX = 1_500;
/** The most a summary reply may take. */
const SUMMARY_OUTPUT_TOKENS = 4_096;
/** How often progress goes out while a part's summary streams, in characters. */
const PROGRESS_EVERY_CHARACTERS = 400;

export interface CompactionDependencies extends ContinuationDependencies {
  readonly db: AppDatabase;
  readonly windows: ContextWindows;
  readonly emit: (event: ApiEvent) => void;
  readonly stream: (call: ProviderCall) => AsyncIterable<StreamPart>;
  /** The provider call for a brain, or an ApiError when the brain cannot be used (no key, unconfirmed host, …). */
  /** With `encodedBody`, `body` holds only the body's top-level fields (providers/encoded-body.ts). */
  readonly callFor: (brain: BrainId, model: string, body: Record<string, unknown>, signal: AbortSignal, encodedBody?: Uint8Array<ArrayBuffer>) => ProviderCall;
}

export interface CompactionOrder {
  readonly conversationId: string;
  /** The brain, model and reasoning level whose window the compaction makes room in. */
  readonly target: ResolvedTarget;
  /**
   * What the target's own request declares. With it, a target that writes its own summary of a span its window holds
   * does so as a continuation of that request (summary-continuation.ts); without it, or when the span is larger, the
   * span is summarised in parts as a transcript.
   */
  readonly request?: TargetRequest;
  readonly signal: AbortSignal;
  /** Rows from this seq on (the turn being answered) stay out of the summary. */
  readonly protectedFromSeq?: number;
  /** The person asked (Compact now): see context/compaction-plan.ts. */
  readonly requested?: boolean;
}

function ended(conversationId: string, emit: CompactionDependencies['emit'], outcome: Exclude<CompactionResult['outcome'], 'compacted'>, message: string): CompactionResult {
  emit({ type: 'compaction-failed', conversationId, reason: outcome, message });
  return { outcome, summary: null, coveredMessages: 0, message };
}

/**
 * Reads the span in parts that each fit `budget` tokens of transcript, oldest first: a page of rows at a time, with
 * their calls and attachments, and a turn of the event loop between pages, so the main process keeps answering.
 */
async function* spanParts(db: AppDatabase, conversationId: string, span: CompactionSpan, budget: number): AsyncGenerator<{ turns: ReplayTurn[]; rows: number }> {
  let cursor = span.afterSeq;
  let part: MessageRow[] = [];
  let partTokens = 0;
  // The calls and attachments of rows read and not yet in a part that went out.
  const invocations = new Map<string, InvocationRow[]>();
  const attachments = new Map<string, ReplayAttachment[]>();
  const ownedBy = <Value>(rows: readonly MessageRow[], read: Map<string, Value>): Map<string, Value> => {
    const owned = new Map<string, Value>();
    for (const row of rows) {
      const value = read.get(row.id);
      if (value === undefined) continue;
      owned.set(row.id, value);
      read.delete(row.id);
    }
    return owned;
  };
  const flush = () => {
    const result = { turns: collectReplayTurns(part, ownedBy(part, invocations), ownedBy(part, attachments)), rows: part.length };
    part = [];
    partTokens = 0;
    return result;
  };
  for (;;) {
    const page = listLiveMessagesBetween(db, conversationId, cursor, span.throughSeq, LONG_HISTORY_ROWS);
    if (page.length === 0) break;
    for (const [messageId, rows] of listInvocationsByMessage(db, page.filter((row) => row.role === 'assistant').map((row) => row.id))) {
      invocations.set(messageId, rows);
    }
    // A summary names the files the user attached; their bytes stay out of it.
    for (const [messageId, rows] of attachmentRowsOfMessages(db, page.filter((row) => row.role === 'user').map((row) => row.id))) {
      attachments.set(messageId, rows.map((row) => ({ name: row.name, kind: row.kind, mediaType: row.mediaType, width: row.width, height: row.height })));
    }
    for (const row of page) {
      if (part.length > 0 && partTokens + row.tokenEstimate > budget) yield flush();
      // One row larger than a whole part keeps its beginning: the summary of a huge paste needs no more.
      const room = budget * 3;
      part.push(row.text.length > room ? { ...row, text: `${row.text.slice(0, room)}… [cut for the summary]` } : row);
      partTokens += Math.min(row.tokenEstimate, budget);
    }
    cursor = page[page.length - 1]!.seq;
    await nextEventLoopTurn();
  }
  if (part.length > 0) yield flush();
}

/** Streams one summary, with what its request cost; throws with the provider's message, or returns null when stopped. */
async function summarise(
  deps: CompactionDependencies,
  call: ProviderCall,
  onProgress: (characters: number) => void,
): Promise<{ text: string; usage: Usage | null } | null> {
  let text = '';
  let reported = 0;
  let usage: Usage | null = null;
  for await (const part of deps.stream(call)) {
    if (call.signal.aborted) return null;
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        if (text.length - reported >= PROGRESS_EVERY_CHARACTERS) {
          reported = text.length;
          onProgress(text.length);
        }
        break;
      case 'error':
        throw new Error(part.error.message);
      case 'refusal':
        throw new Error(refusalMessage(call.label ?? 'The summariser', part));
      case 'usage':
        usage = { ...(usage ?? {}), ...part.usage };
        break;
      case 'tool-call':
      case 'reasoning-delta':
      case 'reasoning-opaque':
      case 'response-model':
      case 'finish':
        break;
      default: {
        const unreachable: never = part;
        throw new Error(`Unknown stream part ${JSON.stringify(unreachable)}`);
      }
    }
  }
  if (call.signal.aborted) return null;
  return { text: text.trim(), usage };
}

/** Compacts a conversation for `order.target`'s window. Never throws: the result says how it ended. */
export async function runCompaction(deps: CompactionDependencies, order: CompactionOrder): Promise<CompactionResult> {
  const { db, windows, emit } = deps;
  const { conversationId, target, signal } = order;
  const plan = await planCompaction(db, windows, order);
  const { span, targetWindow } = plan;
  if (span.rows === 0) return ended(conversationId, emit, 'nothing-to-compact', nothingToFoldWords(plan, order));
  const { brain, model } = plan.summariser;
  const label = BRAINS[brain].label;
  // A provider that refused this conversation's size refuses a summary request above that size too.
  const summariserWindow = await effectiveWindow(db, windows, conversationId, brain, model);
  const wordLimit = Math.round(Math.min(SUMMARY_WORDS_MAX, Math.max(SUMMARY_WORDS_MIN, (targetWindow.contextWindow * SUMMARY_SHARE) / 1.4)));
  const maxOutputTokens = Math.min(SUMMARY_OUTPUT_TOKENS, replyTokens(summariserWindow));
  const system = summarySystemPrompt();
  // Each part also carries the summary so far, which may grow to the word limit (about 1.4 tokens a word).
  const promptTokens = estimateTokens(system) + estimateTokens(summaryRequestText('', wordLimit)) + Math.ceil(wordLimit * 1.4);
  const partBudget = Math.max(256, inputBudget(summariserWindow, windows.lines(brain)) - promptTokens);
  emit({ type: 'compaction-started', conversationId, brain, model, messages: span.rows });
  // The summary row takes this turn id: its parts' usage rows name it.
  const turnId = newId();
  let partIndex = 0;

  let carried = span.previousSummary?.text ?? null;
  let summarised = 0;
  /** Asks for one part's summary; false when stopped. */
  const writePart = async ({ body, encodedBody }: RequestBody, rows: number): Promise<boolean> => {
    const written = await summarise(deps, deps.callFor(brain, model, body, signal, encodedBody), (characters) =>
      emit({ type: 'compaction-progress', conversationId, summarisedMessages: summarised, totalMessages: span.rows, characters }),
    );
    if (written === null) return false;
    if (written.usage !== null) {
      await keepRequestUsage(db, { conversationId, turnId, purpose: 'compaction', round: partIndex, brain, model, usage: written.usage, now: nowIso() });
    }
    partIndex += 1;
    if (written.text.length === 0) throw new Error(`${label} answered with an empty summary.`);
    carried = written.text;
    summarised += rows;
    emit({ type: 'compaction-progress', conversationId, summarisedMessages: summarised, totalMessages: span.rows, characters: written.text.length });
    return true;
  };
  try {
    const continuation =
      order.request !== undefined && brain === target.brain && model === target.model
        ? await continuationBody(deps, { conversationId, target, request: order.request, span, window: summariserWindow, lines: windows.lines(brain), wordLimit })
        : null;
    if (continuation !== null) {
      if (!signal.aborted) {
        emit({ type: 'compaction-progress', conversationId, summarisedMessages: 0, totalMessages: span.rows, characters: 0 });
        await writePart(continuation, span.rows);
      }
    } else {
      for await (const part of spanParts(db, conversationId, span, partBudget)) {
        if (signal.aborted) break;
        emit({ type: 'compaction-progress', conversationId, summarisedMessages: summarised, totalMessages: span.rows, characters: 0 });
        const earlier: ReplayTurn[] =
          carried === null ? [] : [{ messageId: 'summary', role: 'system-line', kind: 'summary', text: carried, calls: [] }];
        const request = { brain, model, system, wordLimit, maxOutputTokens, contextWindow: summariserWindow.contextWindow, cacheKey: `anybrain-compaction-${conversationId}` };
        const body = await encodeSummaryRequest(BRAINS[brain].wire, request, [...earlier, ...part.turns]);
        if (signal.aborted || !(await writePart({ body: body.fields, encodedBody: body.json }, part.rows))) break;
      }
    }
  } catch (thrown) {
    if (signal.aborted) return ended(conversationId, emit, 'stopped', 'Compaction stopped. Nothing was changed.');
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    return ended(conversationId, emit, 'failed', `${label} could not summarise the conversation, so nothing was changed: ${reason}`);
  }
  if (signal.aborted || carried === null || summarised < span.rows) {
    return ended(conversationId, emit, 'stopped', 'Compaction stopped. Nothing was changed.');
  }
  try {
    const madeFor = {
      brain: target.brain,
      model: target.model,
      contextWindow: targetWindow.contextWindow,
      inputBudget: inputBudget(targetWindow, windows.lines(target.brain)),
      requested: order.requested === true,
    };
    const stored = storeSummary(db, { conversationId, turnId, text: carried, brain, model, madeFor, span, now: nowIso() });
    const [summary] = toMessageViews(db, [stored.row]);
    emit({ type: 'compaction-finished', conversationId, summary: summary!, coveredMessages: stored.covered });
    const words = `${stored.covered} message${stored.covered === 1 ? '' : 's'}`;
    return { outcome: 'compacted', summary: summary!, coveredMessages: stored.covered, message: `${label} summarised ${words}; they stay in the conversation, folded under the summary.` };
  } catch (thrown) {
    const reason = thrown instanceof CompactionConflictError ? thrown.message : `The summary could not be saved: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
    return ended(conversationId, emit, 'failed', reason);
  }
}
