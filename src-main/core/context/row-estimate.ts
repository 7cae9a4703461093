/**
 * A stored row's token estimate: what the row costs in a replay. Its words, and on a reply the calls it replays (as
 * cut for replay: the last 12, inputs and answers to 500 characters, an image as its one-line stand-in) and the context the app brought to its turn
 * (recalled memories, a skill the user started), which replays on the turn's user message.
 */
import { imageFacts, type ToolImage } from '../../../src-shared/tool-images';
import { cutAnswer, cutInput, MAX_REPLAYED_CALLS, withImageStandIns } from '../replay/call-shaping';
import type { LiveTurn } from '../replay/types';
import { estimateMessageTokens, estimateTokens, MESSAGE_FRAMING_TOKENS } from './token-estimate';

/**
 * What one replayed call costs beyond its input and answer: its id (twice: the call and its answer), its name and the
 * wire's wrappers, in characters / 4 of the request body. Anthropic's `tool_use` + `tool_result` blocks and the labelled
 * record of a tool not offered now each come to about 37.
 */
export const CALL_FRAMING_TOKENS = 40;

export interface EstimatedInvocation {
  readonly kind: 'tool' | 'memory' | 'skill';
  readonly providerCallId: string | null;
  readonly input: unknown;
  readonly output: string | null;
  /** The history replays a labelled line for each image, never its bytes. */
  readonly images?: readonly ToolImage[] | null;
}

/** A call the brain made (a tool, or a skill it ran itself); the app's own memories and skills were context. */
function isBrainCall(invocation: EstimatedInvocation): boolean {
  return invocation.kind === 'tool' || (invocation.kind === 'skill' && invocation.providerCallId !== null);
}

function inputObject(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** One call as the history replays it: its input and answer cut, an image as its stand-in. */
function cutCallTokens(call: EstimatedInvocation): number {
  return CALL_FRAMING_TOKENS + estimateTokens(JSON.stringify(cutInput(inputObject(call.input)).input)) + estimateTokens(withImageStandIns(cutAnswer(call.output ?? ''), (call.images ?? []).map(imageFacts)));
}

export function estimateRowTokens(text: string, invocations: readonly EstimatedInvocation[] = []): number {
  let tokens = estimateMessageTokens(text);
  for (const call of invocations.filter(isBrainCall).slice(-MAX_REPLAYED_CALLS)) tokens += cutCallTokens(call);
  for (const context of invocations.filter((invocation) => !isBrainCall(invocation))) {
    tokens += estimateTokens(context.output ?? '') + MESSAGE_FRAMING_TOKENS;
  }
  return tokens;
}

/**
 * What a reply's calls cost whole beyond what its stored estimate counts (cut for the history): the newest reply
 * replays in the rounds it was written in, its calls whole (replay/collect.ts `asWritten`).
 */
export function wholeCallsExtraTokens(invocations: readonly EstimatedInvocation[]): number {
  const calls = invocations.filter(isBrainCall);
  let whole = 0;
  for (const call of calls) {
    whole += CALL_FRAMING_TOKENS + estimateTokens(JSON.stringify(inputObject(call.input))) + estimateTokens(call.output ?? '') + (call.images?.length ?? 0) * LIVE_IMAGE_TOKENS;
  }
  let cut = 0;
  for (const call of calls.slice(-MAX_REPLAYED_CALLS)) cut += cutCallTokens(call);
  return Math.max(0, whole - cut);
}

/**
 * An image a brain receives as bytes in the reply being written. Anthropic counts about width × height / 750 tokens
 * and shrinks larger images to about 1,600 tokens; the others charge less or take no images, so this is the ceiling.
 */
export const LIVE_IMAGE_TOKENS = 1_600;

/** What the reply being written adds to its next request: each round's words, then its calls, inputs and answers whole. */
export function estimateLiveTokens(live: LiveTurn): number {
  let tokens = 0;
  for (const round of live.rounds) {
    tokens += estimateMessageTokens(round.text);
    for (const call of round.calls) {
      const images = call.images ?? [];
      tokens += CALL_FRAMING_TOKENS + estimateTokens(JSON.stringify(call.input)) + estimateTokens(call.answer) + images.length * LIVE_IMAGE_TOKENS;
    }
  }
  return tokens;
}
