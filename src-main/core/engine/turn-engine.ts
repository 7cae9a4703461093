/**
 * The turns of every conversation: at most one running per conversation, each admitted, run and stopped here. The
 * steps live beside it: admit.ts, run-turn.ts (stream, tool-round.ts, reply-draft.ts), store/turns.ts.
 */
import { ApiError, type ApiEvent, type CompactionPreview, type CompactionResult, type ContextStatusView, type MessageView, type RequestPreview, type SendResult } from '../../../src-shared/api';
import { BRAINS, isBrainId, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { deprecationNotice } from '../../../src-shared/models/lifecycle';
import type { ReportedModel } from '../../../src-shared/models/reported';
import { readReportedModel } from '../store/provider-models';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { readAttachmentFile } from '../attachments/attachment-files';
import { runCompaction } from '../context/compaction';
import { previewCompaction } from '../context/compaction-plan';
import { estimateMessageTokens } from '../context/token-estimate';
import { ContextWindows } from '../context/windows';
import type { ReplayTurn } from '../replay/types';
import { toInvocationView } from '../store/invocations';
import { branchPoint } from '../store/branches';
import { toMessageViews } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { newId } from '../store/clock';
import { THIS_PROCESS_OWNER } from '../store/owner-lock';
import { holdTurnLease, type LeaseHolder } from '../store/turn-leases';
import { admit, checkedConnection, type BrainConnection, type TurnPlacement } from './admit';
import type { AbortReason } from './reply-draft';
import type { RequestBodyEncoder } from './request-body-encoder';
import { resolveTarget, type ResolvedTarget, type TargetOverrides } from './resolve-target';
import { DiskConfirmation } from '../outside/disk-confirmation';
import { NotAnswering } from '../outside/not-answering';
import { providerSilence } from './provider-silence';
import { providerCall, runTurn, type TurnRunDependencies } from './run-turn';
import { buildTurnRequest, type AttachmentFileReader } from './turn-request';
import { clockOnlyToolbox, type TurnToolbox } from './turn-toolbox';
import { UnsavedReplyEnds } from './unsaved-ends';
import { guardWindow, measure, type CompactionControl } from './window-guard';

export interface TurnEngineDependencies {
  readonly db: AppDatabase;
  readonly emit: (event: ApiEvent) => void;
  readonly stream: (call: ProviderCall) => AsyncIterable<StreamPart>;
  readonly connectionFor: (brain: BrainId) => BrainConnection;
  readonly checkpointIntervalMs?: number;
  readonly deltaIntervalMs?: number;
  /** Who writes this process's streaming rows (`pid@host`), so other processes leave them alone. */
  readonly streamOwner?: string;
  /** Tools, memories and skills; the clock alone by default. */
  readonly toolbox?: TurnToolbox;
  /** The windows requests are built against; the table and settings alone by default (no server questions). */
  readonly windows?: ContextWindows;
  readonly now?: () => Date;
  /** The data folder whose `attachments/` holds attached files' bytes; without it, no attachment replays its bytes. */
  readonly dataDir?: string;
  /** Builds long histories' request bodies off the main thread (request-body-encoder.ts); its owner disposes it. */
  readonly requestBodies?: RequestBodyEncoder;
  /** Where a reply's end waits for the disk; by default one that reports to the log only. */
  readonly disk?: DiskConfirmation;
  /** Where a provider that has not answered a request is reported; the log only by default. */
  readonly notAnswering?: NotAnswering;
  /**
   * Whether the process holding a conversation's lease still runs (its owner lock); without it a lease holds until it
   * lapses (store/turn-leases.ts `TURN_LEASE_MS`).
   */
  readonly isLeaseOwnerAlive?: (owner: string) => boolean;
  /** How long a reply's writes that find the data folder busy are tried again (store/busy-retry.ts). */
  readonly busyBudgetMs?: number;
}

/** Reads attached files from the data folder; a file gone missing replays as a labelled line, never fails a turn. */
function attachmentFileReader(dataDir: string): AttachmentFileReader {
  return (sha256) => {
    try {
      return readAttachmentFile(dataDir, sha256);
    } catch {
      return null;
    }
  };
}

export interface StartedTurn {
  readonly result: SendResult;
  /** Settles with the final assistant row once the turn has finished, whatever its status. */
  readonly done: Promise<MessageView>;
}

interface RunningTurn {
  /** Null for a compaction the user started on its own. */
  readonly turnId: string | null;
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
  /** While a compaction runs inside the turn: Stop ends it, and the turn goes on with the rows that fit. */
  compaction: AbortController | null;
}

export class TurnEngine {
  private readonly running = new Map<string, RunningTurn>();
  private readonly toolbox: TurnToolbox;
  private readonly runDependencies: TurnRunDependencies;
  private readonly leaseHolder: LeaseHolder;
  private readonly unsavedEnds: UnsavedReplyEnds;
  readonly windows: ContextWindows;

  constructor(private readonly deps: TurnEngineDependencies) {
    // A token of this engine's own: a later process with the same pid (or another engine in this one) is not the holder.
    this.leaseHolder = { owner: deps.streamOwner ?? THIS_PROCESS_OWNER, token: newId() };
    this.toolbox = deps.toolbox ?? clockOnlyToolbox();
    this.unsavedEnds = new UnsavedReplyEnds(deps.db);
    const notAnswering = deps.notAnswering ?? new NotAnswering();
    this.windows = deps.windows ?? new ContextWindows(deps.db);
    this.runDependencies = {
      db: deps.db,
      emit: deps.emit,
      stream: deps.stream,
      windows: this.windows,
      callFor: (brain, model, body, signal, encodedBody) => {
        const call = providerCall(brain, model, checkedConnection(brain, deps.connectionFor), body, signal, encodedBody);
        return { ...call, silence: providerSilence(notAnswering, brain, call.baseUrl) };
      },
      toolbox: this.toolbox,
      now: deps.now ?? (() => new Date()),
      disk: deps.disk ?? new DiskConfirmation(notAnswering),
      notAnswering,
      leaseHolder: this.leaseHolder,
      ...(deps.checkpointIntervalMs === undefined ? {} : { checkpointIntervalMs: deps.checkpointIntervalMs }),
      ...(deps.deltaIntervalMs === undefined ? {} : { deltaIntervalMs: deps.deltaIntervalMs }),
      ...(deps.dataDir === undefined ? {} : { readAttachmentFile: attachmentFileReader(deps.dataDir) }),
      ...(deps.requestBodies === undefined ? {} : { requestBodies: deps.requestBodies }),
      ...(deps.busyBudgetMs === undefined ? {} : { busyBudgetMs: deps.busyBudgetMs }),
      unsavedEnds: this.unsavedEnds,
    };
  }

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  resolveTarget(conversationId: string, overrides: TargetOverrides = {}): ResolvedTarget {
    return resolveTarget(this.deps.db, conversationId, overrides);
  }

  /**
   * The exact request the next turn would send, with `message` as the new user message; nothing is stored or sent. It
   * holds what fits the target's window: a preview never compacts.
   */
  async previewRequest(conversationId: string, overrides: TargetOverrides & { message?: string }): Promise<RequestPreview> {
    const target = this.resolveTarget(conversationId, overrides);
    const pending: ReplayTurn[] =
      overrides.message === undefined ? [] : [{ messageId: 'next', role: 'user', kind: 'chat', text: overrides.message, calls: [] }];
    const tools = await this.toolbox.list();
    const skills = this.toolbox.skills();
    const pendingTokens = pending.reduce((sum, turn) => sum + estimateMessageTokens(turn.text), 0);
    const guarded = await guardWindow(this.runDependencies, { conversationId, target, tools, skills, pendingTokens, mayCompact: false });
    const { body, warnings } = buildTurnRequest(this.deps.db, {
      conversationId,
      target,
      rows: guarded.rows,
      tools,
      skills,
      pending,
      leading: guarded.leading,
      maxOutputTokens: guarded.maxOutputTokens,
      contextWindow: guarded.contextWindow,
    }, this.runDependencies.readAttachmentFile);
    const wire = BRAINS[target.brain].wire;
    return {
      brain: target.brain,
      model: target.model,
      reasoningLevel: target.reasoningLevel,
      wire,
      body: JSON.stringify(body),
      warnings: [deprecationNotice(target.brain, target.model, this.reportedModel(target.brain, target.model)), ...warnings.map((warning) => warning.message)].filter((warning) => warning !== null),
      context: guarded.status,
    };
  }

  /** What the brain's provider last said of the model, from the base URL in use. */
  private reportedModel(brain: BrainId, model: string): ReportedModel | null {
    return readReportedModel(this.deps.db, brain, this.deps.connectionFor(brain).baseUrl, model);
  }

  /** How full the window of the brain the next turn goes to (or of `brain`/`model`) is for this conversation. */
  async contextStatus(conversationId: string, overrides: { brain?: BrainId; model?: string }): Promise<ContextStatusView> {
    const target = this.resolveTarget(conversationId, overrides);
    // The measure alone: the meter needs no rows read, where building the request would read every row that fits.
    const { status } = await measure(this.runDependencies, { conversationId, target, tools: await this.toolbox.list(), skills: this.toolbox.skills() });
    return { ...status, compacting: this.isCompacting(conversationId) };
  }

  /** One thing at a time per conversation: a reply, or a compaction the user started. */
  private refuseWhileBusy(conversationId: string, then: string): void {
    const running = this.running.get(conversationId);
    if (running === undefined) return;
    const what = running.turnId === null ? 'This conversation is being compacted' : 'A reply is still being written in this conversation';
    throw new ApiError('turn-running', `${what}. Wait for it, or press Stop, then ${then}.`);
  }

  /** Whether a compaction runs now: one the user started, or one inside a turn. */
  isCompacting(conversationId: string): boolean {
    const running = this.running.get(conversationId);
    return running !== undefined && (running.turnId === null || running.compaction !== null);
  }

  /**
   * Compacts now, against `brain`'s window (default: the brain the next turn goes to). Holds the conversation like a
   * turn, so a send waits for it; `stop` cancels it with nothing changed.
   */
  async compact(conversationId: string, brain?: BrainId): Promise<CompactionResult> {
    this.refuseWhileBusy(conversationId, 'compact');
    const target = this.resolveTarget(conversationId, brain ? { brain } : {});
    const letGo = holdTurnLease(this.deps.db, {
      conversationId,
      holder: this.leaseHolder,
      nowMs: () => this.runDependencies.now().getTime(),
      isOwnerAlive: this.deps.isLeaseOwnerAlive ?? (() => true),
    });
    const controller = new AbortController();
    // The tools the target's turn would declare: the summary request continues that request (summary-continuation.ts).
    const request = this.toolbox.list(controller.signal).then(
      (tools) => ({ tools, skills: this.toolbox.skills() }),
      () => undefined,
    );
    const done = request.then((declared) =>
      runCompaction(this.runDependencies, { conversationId, target, ...(declared ? { request: declared } : {}), signal: controller.signal, requested: true }),
    ).finally(() => {
      letGo();
      this.running.delete(conversationId);
    });
    this.running.set(conversationId, { turnId: null, controller, done, compaction: null });
    const result = await done;
    if (result.outcome === 'compacted') {
      this.deps.emit({ type: 'context-pressure', conversationId, status: await this.contextStatus(conversationId, {}) });
    }
    return result;
  }

  /** What `compact` would fold for `brain`'s window, or why it cannot; nothing is asked of any brain. */
  async previewCompaction(conversationId: string, brain?: BrainId): Promise<CompactionPreview> {
    const target = this.resolveTarget(conversationId, brain ? { brain } : {});
    return previewCompaction(this.deps.db, this.windows, { conversationId, target, requested: true });
  }

  /** Sends `text` with the pending attachments `attachmentIds` (from addAttachment). */
  send(conversationId: string, text: string, attachmentIds: readonly string[] = []): StartedTurn {
    return this.start(conversationId, text, attachmentIds.length > 0 ? { attachments: { link: attachmentIds } } : {});
  }

  /** Answers the last user message again, after a failed, stopped or interrupted reply. */
  retry(conversationId: string): StartedTurn {
    return this.start(conversationId, null);
  }

  /**
   * Sends `text` in place of the user message `messageId`: a new message beside it, answered by the conversation's
   * brain. The branch below the old message is kept.
   */
  edit(messageId: string, text: string): StartedTurn {
    const edited = branchPoint(this.deps.db, messageId);
    if (edited.role !== 'user') throw new ApiError('invalid-input', 'Only a message you wrote can be edited.');
    return this.start(edited.conversationId, text, { parentId: edited.parentId, attachments: { copyFrom: edited.id } });
  }

  /**
   * A new reply beside the reply `messageId` (or to the user message `messageId`), replayed the history up to there.
   * `overrides` null: the brain, model and reasoning level that wrote the reply (the conversation's for a user message).
   */
  answerAgain(messageId: string, overrides: TargetOverrides | null): StartedTurn {
    const answered = branchPoint(this.deps.db, messageId);
    if (answered.role === 'system') throw new ApiError('invalid-input', 'Only a message you wrote, or a reply to one, can be answered again.');
    const parentId = answered.role === 'user' ? answered.id : answered.parentId;
    if (parentId === null) throw new ApiError('nothing-to-retry', 'That reply answers no message, so there is nothing to answer again.');
    const sameAsReply: TargetOverrides =
      answered.role === 'assistant' && isBrainId(answered.brain)
        ? {
            brain: answered.brain,
            ...(answered.modelRequested ? { model: answered.modelRequested } : {}),
            reasoningLevel: (REASONING_LEVELS as readonly (string | null)[]).includes(answered.reasoningLevel) ? (answered.reasoningLevel as ReasoningLevel) : null,
          }
        : {};
    return this.start(answered.conversationId, null, { parentId, overrides: overrides ?? sameAsReply });
  }

  /** The running turn's (or compaction's) end, or null when none runs. */
  async settled(conversationId: string): Promise<unknown> {
    return (await this.running.get(conversationId)?.done) ?? null;
  }

  /** Stops what runs: a compaction inside a turn first (the turn then goes on with the rows that fit), else the turn. */
  stop(conversationId: string): boolean {
    const turn = this.running.get(conversationId);
    if (!turn) return false;
    if (turn.compaction !== null && !turn.compaction.signal.aborted) {
      turn.compaction.abort('stop' satisfies AbortReason);
      return true;
    }
    turn.controller.abort('stop' satisfies AbortReason);
    return true;
  }

  /** Aborts every running turn (kept as `interrupted`) and waits for them to be stored. */
  async dispose(): Promise<void> {
    const turns = [...this.running.values()];
    for (const turn of turns) turn.controller.abort('shutdown' satisfies AbortReason);
    await Promise.allSettled(turns.map((turn) => turn.done));
    this.unsavedEnds.dispose();
  }

  private start(conversationId: string, userText: string | null, placement: TurnPlacement = {}): StartedTurn {
    const { db, emit } = this.deps;
    this.refuseWhileBusy(conversationId, 'send again');
    const admission = {
      db,
      toolbox: this.toolbox,
      connectionFor: this.deps.connectionFor,
      streamOwner: this.deps.streamOwner ?? null,
      lease: { holder: this.leaseHolder, isOwnerAlive: this.deps.isLeaseOwnerAlive ?? (() => true) },
    };
    const turn = admit(admission, conversationId, userText, placement);
    const { turnId, userRow, assistantRow } = turn;
    const [userMessage, assistantMessage] = toMessageViews(db, userRow ? [userRow, assistantRow] : [assistantRow]);
    emit({
      type: 'turn-started',
      conversationId,
      turnId,
      userMessage: userRow ? userMessage! : null,
      assistantMessage: userRow ? assistantMessage! : userMessage!,
    });
    if (turn.conversation) emit({ type: 'conversation-updated', conversation: turn.conversation });
    for (const invocation of turn.contextInvocations) {
      emit({ type: 'tool-call-finished', conversationId, invocation: toInvocationView(invocation) });
    }
    const controller = new AbortController();
    const compactionControl: CompactionControl = {
      start: () => {
        const compaction = new AbortController();
        // The app closing ends the compaction with the turn.
        controller.signal.addEventListener('abort', () => compaction.abort(controller.signal.reason), { once: true });
        const entry = this.running.get(conversationId);
        if (entry) entry.compaction = compaction;
        return compaction.signal;
      },
      end: () => {
        const entry = this.running.get(conversationId);
        if (entry) entry.compaction = null;
      },
    };
    const done = runTurn(this.runDependencies, turn, controller.signal, compactionControl).finally(() => {
      this.running.delete(conversationId);
    });
    this.running.set(conversationId, { turnId, controller, done, compaction: null });
    return { result: { turnId, userMessageId: userRow?.id ?? '', assistantMessageId: assistantRow.id }, done };
  }
}
