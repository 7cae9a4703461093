/**
 * Live rows → neutral replay turns. What a replay shows is what happened: failed replies and empty rows are left out,
 * stopped and interrupted replies keep the words the user saw. Only calls the brain itself made replay as calls:
 * memories the app retrieved and skills the user started were that turn's context.
 */
import { isBrainId, type BrainId } from '../../../src-shared/brains';
import { imageFacts } from '../../../src-shared/tool-images';
import type { InvocationRow } from '../store/invocations';
import type { MessageRow, StoredReasoning } from '../store/messages';
import { RUN_SKILL_TOOL } from '../tools/run-skill-tool';
import { deriveCallId } from './call-shaping';
import type { LiveRound, LiveTurn, ReplayAttachment, ReplayCall, ReplayImage, ReplayReasoning, ReplayTurn, TurnPlacement } from './types';

/** The memories a turn took into its context, as one labelled line on the user's message. */
export function memoryContext(memories: ReadonlyArray<{ readonly text: string }>): string {
  return [`[System line, memories: notes the user saved earlier that may bear on this message]`, ...memories.map((memory) => `- ${memory.text}`)].join('\n');
}

/** A call the brain made: a tool call, or a skill it ran through run_skill (the app's own uses have no provider id). */
function isBrainCall(invocation: InvocationRow): boolean {
  return invocation.kind === 'tool' || (invocation.kind === 'skill' && invocation.providerCallId !== null);
}

/** Per turn id: the context the app brought (a skill the user started, recalled memories), in that order. */
function contextByTurn(invocationsByMessage: ReadonlyMap<string, readonly InvocationRow[]>): Map<string, string> {
  const skills = new Map<string, string[]>();
  const memories = new Map<string, string[]>();
  for (const invocations of invocationsByMessage.values()) {
    for (const invocation of invocations) {
      if (invocation.kind === 'skill' && invocation.providerCallId === null) {
        skills.set(invocation.turnId, [...(skills.get(invocation.turnId) ?? []), invocation.output ?? '']);
      } else if (invocation.kind === 'memory') {
        memories.set(invocation.turnId, [...(memories.get(invocation.turnId) ?? []), invocation.output ?? '']);
      }
    }
  }
  const context = new Map<string, string>();
  for (const turnId of new Set([...skills.keys(), ...memories.keys()])) {
    const recalled = memories.get(turnId) ?? [];
    const blocks = [...(skills.get(turnId) ?? []), ...(recalled.length > 0 ? [memoryContext(recalled.map((text) => ({ text })))] : [])];
    context.set(turnId, blocks.join('\n\n'));
  }
  return context;
}

/** A call's images: whole in the reply being written, named only in the history (see `ReplayImage`). */
function replayImages(invocation: InvocationRow, placement: TurnPlacement): ReplayImage[] {
  return (invocation.images ?? []).map((image) => ({ ...imageFacts(image), ...(placement === 'live' ? { data: image.data } : {}) }));
}

/** A call's replay id is derived from its reply's id and its position among that reply's brain calls. */
function toReplayCall(messageId: string, invocation: InvocationRow, position: number, placement: TurnPlacement): ReplayCall {
  const input = invocation.input;
  const images = replayImages(invocation, placement);
  return {
    callId: deriveCallId(messageId, position),
    ...(invocation.providerCallId ? { providerCallId: invocation.providerCallId } : {}),
    name: invocation.kind === 'skill' ? RUN_SKILL_TOOL : invocation.tool,
    input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
    answer: invocation.output ?? '',
    isError: invocation.status !== 'ok',
    ...(images.length > 0 ? { images } : {}),
    server: invocation.server,
    ...(invocation.opaque === null || invocation.opaque === undefined ? {} : { opaque: invocation.opaque }),
  };
}

/** The stored facts of a reply that its replay turn shows. */
type ReplySource = Pick<MessageRow, 'id' | 'kind' | 'text' | 'brain' | 'modelRequested' | 'reasoning'>;

/**
 * A reply in the history as one replay turn: `brainCalls` are the calls the brain itself made in this reply, in call
 * order. Null when there is nothing to replay.
 */
function replyReplayTurn(reply: ReplySource, brainCalls: readonly InvocationRow[]): ReplayTurn | null {
  const calls = brainCalls.map((invocation, position) => toReplayCall(reply.id, invocation, position, 'history'));
  if (reply.text.length === 0 && calls.length === 0) return null;
  const reasoning = reply.reasoning as StoredReasoning | null;
  return {
    messageId: reply.id,
    role: 'assistant',
    kind: reply.kind,
    text: reply.text,
    calls,
    ...(isBrainId(reply.brain) ? { brain: reply.brain } : {}),
    ...(reply.modelRequested ? { model: reply.modelRequested } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}

/** One finished round of the reply being written: what its stream gave, and the calls it ran, in call order. */
export interface LiveRoundSource {
  readonly text: string;
  readonly reasoning: ReplayReasoning | null;
  readonly brainCalls: readonly InvocationRow[];
}

/**
 * The reply being written, round by round, once it has made calls; null before that. Its calls get the same ids as
 * when the finished reply replays in the history: positions count on across rounds.
 */
export function liveReplayTurn(reply: { readonly id: string; readonly brain: BrainId; readonly model: string }, rounds: readonly LiveRoundSource[]): LiveTurn | null {
  if (rounds.length === 0) return null;
  let position = 0;
  return {
    messageId: reply.id,
    brain: reply.brain,
    model: reply.model,
    rounds: rounds.map((round): LiveRound => ({
      text: round.text,
      ...(round.reasoning ? { reasoning: round.reasoning } : {}),
      calls: round.brainCalls.map((invocation) => toReplayCall(reply.id, invocation, position++, 'live')),
    })),
  };
}

/** `attachmentsByMessage`: the files of user messages, by message id, in the order attached. */
export function collectReplayTurns(
  rows: readonly MessageRow[],
  invocationsByMessage: ReadonlyMap<string, readonly InvocationRow[]> = new Map(),
  attachmentsByMessage: ReadonlyMap<string, readonly ReplayAttachment[]> = new Map(),
): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  const context = contextByTurn(invocationsByMessage);
  for (const row of rows) {
    if (row.status === 'failed' || row.status === 'streaming') continue;
    switch (row.role) {
      case 'user': {
        // Context rides on the user's message in the request only; the stored text stays what the user typed.
        const extra = context.get(row.turnId);
        const text = extra ? `${row.text}\n\n${extra}` : row.text;
        const attachments = attachmentsByMessage.get(row.id) ?? [];
        if (text.length > 0 || attachments.length > 0) {
          turns.push({ messageId: row.id, role: 'user', kind: row.kind, text, calls: [], ...(attachments.length > 0 ? { attachments } : {}) });
        }
        break;
      }
      case 'system':
        if (row.text.length > 0) turns.push({ messageId: row.id, role: 'system-line', kind: row.kind, text: row.text, calls: [] });
        break;
      case 'assistant': {
        const turn = replyReplayTurn(row, (invocationsByMessage.get(row.id) ?? []).filter(isBrainCall));
        if (turn !== null) turns.push(turn);
        break;
      }
      default: {
        const unreachable: never = row.role;
        throw new Error(`Unknown message role ${String(unreachable)}`);
      }
    }
  }
  return turns;
}
