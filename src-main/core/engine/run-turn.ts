/**
 * An admitted turn from its first request to its stored end: stream, fold the parts into the reply draft, checkpoint,
 * run tool rounds, then finish. The only place that joins the replay, the providers and the tools.
 */
import { redactKeys } from '../secrets/redact';
import type { ApiEvent, MessageView, Usage } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { buildReceipt } from '../../../src-shared/receipt';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { liveReplayTurn, type LiveRoundSource } from '../replay/collect';
import type { LiveTurn, ReplayReasoning, ReplayTurn } from '../replay/types';
import { nowIso } from '../store/clock';
import { listInvocationsByMessage, type InvocationRow } from '../store/invocations';
import { estimateLiveTokens, estimateRowTokens } from '../context/row-estimate';
import type { ContextWindows } from '../context/windows';
import { newestUserSeqBefore } from '../store/live-path';
import type { DiskConfirmation } from '../outside/disk-confirmation';
import type { NotAnswering } from '../outside/not-answering';
import { providerSilence } from './provider-silence';
import { commitSyncingInBackground } from '../store/log-sync';
import { checkpointMessageText, getMessage, toMessageViews, type MessageRow, type StoredReasoning } from '../store/messages';
import { guardedWrite, guardedWriteWhenNotBusy } from '../store/guarded-write';
import type { UnsavedReplyEnds } from './unsaved-ends';
import { renewTurnLease, TURN_LEASE_RENEW_MS, type LeaseHolder } from '../store/turn-leases';
import { replyStoreRefusalMessage, type ReplyWriteRefusal } from '../store/write-failure';
import type { AppDatabase } from '../store/open';
import { finishReply, type ReplyOutcome } from '../store/turns';
import { normalizeQuoteEscapes } from '../transcripts/quote-escapes';
import { QUOTE_ESCAPE_COUNTER } from '../transcripts/repair';
import type { BrainConnection, TurnContext } from './admit';
import { DeltaCoalescer } from './delta-coalescer';
import { nextEventLoopTurn } from './event-loop-turn';
import { afterToolRound, applyStreamPart, draftReasoning, draftRounds, EMPTY_DRAFT, failDraft, finalStatus, type AbortReason, type ReplyDraft } from './reply-draft';
import { keepRequestUsage } from './request-usage';
import { runToolRound } from './tool-round';
import type { RequestBodyEncoder } from './request-body-encoder';
import { buildRequestBody, type AttachmentFileReader } from './turn-request';
import type { TurnToolbox } from './turn-toolbox';
import type { ToolDefinition } from '../tools/catalogue';
import type { Skill } from '../tools/skills';
import { guardWindow, measure, outsideWindowNotice, replayRows, type CompactionControl, type WindowGuardDependencies } from './window-guard';

/** How many rounds of tool calls one reply may make before the engine ends it with a message. */
export const MAX_TOOL_ROUNDS = 8;

const KEYLESS_PLACEHOLDER = 'no-key-set';

export interface TurnRunDependencies extends WindowGuardDependencies {
  readonly db: AppDatabase;
  readonly emit: (event: ApiEvent) => void;
  readonly stream: (call: ProviderCall) => AsyncIterable<StreamPart>;
  readonly windows: ContextWindows;
  readonly toolbox: TurnToolbox;
  readonly now: () => Date;
  readonly checkpointIntervalMs?: number;
  readonly deltaIntervalMs?: number;
  /** Attached files' bytes, from the data folder; without it, attachments replay as missing. */
  readonly readAttachmentFile?: AttachmentFileReader;
  /** Builds long histories' bodies off the main thread; without it, every body is built on this thread. */
  readonly requestBodies?: RequestBodyEncoder;
  /** Waits, with a time limit, for the disk to confirm the reply's end before the window hears of it. */
  readonly disk: DiskConfirmation;
  /** Where a provider holding the request without answering is reported. */
  readonly notAnswering: NotAnswering;
  /** This engine's hold on the conversations it answers in (store/turn-leases.ts), renewed while a reply runs. */
  readonly leaseHolder: LeaseHolder;
  /** How long a write that finds the data folder busy is tried again (store/busy-retry.ts). */
  readonly busyBudgetMs?: number;  /** Where a reply whose end the store refused is ended once the store takes writes again. */
  readonly unsavedEnds?: UnsavedReplyEnds;
}

/**
 * The reply being written, once it has made calls: one round per request, each with the words and reasoning that
 * request streamed and the invocation rows of the calls it asked for (`calls` holds every round's rows in order).
 */
function liveTurn(turn: TurnContext, draft: ReplyDraft, calls: readonly InvocationRow[]): LiveTurn | null {
  const { brain, model } = turn.target;
  let first = 0;
  const rounds = draftRounds(draft, brain, model).map((round): LiveRoundSource => {
    const brainCalls = calls.slice(first, first + round.callCount);
    first += round.callCount;
    return { text: round.text, reasoning: round.reasoning, brainCalls };
  });
  return liveReplayTurn({ id: turn.assistantRow.id, brain, model }, rounds);
}

/** The call a brain's connection makes with a built body. */
export function providerCall(
  brain: BrainId,
  model: string,
  connection: BrainConnection,
  body: ProviderCall['body'],
  signal: AbortSignal,
  encodedBody?: Uint8Array<ArrayBuffer>,
): ProviderCall {
  const info = BRAINS[brain];
  return {
    wire: info.wire,
    baseUrl: connection.baseUrl,
    // The SDKs insist on some key; a keyless custom server gets a placeholder instead of another brain's variable.
    apiKey: connection.apiKey ?? (info.keyVariable === null ? null : KEYLESS_PLACEHOLDER),
    model,
    body,
    ...(encodedBody === undefined ? {} : { encodedBody }),
    signal,
    // Failure messages name the brain ("Claude stopped sending for 90 s…"), not the provider's host.
    label: info.label,
  };
}

/**
 * What the window and the store see while a reply streams: coalesced deltas of its words and of its readable reasoning,
 * the text shown so far checkpointed on a timer, and how long it reasoned before it answered.
 */
class ReplyProgress {
  /** The words the window has been sent: a checkpoint stores no more than was shown, so a crash never stores words unseen. */
  private shown = '';
  private checkpointed = '';
  private readonly coalescer: DeltaCoalescer;
  private readonly reasoningCoalescer: DeltaCoalescer;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => Date;
  private reasoningStartedAt: number | null = null;
  private reasoningShown = 0;
  private reasoningEndedAt: number | null = null;
  private leaseRenewedAt: number;
  /** Why the store stopped taking this reply's writes; the reply then ends with what was stored before. */
  refusal: ReplyWriteRefusal | null = null;

  constructor(
    private readonly deps: TurnRunDependencies,
    private readonly turn: TurnContext,
    private readonly onRefused: () => void,
  ) {
    const { conversationId, turnId } = turn;
    const messageId = turn.assistantRow.id;
    this.now = deps.now;
    this.leaseRenewedAt = deps.now().getTime();
    this.coalescer = new DeltaCoalescer((textDelta) => {
      this.shown += textDelta;
      deps.emit({ type: 'message-delta', conversationId, turnId, messageId, textDelta });
    }, deps.deltaIntervalMs);
    this.reasoningCoalescer = new DeltaCoalescer(
      (textDelta) => deps.emit({ type: 'reasoning-delta', conversationId, turnId, messageId, textDelta }),
      deps.deltaIntervalMs,
    );
    this.timer = setInterval(() => this.checkpoint(), deps.checkpointIntervalMs ?? 250);
  }

  /** A tick of the timer: the text shown so far stored, and the conversation's lease renewed when due. */
  private checkpoint(): void {
    if (this.refusal !== null) return;
    const { db } = this.deps;
    const { conversationId, assistantRow } = this.turn;
    const nowMs = this.now().getTime();
    if (nowMs - this.leaseRenewedAt >= TURN_LEASE_RENEW_MS) {
      const renewed = guardedWrite('renewing a turn lease', () => renewTurnLease(db, conversationId, this.deps.leaseHolder, nowMs));
      if (renewed.kind === 'refused') return this.refused(renewed.refusal);
      // Lapsed and taken by another process: two replies must not be written in one conversation at once.
      if (!renewed.value) return this.refused('answering-elsewhere');
      this.leaseRenewedAt = nowMs;
    }
    if (this.shown === this.checkpointed) return;
    const text = this.shown;
    const written = guardedWrite('checkpointing a reply', () =>
      commitSyncingInBackground(db, () => checkpointMessageText(db, assistantRow.id, text, nowIso())),
    );
    if (written.kind === 'refused') return this.refused(written.refusal);
    // The reply's end syncs the log again, covering this checkpoint, and reports a disk that refuses.
    written.value.durable.catch(() => undefined);
    this.checkpointed = text;
  }

  private refused(refusal: ReplyWriteRefusal): void {
    // Another process holds the write lock: the next tick tries again, with all the text shown by then.
    if (refusal === 'storage-busy') return;
    this.refusal = refusal;
    this.onRefused();
  }

  show(draft: ReplyDraft, part: StreamPart): void {
    if (part.type === 'reasoning-delta' && part.text.length > 0) {
      this.reasoningStartedAt ??= this.now().getTime();
      // The draft's growth, not the part: a later round's reasoning opens with its separator.
      this.reasoningCoalescer.push(draft.reasoningText.slice(this.reasoningShown));
      this.reasoningShown = draft.reasoningText.length;
    }
    if (part.type === 'text-delta' || part.type === 'tool-call') this.endReasoning();
    if (part.type === 'text-delta') {
      // Reasoning shown before the words it led to.
      this.reasoningCoalescer.flush();
      this.coalescer.push(part.text);
    }
  }

  private endReasoning(): void {
    if (this.reasoningStartedAt !== null) this.reasoningEndedAt ??= this.now().getTime();
  }

  /** From the first reasoning delta to the first words or call after it (or the reply's end); null when it showed none. */
  reasoningDurationMs(): number | null {
    if (this.reasoningStartedAt === null) return null;
    return Math.max(0, (this.reasoningEndedAt ?? this.now().getTime()) - this.reasoningStartedAt);
  }

  /** Whatever is stored must have been shown: the last batch goes out before the final write. */
  close(): void {
    clearInterval(this.timer);
    this.endReasoning();
    this.reasoningCoalescer.flush();
    this.coalescer.flush();
  }
}

/** The reasoning as stored, with how long the brain reasoned, so a reload shows the same "thought for". */
function storedReasoning(reasoning: ReplayReasoning | null, durationMs: number | null): StoredReasoning | null {
  if (reasoning === null) return null;
  return durationMs === null ? reasoning : { ...reasoning, durationMs };
}

interface FittingHistory {
  readonly rows: readonly MessageRow[];
  readonly leading: readonly ReplayTurn[];
}

/** The rows up to the reply being written (and the summary standing for older ones): never a later turn's. */
function upToReply(rows: readonly MessageRow[], turn: TurnContext): MessageRow[] {
  return rows.filter((row) => row.kind === 'summary' || row.seq <= turn.assistantRow.seq);
}

/**
 * The history that fits beside the reply being written. Its calls come back whole, so after a round older rows may
 * have to give way for the request to stay inside the target's window; the notice line says how many did.
 */
async function historyBesideLive(
  deps: TurnRunDependencies,
  turn: TurnContext,
  round: { readonly tools: readonly ToolDefinition[]; readonly skills: readonly Skill[]; readonly live: LiveTurn },
): Promise<FittingHistory> {
  const { conversationId, target } = turn;
  const pressure = await measure(deps, { conversationId, target, tools: round.tools, skills: round.skills, pendingTokens: estimateLiveTokens(round.live) });
  return { rows: upToReply(await replayRows(deps.db, conversationId, pressure.path), turn), leading: outsideWindowNotice(pressure.path, target.brain) };
}

interface WrittenReply {
  readonly draft: ReplyDraft;
  /** The estimate of the first request's size, for a size refusal that names no numbers. */
  readonly requestTokens: number;
}

/** Streams and runs tool rounds until the reply ends; returns the final draft. Throws nothing. */
async function writeReply(
  deps: TurnRunDependencies,
  turn: TurnContext,
  signal: AbortSignal,
  progress: ReplyProgress,
  compactionControl: CompactionControl | undefined,
): Promise<WrittenReply> {
  const { db, emit, toolbox } = deps;
  const { conversationId, turnId, assistantRow, target } = turn;
  let draft = EMPTY_DRAFT;
  let requestTokens = 0;
  const calls: InvocationRow[] = [];
  try {
    // Admission ran in the task that sent the message: the rest of the turn starts in tasks of its own.
    await nextEventLoopTurn();
    if (signal.aborted) return { draft, requestTokens };
    const tools = await toolbox.list(signal);
    const skills = toolbox.skills();
    const answered = turn.userRow?.seq ?? newestUserSeqBefore(db, conversationId, assistantRow.seq) ?? assistantRow.seq;
    const guarded = await guardWindow(deps, {
      conversationId,
      target,
      tools,
      skills,
      mayCompact: true,
      protectedFromSeq: answered,
      ...(compactionControl ? { compactionControl } : {}),
    });
    requestTokens = guarded.status.tokens;
    let history: FittingHistory = { rows: upToReply(guarded.rows, turn), leading: guarded.leading };
    for (let round = 0; ; round += 1) {
      if (signal.aborted) break;
      const live = liveTurn(turn, draft, calls);
      if (live !== null) history = await historyBesideLive(deps, turn, { tools, skills, live });
      await nextEventLoopTurn();
      if (signal.aborted) break;
      const request = { conversationId, target, ...history, tools, skills, live, maxOutputTokens: guarded.maxOutputTokens, contextWindow: guarded.contextWindow };
      const { body, encodedBody } = await buildRequestBody(db, request, deps.requestBodies, deps.readAttachmentFile);
      await nextEventLoopTurn();
      if (signal.aborted) break;
      const call = providerCall(target.brain, target.model, turn.connection, body, signal, encodedBody);
      let roundUsage: Usage | null = null;
      for await (const part of deps.stream({ ...call, silence: providerSilence(deps.notAnswering, target.brain, call.baseUrl) })) {
        if (signal.aborted) break;
        // Each request is billed on its own: the draft's usage is the last request's, the window's measure.
        if (part.type === 'usage') roundUsage = { ...(roundUsage ?? {}), ...part.usage };
        draft = applyStreamPart(draft, part);
        progress.show(draft, part);
      }
      if (roundUsage !== null) {
        await keepRequestUsage(db, { conversationId, turnId, purpose: 'reply', round, brain: target.brain, model: target.model, usage: roundUsage, now: nowIso() });
      }
      // A refused reply runs none of the calls that came with it.
      if (signal.aborted || draft.error !== null || draft.refusal !== null || draft.pendingCalls.length === 0) break;
      if (round >= MAX_TOOL_ROUNDS) {
        const label = BRAINS[target.brain].label;
        const message = `${label} kept calling tools for ${MAX_TOOL_ROUNDS} rounds, so the reply was ended here. Ask it to continue if you want more.`;
        draft = failDraft(draft, { code: 'tool-rounds', message, retryable: false });
        break;
      }
      const firstSeq = turn.contextInvocations.length + calls.length;
      const toolRound = { db, emit, toolbox, now: deps.now, conversationId, turnId, messageId: assistantRow.id, tools, firstSeq, signal, busyBudgetMs: deps.busyBudgetMs };
      const ran = await runToolRound(toolRound, draft.pendingCalls);
      calls.push(...ran);
      draft = afterToolRound(draft, ran.length);
      if (signal.aborted) break;
    }
  } catch (thrown) {
    if (!signal.aborted) {
      const message = `The reply could not be completed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
      draft = failDraft(draft, { code: 'internal', message, retryable: true });
    }
  }
  return { draft, requestTokens };
}

/**
 * Stores the reply's end and tells the window, once it is on the disk (or the disk has not confirmed it within its
 * time limit): the receipt, then done or failed, then the conversation's new time.
 */
async function finish(
  deps: TurnRunDependencies,
  turn: TurnContext,
  written: WrittenReply,
  reasoningDurationMs: number | null,
  abortReason: AbortReason | null,
): Promise<MessageView> {
  const { db, emit } = deps;
  const { draft } = written;
  const { conversationId, turnId, target } = turn;
  const messageId = turn.assistantRow.id;
  const final = finalStatus(draft, abortReason, BRAINS[target.brain].label);
  const { status } = final;
  // A provider may echo the key it was sent in its error body: stored, shown, logged and exported without it.
  const error = final.error === null ? null : { ...final.error, message: redactKeys(final.error.message, [turn.connection.apiKey]) };
  const now = nowIso();
  // The quote-escape guard: a reply is stored with a lone \" outside code turned back into the quote it stands for.
  const guarded = normalizeQuoteEscapes(draft.text);
  const invocations = listInvocationsByMessage(db, [messageId]).get(messageId) ?? [];
  const refusedTokens = error?.limitTokens ?? error?.requestTokens ?? written.requestTokens;
  const outcome: ReplyOutcome = {
    conversationId,
    messageId,
    brain: target.brain,
    message: {
      text: guarded.text,
      status,
      error,
      modelResponded: draft.servedModel,
      reasoning: storedReasoning(draftReasoning(draft, target.brain, target.model), reasoningDurationMs),
      usage: draft.usage,
      // The round ends measure the streamed text: a text the guard changed replays as one message.
      rounds: guarded.normalized === 0 ? draft.roundEnds : null,
      tokenEstimate: estimateRowTokens(guarded.text, invocations),
      now,
    },
    counts: { [QUOTE_ESCAPE_COUNTER]: guarded.normalized },
    refused: draft.contextTooLarge ? { tokens: refusedTokens, model: target.model } : null,
    leaseHolder: deps.leaseHolder,
  };
  // The text stays in memory while another process holds the write lock; the row keeps its last checkpoint meanwhile.
  const committed = await guardedWriteWhenNotBusy('saving the end of a reply', () => commitSyncingInBackground(db, () => finishReply(db, outcome)), deps.busyBudgetMs);
  if (committed.kind === 'refused') return endUnsaved(deps, turn, committed.refusal, invocations);
  const { result: finished, durable } = committed.value;
  // With its place among its alternatives: the window's pager on a regenerated reply reads it from this event.
  const message = toMessageViews(db, [finished.row])[0]!;
  await deps.disk.confirm(durable, 'saving a reply');
  emit({ type: 'turn-receipt', conversationId, turnId, messageId, receipt: buildReceipt(invocations) });
  emit(status === 'failed' ? { type: 'turn-failed', conversationId, turnId, message } : { type: 'turn-done', conversationId, turnId, message });
  if (finished.conversation) emit({ type: 'conversation-updated', conversation: finished.conversation });
  return message;
}

/**
 * A reply whose end the store refused: its row keeps the text of its last checkpoint (marked interrupted when a process
 * next opens the data folder, or finished by a retry), and the window is told why, with that text.
 */
function endUnsaved(deps: TurnRunDependencies, turn: TurnContext, refusal: ReplyWriteRefusal, invocations: readonly InvocationRow[]): MessageView {
  const { conversationId, turnId } = turn;
  const messageId = turn.assistantRow.id;
  const stored = guardedWrite('reading a reply', () => getMessage(deps.db, messageId));
  const row = stored.kind === 'written' && stored.value !== null ? stored.value : turn.assistantRow;
  const view = toMessageViews(deps.db, [row])[0]!;
  const error = { code: refusal, message: replyStoreRefusalMessage(refusal), retryable: true };
  const message: MessageView = { ...view, status: 'failed', error };
  // The row still says streaming: it is ended as the window was told once the store takes writes again.
  deps.unsavedEnds?.add({ conversationId, turnId, messageId, error, leaseHolder: deps.leaseHolder });
  deps.emit({ type: 'turn-receipt', conversationId, turnId, messageId, receipt: buildReceipt(invocations) });
  deps.emit({ type: 'turn-failed', conversationId, turnId, message });
  return message;
}

/** Runs an admitted turn to its stored end; the signal's reason says whether the user stopped it or the app closed. */
export async function runTurn(deps: TurnRunDependencies, turn: TurnContext, signal: AbortSignal, compactionControl?: CompactionControl): Promise<MessageView> {
  // A store that refuses the reply's checkpoints (a full disk) ends the reply as a Stop would, with its own sentence.
  const storeRefused = new AbortController();
  const progress = new ReplyProgress(deps, turn, () => storeRefused.abort());
  let written: WrittenReply;
  try {
    written = await writeReply(deps, turn, AbortSignal.any([signal, storeRefused.signal]), progress, compactionControl);
  } finally {
    progress.close();
  }
  const refusal = progress.refusal;
  if (refusal !== null) {
    const error = { code: refusal, message: replyStoreRefusalMessage(refusal), retryable: true };
    return finish(deps, turn, { ...written, draft: failDraft(written.draft, error) }, progress.reasoningDurationMs(), null);
  }
  return finish(deps, turn, written, progress.reasoningDurationMs(), signal.aborted ? (signal.reason as AbortReason) : null);
}
