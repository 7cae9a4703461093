/**
 * The turns of every conversation: at most one running per conversation, each admitted, run and stopped here. The
 * steps live beside it: admit.ts, run-turn.ts (stream, tool-round.ts, reply-draft.ts), store/turns.ts.
 */
import { ApiError, type ApiEvent, type MessageView, type RequestPreview, type SendResult } from '../../../src-shared/api';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import type { ReplayTurn, WireRequest } from '../replay/types';
import { toInvocationView } from '../store/invocations';
import { listLiveMessages, toMessageView, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import type { ToolDefinition } from '../tools/catalogue';
import { admit, type BrainConnection } from './admit';
import type { AbortReason } from './reply-draft';
import { overrideTarget, resolveTarget, type ResolvedTarget } from './resolve-target';
import { runTurn, type TurnRunDependencies } from './run-turn';
import { buildTurnRequest } from './turn-request';
import { clockOnlyToolbox, type TurnToolbox } from './turn-toolbox';

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
  readonly now?: () => Date;
}

export interface StartedTurn {
  readonly result: SendResult;
  /** Settles with the final assistant row once the turn has finished, whatever its status. */
  readonly done: Promise<MessageView>;
}

interface RunningTurn {
  readonly turnId: string;
  readonly controller: AbortController;
  readonly done: Promise<MessageView>;
}

export class TurnEngine {
  private readonly running = new Map<string, RunningTurn>();
  private readonly toolbox: TurnToolbox;
  private readonly runDependencies: TurnRunDependencies;

  constructor(private readonly deps: TurnEngineDependencies) {
    this.toolbox = deps.toolbox ?? clockOnlyToolbox();
    this.runDependencies = {
      db: deps.db,
      emit: deps.emit,
      stream: deps.stream,
      toolbox: this.toolbox,
      now: deps.now ?? (() => new Date()),
      ...(deps.checkpointIntervalMs === undefined ? {} : { checkpointIntervalMs: deps.checkpointIntervalMs }),
      ...(deps.deltaIntervalMs === undefined ? {} : { deltaIntervalMs: deps.deltaIntervalMs }),
    };
  }

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  resolveTarget(conversationId: string): ResolvedTarget {
    return resolveTarget(this.deps.db, conversationId);
  }

  /** The exact request the next turn would send from these rows (and any turns after them), without sending anything. */
  buildRequest(
    conversationId: string,
    target: ResolvedTarget,
    rows: readonly MessageRow[],
    tools: readonly ToolDefinition[],
    pending: readonly ReplayTurn[] = [],
  ): WireRequest {
    return buildTurnRequest(this.deps.db, { conversationId, target, rows, tools, skills: this.toolbox.skills(), pending });
  }

  /** The exact request the next turn would send, with `message` as the new user message; nothing is stored or sent. */
  async previewRequest(conversationId: string, overrides: { brain?: BrainId; model?: string; message?: string }): Promise<RequestPreview> {
    const target = overrideTarget(this.resolveTarget(conversationId), overrides);
    const rows = listLiveMessages(this.deps.db, conversationId);
    const pending: ReplayTurn[] =
      overrides.message === undefined ? [] : [{ messageId: 'next', role: 'user', kind: 'chat', text: overrides.message, calls: [] }];
    const { body, warnings } = this.buildRequest(conversationId, target, rows, await this.toolbox.list(), pending);
    const wire = BRAINS[target.brain].wire;
    return { ...target, wire, body: JSON.stringify(body), warnings: warnings.map((warning) => warning.message) };
  }

  send(conversationId: string, text: string): StartedTurn {
    return this.start(conversationId, text);
  }

  /** Answers the last user message again, after a failed, stopped or interrupted reply. */
  retry(conversationId: string): StartedTurn {
    return this.start(conversationId, null);
  }

  /** The running turn's final row, or null when none runs. */
  settled(conversationId: string): Promise<MessageView | null> {
    return this.running.get(conversationId)?.done ?? Promise.resolve(null);
  }

  stop(conversationId: string): boolean {
    const turn = this.running.get(conversationId);
    if (!turn) return false;
    turn.controller.abort('stop' satisfies AbortReason);
    return true;
  }

  /** Aborts every running turn (kept as `interrupted`) and waits for them to be stored. */
  async dispose(): Promise<void> {
    const turns = [...this.running.values()];
    for (const turn of turns) turn.controller.abort('shutdown' satisfies AbortReason);
    await Promise.allSettled(turns.map((turn) => turn.done));
  }

  private start(conversationId: string, userText: string | null): StartedTurn {
    const { db, emit } = this.deps;
    if (this.running.has(conversationId)) {
      throw new ApiError('turn-running', 'A reply is still being written in this conversation. Wait for it, or press Stop, then send again.');
    }
    const admission = { db, toolbox: this.toolbox, connectionFor: this.deps.connectionFor, streamOwner: this.deps.streamOwner ?? null };
    const turn = admit(admission, conversationId, userText);
    const { turnId, userRow, assistantRow } = turn;
    emit({
      type: 'turn-started',
      conversationId,
      turnId,
      userMessage: userRow ? toMessageView(userRow) : null,
      assistantMessage: toMessageView(assistantRow),
    });
    if (turn.conversation) emit({ type: 'conversation-updated', conversation: turn.conversation });
    for (const invocation of turn.contextInvocations) {
      emit({ type: 'tool-call-finished', conversationId, invocation: toInvocationView(invocation) });
    }
    const controller = new AbortController();
    const done = runTurn(this.runDependencies, turn, controller.signal).finally(() => {
      this.running.delete(conversationId);
    });
    this.running.set(conversationId, { turnId, controller, done });
    return { result: { turnId, userMessageId: userRow?.id ?? '', assistantMessageId: assistantRow.id }, done };
  }
}
