/**
 * A reply's tool rounds as it wrote them. A reply that runs tools streams one request per round; its words, reasoning
 * text and reasoning blocks are kept whole, with where each round ended. The reply being written and a finished reply
 * are split here alike, so a finished reply can replay in the shape its rounds had while it was written.
 */
import type { BrainId } from '../../../src-shared/brains';
import type { ReasoningPlace, ReplayReasoning } from './types';

/** How far the reply had streamed when one round's calls ran, and how many calls that round ran. */
export interface RoundEnd {
  readonly textLength: number;
  readonly reasoningTextLength: number;
  readonly reasoningBlockCount: number;
  readonly callCount: number;
}

/** A reply's words and reasoning, whole, in stream order. */
export interface WrittenReply {
  readonly text: string;
  readonly reasoningText: string;
  readonly reasoningBlocks: readonly unknown[];
  /** Beside each block, what followed it in the output, where the wire says (else null). */
  readonly reasoningPlaces: readonly (ReasoningPlace | null)[];
}

/** Between the reasoning of two tool rounds of one reply, in the stored text (each round replays its own). */
export const ROUND_REASONING_SEPARATOR = '\n\n';

/** One round: the words and reasoning its stream gave, and how many calls it ran (none after the last round). */
export interface WrittenRound {
  readonly text: string;
  readonly reasoning: ReplayReasoning | null;
  readonly callCount: number;
}

/** The blocks stay the provider's own items; their places ride beside them, only when the wire gave any. */
export function taggedReasoning(
  text: string,
  blocks: readonly unknown[],
  places: readonly (ReasoningPlace | null)[],
  brain: BrainId,
  model: string,
): ReplayReasoning | null {
  if (text.length === 0 && blocks.length === 0) return null;
  const placed = places.some((place) => place !== null) ? { places: [...places] } : {};
  return { brain, model, text, opaque: { blocks: [...blocks], ...placed } };
}

type RoundStart = Omit<RoundEnd, 'callCount'>;

function roundBetween(reply: WrittenReply, start: RoundStart, end: RoundStart, callCount: number, brain: BrainId, model: string): WrittenRound {
  const text = reply.text.slice(start.textLength, end.textLength);
  // A round after one with reasoning opens with the separator the draft put there, never with the brain's words.
  const separated = start.reasoningTextLength > 0 && end.reasoningTextLength > start.reasoningTextLength;
  const reasoningText = reply.reasoningText.slice(start.reasoningTextLength + (separated ? ROUND_REASONING_SEPARATOR.length : 0), end.reasoningTextLength);
  const blocks = reply.reasoningBlocks.slice(start.reasoningBlockCount, end.reasoningBlockCount);
  const places = reply.reasoningPlaces.slice(start.reasoningBlockCount, end.reasoningBlockCount);
  return { text, reasoning: taggedReasoning(reasoningText, blocks, places, brain, model), callCount };
}

/** The finished tool rounds, oldest first, each with only what its own stream gave. */
export function splitRounds(reply: WrittenReply, ends: readonly RoundEnd[], brain: BrainId, model: string): WrittenRound[] {
  let start: RoundStart = { textLength: 0, reasoningTextLength: 0, reasoningBlockCount: 0 };
  return ends.map((end): WrittenRound => {
    const round = roundBetween(reply, start, end, end.callCount, brain, model);
    start = end;
    return round;
  });
}

/** What the reply wrote after its last tool round: its final words and the reasoning before them. */
export function afterLastRound(reply: WrittenReply, ends: readonly RoundEnd[], brain: BrainId, model: string): WrittenRound {
  const start: RoundStart = ends.at(-1) ?? { textLength: 0, reasoningTextLength: 0, reasoningBlockCount: 0 };
  const end: RoundStart = { textLength: reply.text.length, reasoningTextLength: reply.reasoningText.length, reasoningBlockCount: reply.reasoningBlocks.length };
  return roundBetween(reply, start, end, 0, brain, model);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Stored ends that measure this reply: each a count, none going back, none past the reply's words, reasoning or
 * blocks, and as many calls as the reply's brain made. Anything else (a row edited by hand, text changed after it was
 * streamed) is null, and the reply replays as one message.
 */
export function readRoundEnds(stored: unknown, reply: WrittenReply, callCount: number): RoundEnd[] | null {
  if (!Array.isArray(stored) || stored.length === 0) return null;
  const ends: RoundEnd[] = [];
  let previous: RoundEnd = { textLength: 0, reasoningTextLength: 0, reasoningBlockCount: 0, callCount: 0 };
  let calls = 0;
  for (const value of stored) {
    if (typeof value !== 'object' || value === null) return null;
    const { textLength, reasoningTextLength, reasoningBlockCount, callCount: roundCalls } = value as Record<string, unknown>;
    if (!isCount(textLength) || !isCount(reasoningTextLength) || !isCount(reasoningBlockCount) || !isCount(roundCalls)) return null;
    const end: RoundEnd = { textLength, reasoningTextLength, reasoningBlockCount, callCount: roundCalls };
    if (end.textLength < previous.textLength || end.reasoningTextLength < previous.reasoningTextLength || end.reasoningBlockCount < previous.reasoningBlockCount) return null;
    ends.push(end);
    calls += roundCalls;
    previous = end;
  }
  const fits = previous.textLength <= reply.text.length && previous.reasoningTextLength <= reply.reasoningText.length && previous.reasoningBlockCount <= reply.reasoningBlocks.length;
  return fits && calls === callCount ? ends : null;
}
