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
import type { LiveRound, LiveTurn, ReasoningPlace, ReplayAttachment, ReplayCall, ReplayImage, ReplayReasoning, ReplayTurn, TurnPlacement } from './types';
import { opaqueBlocks } from './wires/shared';
import { afterLastRound, readRoundEnds, splitRounds, type WrittenReply } from './written-rounds';

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
type ReplySource = Pick<MessageRow, 'id' | 'kind' | 'text' | 'brain' | 'modelRequested' | 'reasoning' | 'rounds'>;

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

/** A reply's words and reasoning, whole, as its rounds measure them. */
function writtenReply(reply: ReplySource): WrittenReply {
  const reasoning = reply.reasoning as StoredReasoning | null;
  const places = (reasoning?.opaque as { places?: unknown } | null | undefined)?.places;
  const blocks = opaqueBlocks(reasoning ?? undefined);
  return {
    text: reply.text,
    reasoningText: reasoning?.text ?? '',
    reasoningBlocks: blocks,
    reasoningPlaces: Array.isArray(places) && places.length === blocks.length ? (places as (ReasoningPlace | null)[]) : blocks.map(() => null),
  };
}

/**
 * A reply as it was written: its tool rounds, then what it wrote after the last; `whole`, its calls as they went while
 * it was written (images included). Null when it ran no tools, or its stored round ends do not measure it, or it was
 * written by no brain this app knows: it replays as one message.
 */
function writtenReplayTurn(reply: ReplySource, brainCalls: readonly InvocationRow[], whole: boolean): ReplayTurn | null {
  const brain = reply.brain;
  const model = reply.modelRequested;
  if (!isBrainId(brain) || model === null) return null;
  const written = writtenReply(reply);
  const ends = readRoundEnds(reply.rounds, written, brainCalls.length);
  if (ends === null) return null;
  const rounds = roundsOf(
    { id: reply.id, brain, model },
    splitRounds(written, ends, brain, model).map((round, index): LiveRoundSource => {
      const first = ends.slice(0, index).reduce((sum, end) => sum + end.callCount, 0);
      return { text: round.text, reasoning: round.reasoning, brainCalls: brainCalls.slice(first, first + round.callCount) };
    }),
    whole ? 'live' : 'history',
  );
  if (rounds === null) return null;
  const last = afterLastRound(written, ends, brain, model);
  return {
    messageId: reply.id,
    role: 'assistant',
    kind: reply.kind,
    text: last.text,
    calls: [],
    brain,
    model,
    ...(last.reasoning ? { reasoning: last.reasoning } : {}),
    rounds: rounds.rounds,
    ...(whole ? { roundsWhole: true } : {}),
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
  return roundsOf(reply, rounds, 'live');
}

/** A reply's rounds, its calls' images whole (`live`) or named only (`history`); ids count on across rounds. */
function roundsOf(reply: { readonly id: string; readonly brain: BrainId; readonly model: string }, rounds: readonly LiveRoundSource[], images: 'live' | 'history'): LiveTurn | null {
  if (rounds.length === 0) return null;
  let position = 0;
  return {
    messageId: reply.id,
    brain: reply.brain,
    model: reply.model,
    rounds: rounds.map((round): LiveRound => ({
      text: round.text,
      ...(round.reasoning ? { reasoning: round.reasoning } : {}),
      calls: round.brainCalls.map((invocation) => toReplayCall(reply.id, invocation, position++, images)),
    })),
  };
}

export interface CollectOptions {
  /**
   * Replies replay in the rounds they were written in, the newest with its calls whole (a request's history);
   * otherwise every reply is one message with its calls cut (a transcript to summarise).
   */
  readonly asWritten?: boolean;
}

/** `attachmentsByMessage`: the files of user messages, by message id, in the order attached. */
export function collectReplayTurns(
  rows: readonly MessageRow[],
  invocationsByMessage: ReadonlyMap<string, readonly InvocationRow[]> = new Map(),
  attachmentsByMessage: ReadonlyMap<string, readonly ReplayAttachment[]> = new Map(),
  options: CollectOptions = {},
): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  const context = contextByTurn(invocationsByMessage);
  const replies: Array<{ readonly index: number; readonly row: MessageRow; readonly brainCalls: readonly InvocationRow[] }> = [];
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
        const brainCalls = (invocationsByMessage.get(row.id) ?? []).filter(isBrainCall);
        const turn = replyReplayTurn(row, brainCalls);
        if (turn !== null) {
          replies.push({ index: turns.length, row, brainCalls });
          turns.push(turn);
        }
        break;
      }
      default: {
        const unreachable: never = row.role;
        throw new Error(`Unknown message role ${String(unreachable)}`);
      }
    }
  }
  if (options.asWritten) {
    replies.forEach((reply, position) => {
      if (reply.row.rounds === null) return;
      const written = writtenReplayTurn(reply.row, reply.brainCalls, position === replies.length - 1);
      if (written !== null) turns[reply.index] = written;
    });
  }
  return turns;
}
