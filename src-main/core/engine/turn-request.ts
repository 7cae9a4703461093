/**
 * A turn's request, built the same way for a preview, the first round and every tool round: live rows and their
 * invocations → neutral replay turns → the wire's body, with the system prompt of this turn's target.
 */
import { BRAINS } from '../../../src-shared/brains';
import { collectReplayTurns } from '../replay/collect';
import { buildSystemPrompt } from '../replay/system-prompt';
import type { LiveTurn, ReplayTurn, WireRequest } from '../replay/types';
import { buildWireRequest } from '../replay/wires';
import { listInvocationsByMessage } from '../store/invocations';
import type { MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { declarationsOf, type ToolDefinition } from '../tools/catalogue';
import type { Skill } from '../tools/skills';
import type { ResolvedTarget } from './resolve-target';

export interface TurnRequest {
  readonly conversationId: string;
  readonly target: ResolvedTarget;
  /** The live rows the history is built from, oldest first. */
  readonly rows: readonly MessageRow[];
  readonly tools: readonly ToolDefinition[];
  readonly skills: readonly Skill[];
  /** Turns after the stored history: the new user message a preview shows. */
  readonly pending?: readonly ReplayTurn[];
  /** Turns before the stored history: the notice that older messages are outside this brain's window. */
  readonly leading?: readonly ReplayTurn[];
  /** The most the reply may take in the target's window (see context/pressure.ts `replyTokens`). */
  readonly maxOutputTokens: number;
  /** The reply being written, round by round, once it has made calls. */
  readonly live?: LiveTurn | null;
}

export function buildTurnRequest(db: AppDatabase, request: TurnRequest): WireRequest {
  const { target, rows } = request;
  const invocations = listInvocationsByMessage(db, rows.filter((row) => row.role === 'assistant').map((row) => row.id));
  const history = collectReplayTurns(rows, invocations);
  return buildWireRequest(BRAINS[target.brain].wire, {
    brain: target.brain,
    model: target.model,
    reasoningLevel: target.reasoningLevel,
    system: buildSystemPrompt(target, request.skills),
    turns: [...(request.leading ?? []), ...history, ...(request.pending ?? [])],
    ...(request.live ? { live: request.live } : {}),
    tools: declarationsOf(request.tools),
    maxOutputTokens: request.maxOutputTokens,
    cacheKey: `anybrain-${request.conversationId}`,
  });
}
