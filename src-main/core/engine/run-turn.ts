/**
 * The turn lifecycle: admission, resolve, replay, stream, checkpoint, finish. The only module that joins the store,
 * the replay and the providers. One turn id is minted at admission and passed everywhere.
 */
import {
  ApiError,
  type ConnectionProblem,
  type ApiEvent,
  type InvocationStatus,
  type MessageView,
  type RequestPreview,
  type SendResult,
  type TurnError,
  type Usage,
} from '../../../src-shared/api';
import { AVAILABLE_BRAINS, BRAINS, FALLBACK_BRAIN, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { buildReceipt } from '../../../src-shared/receipt';
import { sentRequestBody } from '../providers';
import type { ProviderCall, ProviderError, StreamPart } from '../providers/stream-parts';
import { collectReplayTurns } from '../replay/collect';
import { buildSystemPrompt } from '../replay/system-prompt';
import { buildWireRequest } from '../replay/wires';
import { bareToolName, deriveCallId } from '../replay/call-shaping';
import type { ReplayCall, ReplayTurn, WireRequest } from '../replay/types';
import { insertInvocation, toInvocationView, type InvocationRow } from '../store/invocations';
import type { ApprovalGate} from '../tools/approvals';
import { type ToolPolicy } from '../tools/approvals';
import { declarationsOf, findTool, type ToolDefinition, type ToolResult } from '../tools/catalogue';
import { currentTimeTool } from '../tools/current-time';
import { parseSkillCommand, RUN_SKILL_TOOL, skillContext, type Skill } from '../tools/skills';
import { newId, nowIso } from '../store/clock';
import { listInvocationsByMessage } from '../store/invocations';
import { DEFAULT_TITLE, getConversation, updateConversation } from '../store/conversations';
import {
  finishMessage,
  checkpointMessageText,
  insertMessage,
  listLiveMessages,
  nextSeq,
  toMessageView,
  type MessageRow,
  type StoredReasoning,
} from '../store/messages';
import { inTransaction, type AppDatabase } from '../store/open';
import { incrementCounter, readSetting, saveBrainState } from '../store/settings';
import { normalizeQuoteEscapes } from '../transcripts/quote-escapes';
import { QUOTE_ESCAPE_COUNTER } from '../transcripts/repair';
import { DeltaCoalescer } from './delta-coalescer';

export const MAX_OUTPUT_TOKENS = 32_000;
/** How many rounds of tool calls one reply may make before the engine ends it with a message. */
export const MAX_TOOL_ROUNDS = 8;
/** How many memories a turn takes into its context, best matches first. */
export const MEMORIES_PER_TURN = 4;

/** What a turn may use beyond the brain: tools and their policies, memories, skills. */
export interface TurnToolbox {
  /** The tools offered this turn: built-ins, MCP servers' tools, run_skill. The signal ends a slow server start. */
  list(signal?: AbortSignal): Promise<readonly ToolDefinition[]>;
  policyFor(server: string | null, tool: string): ToolPolicy;
  /** Where "ask" waits for the person; without one, "ask" is treated as a denial. */
  readonly approvals: ApprovalGate | null;
  /** The memories that best match a message, best first. */
  recall(text: string, limit: number): ReadonlyArray<{ readonly id: string; readonly text: string }>;
  skills(): readonly Skill[];
}

/** Only the clock: what a turn has when nothing else is configured. */
export function clockOnlyToolbox(): TurnToolbox {
  return {
    list: async () => [currentTimeTool],
    policyFor: () => 'allow',
    approvals: null,
    recall: () => [],
    skills: () => [],
  };
}



const KEYLESS_PLACEHOLDER = 'no-key-set';

export interface BrainConnection {
  readonly baseUrl: string;
  readonly apiKey: string | null;
  /** Set when nothing may be sent: the turn is refused with this code and message before any request. */
  readonly problem?: ConnectionProblem | null;
}

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

/** The brain, model and reasoning level a turn runs with: the conversation's pick, else settings, else brains.ts. */
export interface ResolvedTarget {
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
}

interface RunningTurn {
  readonly turnId: string;
  readonly controller: AbortController;
  readonly done: Promise<MessageView>;
}

/** Why a turn was aborted: the user's Stop, or the app shutting down. */
type AbortReason = 'stop' | 'shutdown';

const TITLE_LENGTH = 60;

function titleFrom(text: string): string {
  const firstLine = text.trim().split(/\r?\n/, 1)[0] ?? '';
  const collapsed = firstLine.replace(/\s+/g, ' ');
  return collapsed.length > TITLE_LENGTH ? `${collapsed.slice(0, TITLE_LENGTH - 1)}…` : collapsed || DEFAULT_TITLE;
}

function toTurnError(error: ProviderError): TurnError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  };
}

function addUsage(previous: Usage | null, next: Usage): Usage {
  return { ...(previous ?? {}), ...next };
}

export class TurnEngine {
  private readonly running = new Map<string, RunningTurn>();
  private readonly toolbox: TurnToolbox;

  constructor(private readonly deps: TurnEngineDependencies) {
    this.toolbox = deps.toolbox ?? clockOnlyToolbox();
  }

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  resolveTarget(conversationId: string): ResolvedTarget {
    const conversation = getConversation(this.deps.db, conversationId);
    if (!conversation) throw new ApiError('not-found', 'That conversation no longer exists.');
    const brain = conversation.brain ?? readSetting(this.deps.db, 'defaultBrain') ?? FALLBACK_BRAIN;
    const info = BRAINS[brain];
    const model = conversation.brain === brain && conversation.model ? conversation.model : info.defaultModel;
    const reasoningLevel = conversation.reasoningLevel ?? info.defaultReasoningLevel;
    return { brain, model, reasoningLevel };
  }

  /** The exact request the next turn would send, without sending anything. */
  buildRequest(
    conversationId: string,
    target: ResolvedTarget,
    rows: readonly MessageRow[],
    tools: readonly ToolDefinition[],
    extraTurns: readonly ReplayTurn[] = [],
  ): WireRequest {
    const invocations = listInvocationsByMessage(this.deps.db, rows.filter((row) => row.role === 'assistant').map((row) => row.id));
    const turns = [...collectReplayTurns(rows, invocations), ...extraTurns];
    return buildWireRequest(BRAINS[target.brain].wire, {
      brain: target.brain,
      model: target.model,
      reasoningLevel: target.reasoningLevel,
      system: buildSystemPrompt(target, this.toolbox.skills()),
      turns,
      tools: declarationsOf(tools),
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      cacheKey: `anybrain-${conversationId}`,
    });
  }

  /** The exact request the next turn would send, with `message` as the new user message; nothing is stored or sent. */
  async previewRequest(conversationId: string, overrides: { brain?: BrainId; model?: string; message?: string }): Promise<RequestPreview> {
    const resolved = this.resolveTarget(conversationId);
    const brain = overrides.brain ?? resolved.brain;
    const target: ResolvedTarget = {
      brain,
      model: overrides.model ?? (brain === resolved.brain ? resolved.model : BRAINS[brain].defaultModel),
      reasoningLevel: brain === resolved.brain ? resolved.reasoningLevel : BRAINS[brain].defaultReasoningLevel,
    };
    const rows = listLiveMessages(this.deps.db, conversationId);
    const pending: ReplayTurn[] =
      overrides.message === undefined ? [] : [{ messageId: 'next', role: 'user', kind: 'chat', text: overrides.message, calls: [] }];
    const { body, warnings } = this.buildRequest(conversationId, target, rows, await this.toolbox.list(), pending);
    const wire = BRAINS[target.brain].wire;
    return { ...target, wire, body: JSON.stringify(sentRequestBody(wire, body)), warnings: warnings.map((warning) => warning.message) };
  }

  send(conversationId: string, text: string): StartedTurn {
    return this.admit(conversationId, text);
  }

  /** Answers the last user message again, after a failed, stopped or interrupted reply. */
  retry(conversationId: string): StartedTurn {
    return this.admit(conversationId, null);
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

  private admit(conversationId: string, userText: string | null): StartedTurn {
    const { db } = this.deps;
    if (this.running.has(conversationId)) {
      throw new ApiError('turn-running', 'A reply is still being written in this conversation. Wait for it, or press Stop, then send again.');
    }
    const target = this.resolveTarget(conversationId);
    const info = BRAINS[target.brain];
    if (!AVAILABLE_BRAINS.includes(target.brain)) {
      const available = AVAILABLE_BRAINS.map((brain) => BRAINS[brain].label).join(', ');
      throw new ApiError('brain-unavailable', `${info.label} cannot take turns in this version yet. Switch to ${available}.`);
    }
    const connection = this.deps.connectionFor(target.brain);
    if (connection.problem) throw new ApiError(connection.problem.code, connection.problem.message);
    // The official endpoint needs a key; a custom base URL (a local proxy or server) may not.
    if (info.keyVariable !== null && !connection.apiKey && connection.baseUrl === info.defaultBaseUrl) {
      throw new ApiError(
        'missing-key',
        `No API key for ${info.label}. Add one in Settings, or set ${info.keyVariable} before starting Anybrain.`,
      );
    }

    const turnId = newId();
    const now = nowIso();
    const admitted = inTransaction(db, () => {
            let seq = nextSeq(db, conversationId);
      let userRow: MessageRow | null = null;
      if (userText === null) {
        const rows = listLiveMessages(db, conversationId);
        if (!rows.some((row) => row.role === 'user')) {
          throw new ApiError('nothing-to-retry', 'There is no message to answer again in this conversation.');
        }
      } else {
        userRow = insertMessage(db, { id: newId(), conversationId, seq, turnId, role: 'user', text: userText, status: 'complete', createdAt: now });
        seq += 1;
      }
      const assistantRow = insertMessage(db, {
        id: newId(),
        conversationId,
        seq,
        turnId,
        role: 'assistant',
        text: '',
        status: 'streaming',
        brain: target.brain,
        modelRequested: target.model,
        reasoningLevel: target.reasoningLevel,
        streamOwner: this.deps.streamOwner ?? null,
        createdAt: now,
      });
      const contextInvocations = userText === null ? [] : this.recordTurnContext(turnId, assistantRow.id, userText, now);
      const conversation = getConversation(db, conversationId);
      const changes: { updatedAt: string; title?: string } = { updatedAt: now };
      if (userText !== null && conversation?.title === DEFAULT_TITLE) changes.title = titleFrom(userText);
      const updated = updateConversation(db, conversationId, changes);
      return { userRow, assistantRow, updated, contextInvocations };
    });

    const { userRow, assistantRow, updated, contextInvocations } = admitted;
    const controller = new AbortController();
    this.deps.emit({
      type: 'turn-started',
      conversationId,
      turnId,
      userMessage: userRow ? toMessageView(userRow) : null,
      assistantMessage: toMessageView(assistantRow),
    });
    if (updated) this.deps.emit({ type: 'conversation-updated', conversation: updated });
    for (const invocation of contextInvocations) {
      this.deps.emit({ type: 'tool-call-finished', conversationId, invocation: toInvocationView(invocation) });
    }

    const done = this.runTurn(conversationId, turnId, assistantRow, target, connection, controller.signal, contextInvocations.length).finally(() => {
      this.running.delete(conversationId);
    });
    this.running.set(conversationId, { turnId, controller, done });
    return {
      result: { turnId, userMessageId: userRow?.id ?? '', assistantMessageId: assistantRow.id },
      done,
    };
  }

  /**
   * What the app itself brings to a turn, recorded as invocations of the turn's reply: a skill the user started with
   * `/name`, and the memories that best match the message. Both become this turn's context on the user's message.
   */
  private recordTurnContext(turnId: string, messageId: string, userText: string, now: string): InvocationRow[] {
    const rows: InvocationRow[] = [];
    const started = parseSkillCommand(userText, this.toolbox.skills());
    if (started) {
      rows.push(
        insertInvocation(this.deps.db, {
          id: newId(), turnId, messageId, seq: rows.length, kind: 'skill', server: null, tool: started.skill.name, providerCallId: null,
          input: { input: started.rest }, output: skillContext(started.skill, 'user'), status: 'ok', opaque: null, startedAt: now, endedAt: now,
        }),
      );
    }
    const query = started ? started.rest : userText;
    for (const memory of this.toolbox.recall(query, MEMORIES_PER_TURN)) {
      rows.push(
        insertInvocation(this.deps.db, {
          id: newId(), turnId, messageId, seq: rows.length, kind: 'memory', server: null, tool: 'memory', providerCallId: null,
          input: { memoryId: memory.id }, output: memory.text, status: 'ok', opaque: null, startedAt: now, endedAt: now,
        }),
      );
    }
    return rows;
  }

  /** Asks the policy, and the person where the policy says ask. */
  private async approve(conversationId: string, turnId: string, tool: ToolDefinition, input: Record<string, unknown>, signal: AbortSignal): Promise<'allow' | 'deny' | 'cancelled' | 'policy-deny'> {
    const bare = bareToolName(tool.name);
    const policy = this.toolbox.policyFor(tool.server, bare);
    if (policy === 'allow') return 'allow';
    if (policy === 'deny' || this.toolbox.approvals === null) return 'policy-deny';
    return this.toolbox.approvals.ask({ approvalId: newId(), conversationId, turnId, server: tool.server, tool: bare, input }, signal);
  }

  /** Executes one call the brain made, stores its invocation row under this turn's id, and returns it for replay. */
  private async runToolCall(
    conversationId: string,
    turnId: string,
    messageId: string,
    placement: { readonly seq: number; readonly position: number },
    tools: readonly ToolDefinition[],
    pending: Extract<StreamPart, { type: 'tool-call' }>,
    signal: AbortSignal,
  ): Promise<ReplayCall> {
    const { db, emit } = this.deps;
    const tool = findTool(tools, pending.name);
    const isSkillRun = tool?.name === RUN_SKILL_TOOL;
    const bare = bareToolName(pending.name);
    // A skill a brain runs is a skill use; its row names the skill, and it replays as the run_skill call it was.
    const recordedTool = isSkillRun && typeof pending.input.name === 'string' ? pending.input.name : bare;
    const startedAt = nowIso();
    emit({ type: 'tool-call-started', conversationId, turnId, messageId, tool: recordedTool, server: tool?.server ?? null, input: pending.input });
    let result: ToolResult;
    let status: InvocationStatus;
    if (!tool) {
      result = { output: `No tool named "${pending.name}" is offered. Use one of: ${tools.map((entry) => entry.name).join(', ')}.`, isError: true };
      status = 'error';
    } else {
      const decision = await this.approve(conversationId, turnId, tool, pending.input, signal);
      if (decision === 'policy-deny') {
        result = { output: `The user does not allow ${bare} to run. Do not call it again; answer without it.`, isError: true };
        status = 'denied';
      } else if (decision === 'deny') {
        result = { output: `The user denied this call to ${bare}. Do not retry it; answer without it or ask the user.`, isError: true };
        status = 'denied';
      } else if (decision === 'cancelled' || signal.aborted) {
        result = { output: 'The call was cancelled before it ran.', isError: true };
        status = 'cancelled';
      } else {
        try {
          result = await tool.execute(pending.input, { signal, now: this.deps.now ?? (() => new Date()) });
        } catch (thrown) {
          result = { output: `The tool failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`, isError: true };
        }
        status = signal.aborted ? 'cancelled' : result.isError ? 'error' : 'ok';
      }
    }
    const row = insertInvocation(db, {
      id: newId(),
      turnId,
      messageId,
      seq: placement.seq,
      kind: isSkillRun ? 'skill' : 'tool',
      server: tool?.server ?? null,
      tool: recordedTool,
      providerCallId: pending.providerCallId,
      input: pending.input,
      output: result.output,
      status,
      opaque: pending.opaque ?? null,
      startedAt,
      endedAt: nowIso(),
    });
    emit({ type: 'tool-call-finished', conversationId, invocation: toInvocationView(row) });
    return {
      callId: deriveCallId(messageId, placement.position),
      ...(pending.providerCallId ? { providerCallId: pending.providerCallId } : {}),
      name: isSkillRun ? RUN_SKILL_TOOL : bare,
      input: pending.input,
      answer: result.output,
      isError: status !== 'ok',
      server: tool?.server ?? null,
      ...(pending.opaque === undefined ? {} : { opaque: pending.opaque }),
    };
  }

  private async runTurn(
    conversationId: string,
    turnId: string,
    assistantRow: MessageRow,
    target: ResolvedTarget,
    connection: BrainConnection,
    signal: AbortSignal,
    contextInvocationCount: number,
  ): Promise<MessageView> {
    const { db, emit } = this.deps;
    const messageId = assistantRow.id;
    let text = '';
    let checkpointed = '';
    let reasoningText = '';
    const reasoningBlocks: unknown[] = [];
    let servedModel: string | null = null;
    let usage: Usage | null = null;
    let error: TurnError | null = null;
    let tooLarge = false;

    const coalescer = new DeltaCoalescer(
      (textDelta) => emit({ type: 'message-delta', conversationId, turnId, messageId, textDelta }),
      this.deps.deltaIntervalMs,
    );
    const checkpointTimer = setInterval(() => {
      if (text === checkpointed) return;
      checkpointMessageText(db, messageId, text, nowIso());
      checkpointed = text;
    }, this.deps.checkpointIntervalMs ?? 250);

    const liveCalls: ReplayCall[] = [];
    const rows = listLiveMessages(db, conversationId).filter((row) => row.seq <= assistantRow.seq);
    try {
      const tools = await this.toolbox.list(signal);
      for (let round = 0; ; round += 1) {
        const pendingCalls: Array<Extract<StreamPart, { type: 'tool-call' }>> = [];
        const liveTurn: ReplayTurn | null =
          liveCalls.length === 0
            ? null
            : {
                messageId,
                role: 'assistant',
                kind: 'chat',
                text,
                calls: liveCalls,
                brain: target.brain,
                model: target.model,
                live: true,
                ...(reasoningText || reasoningBlocks.length
                  ? { reasoning: { brain: target.brain, model: target.model, text: reasoningText, opaque: { blocks: reasoningBlocks } } }
                  : {}),
              };
        const { body } = this.buildRequest(conversationId, target, rows, tools, liveTurn === null ? [] : [liveTurn]);
        const call: ProviderCall = {
          wire: BRAINS[target.brain].wire,
          baseUrl: connection.baseUrl,
          // The SDKs insist on some key; a keyless custom server gets a placeholder instead of another brain's variable.
          apiKey: connection.apiKey ?? (BRAINS[target.brain].keyVariable === null ? null : KEYLESS_PLACEHOLDER),
          body,
          signal,
          // Failure messages name the brain ("Claude stopped sending for 90 s…"), not the provider's host.
          label: BRAINS[target.brain].label,
        };
        for await (const part of this.deps.stream(call)) {
          if (signal.aborted) break;
          switch (part.type) {
            case 'text-delta':
              text += part.text;
              coalescer.push(part.text);
              break;
            case 'reasoning-delta':
              reasoningText += part.text;
              break;
            case 'reasoning-opaque':
              reasoningBlocks.push(part.opaque);
              break;
            case 'tool-call':
              pendingCalls.push(part);
              break;
            case 'usage':
              usage = addUsage(usage, part.usage);
              break;
            case 'response-model':
              servedModel = part.model;
              break;
            case 'finish':
              if (part.reason === 'length' && error === null) {
                error = { code: 'length', message: 'The reply reached the output limit and was cut short.', retryable: false };
              }
              break;
            case 'error':
              error = toTurnError(part.error);
              if (part.error.code === 'context-too-large') tooLarge = true;
              break;
            default: {
              const unreachable: never = part;
              throw new Error(`Unknown stream part ${JSON.stringify(unreachable)}`);
            }
          }
        }
        if (signal.aborted || error !== null || pendingCalls.length === 0) break;
        if (round >= MAX_TOOL_ROUNDS) {
          error = {
            code: 'tool-rounds',
            message: `${BRAINS[target.brain].label} kept calling tools for ${MAX_TOOL_ROUNDS} rounds, so the reply was ended here. Ask it to continue if you want more.`,
            retryable: false,
          };
          break;
        }
        for (const pending of pendingCalls) {
          const placement = { seq: contextInvocationCount + liveCalls.length, position: liveCalls.length };
          liveCalls.push(await this.runToolCall(conversationId, turnId, messageId, placement, tools, pending, signal));
        }
        if (signal.aborted) break;
      }
    } catch (thrown) {
      if (!signal.aborted) {
        error = {
          code: 'internal',
          message: `The reply could not be completed: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
          retryable: true,
        };
      }
    } finally {
      clearInterval(checkpointTimer);
      // Whatever is stored must have been shown: send the last batch before the final write.
      coalescer.flush();
    }

    const abortReason = signal.aborted ? (signal.reason as AbortReason) : null;
    let status: 'complete' | 'stopped' | 'interrupted' | 'failed';
    if (abortReason === 'stop') status = 'stopped';
    else if (abortReason === 'shutdown') status = 'interrupted';
    else if (error !== null && error.code !== 'length') status = 'failed';
    else if (text.trim().length === 0 && liveCalls.length === 0) {
      status = 'failed';
      error = { code: 'empty-reply', message: `${BRAINS[target.brain].label} sent back an empty reply. Retry, or switch brain.`, retryable: true };
    } else status = 'complete';
    if (abortReason === 'shutdown') {
      error = { code: 'interrupted', message: 'Anybrain closed while this reply was being written. Retry to get a full reply.', retryable: true };
    }

    const reasoning: StoredReasoning | null =
      reasoningText.length > 0 || reasoningBlocks.length > 0
        ? { brain: target.brain, model: target.model, text: reasoningText, opaque: { blocks: reasoningBlocks } }
        : null;
    const now = nowIso();
    // The quote-escape guard: a reply is stored with a lone \" outside code turned back into the quote it stands for.
    const guarded = normalizeQuoteEscapes(text);
    const finished = inTransaction(db, () => {
      if (guarded.normalized > 0) incrementCounter(db, QUOTE_ESCAPE_COUNTER, guarded.normalized);
      const row = finishMessage(db, messageId, { text: guarded.text, status, error, modelResponded: servedModel, reasoning, usage, now });
      if (usage !== null || tooLarge) {
        saveBrainState(db, {
          conversationId,
          brain: target.brain,
          ...(usage !== null ? { usage } : {}),
          ...(tooLarge ? { full: true } : {}),
          now,
        });
      }
      const conversation = updateConversation(db, conversationId, { updatedAt: now });
      return { row, conversation };
    });
    const message = toMessageView(finished.row);
    const invocations = listInvocationsByMessage(db, [messageId]).get(messageId) ?? [];
    emit({ type: 'turn-receipt', conversationId, turnId, messageId, receipt: buildReceipt(invocations) });
    emit(status === 'failed' ? { type: 'turn-failed', conversationId, turnId, message } : { type: 'turn-done', conversationId, turnId, message });
    if (finished.conversation) emit({ type: 'conversation-updated', conversation: finished.conversation });
    return message;
  }
}
