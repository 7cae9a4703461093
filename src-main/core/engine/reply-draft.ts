/**
 * The reply being written, as a pure reduction of the provider's stream parts: the engine folds each part in with
 * `applyStreamPart` and, once the stream and its tool rounds end, asks `finalStatus` how the reply is stored.
 */
import type { MessageStatus, TurnError, Usage } from '../../../src-shared/api';
import type { BrainId } from '../../../src-shared/brains';
import { refusalMessage, type RefusalDetails } from '../providers/provider-errors';
import type { ProviderError, StreamPart } from '../providers/stream-parts';
import type { ReasoningPlace, ReplayReasoning } from '../replay/types';
import { ROUND_REASONING_SEPARATOR, splitRounds, taggedReasoning, type RoundEnd, type WrittenRound } from '../replay/written-rounds';
import { readCallArguments, type PendingCall } from './call-arguments';

export type { RoundEnd } from '../replay/written-rounds';

export type ToolCallPart = Extract<StreamPart, { type: 'tool-call' }>;

/** Why a turn was aborted: the user's Stop, or the app shutting down. */
export type AbortReason = 'stop' | 'shutdown';

export interface ReplyDraft {
  readonly text: string;
  readonly reasoningText: string;
  /** Signatures, encrypted items and the like, verbatim and in stream order. */
  readonly reasoningBlocks: readonly unknown[];
  /** Beside each block, what followed it in the output, where the wire says (else null). */
  readonly reasoningPlaces: readonly (ReasoningPlace | null)[];
  /** The calls the current round's stream asked for, not yet run, their arguments read within limits. */
  readonly pendingCalls: readonly PendingCall[];
  /** Where each finished tool round ended, oldest first: the live replay gives every round its own message. */
  readonly roundEnds: readonly RoundEnd[];
  readonly servedModel: string | null;
  readonly usage: Usage | null;
  readonly error: TurnError | null;
  /** The provider refused the request for its size. */
  readonly contextTooLarge: boolean;
  /** The provider declined to answer, with its own words where it gave them. */
  readonly refusal: RefusalDetails | null;
}

export const EMPTY_DRAFT: ReplyDraft = {
  text: '',
  reasoningText: '',
  reasoningBlocks: [],
  reasoningPlaces: [],
  pendingCalls: [],
  roundEnds: [],
  servedModel: null,
  usage: null,
  error: null,
  contextTooLarge: false,
  refusal: null,
};

function toTurnError(error: ProviderError): TurnError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    ...(error.limitTokens === undefined ? {} : { limitTokens: error.limitTokens }),
    ...(error.requestTokens === undefined ? {} : { requestTokens: error.requestTokens }),
  };
}

export function applyStreamPart(draft: ReplyDraft, part: StreamPart): ReplyDraft {
  switch (part.type) {
    case 'text-delta':
      return { ...draft, text: draft.text + part.text };
    case 'reasoning-delta': {
      // A later round's reasoning reads as a paragraph of its own in the stored text; `draftRounds` leaves it out.
      const startsRound =
        part.text.length > 0 && draft.reasoningText.length > 0 && draft.roundEnds.at(-1)?.reasoningTextLength === draft.reasoningText.length;
      return { ...draft, reasoningText: draft.reasoningText + (startsRound ? ROUND_REASONING_SEPARATOR : '') + part.text };
    }
    case 'reasoning-opaque':
      return { ...draft, reasoningBlocks: [...draft.reasoningBlocks, part.opaque], reasoningPlaces: [...draft.reasoningPlaces, part.place ?? null] };
    case 'tool-call':
      return { ...draft, pendingCalls: [...draft.pendingCalls, readCallArguments(part)] };
    case 'usage':
      // Providers report usage in pieces (input at the start, output at the end): later fields win.
      return { ...draft, usage: { ...(draft.usage ?? {}), ...part.usage } };
    case 'response-model':
      return { ...draft, servedModel: part.model };
    case 'refusal': {
      // A later part without words keeps the words an earlier one gave.
      const explanation = part.explanation ?? draft.refusal?.explanation ?? null;
      return { ...draft, refusal: { explanation, category: part.category ?? draft.refusal?.category ?? null } };
    }
    case 'finish':
      // A wire that only says its filter stopped the reply (`content_filter` on Chat Completions and Responses) declined
      // all the same.
      if (part.reason === 'content-filter' && draft.refusal === null) return { ...draft, refusal: { explanation: null, category: null } };
      // A cut-short reply keeps its words: `length` is recorded, yet the reply still counts as complete.
      if (part.reason === 'length' && draft.error === null) {
        return { ...draft, error: { code: 'length', message: 'The reply reached the output limit and was cut short.', retryable: false } };
      }
      return draft;
    case 'error':
      return { ...draft, error: toTurnError(part.error), contextTooLarge: draft.contextTooLarge || part.error.code === 'context-too-large' };
    default: {
      const unreachable: never = part;
      throw new Error(`Unknown stream part ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The draft after its pending calls ran: the round ends where the stream stood, and the next starts with none pending. */
export function afterToolRound(draft: ReplyDraft, callsRun: number): ReplyDraft {
  const end: RoundEnd = {
    textLength: draft.text.length,
    reasoningTextLength: draft.reasoningText.length,
    reasoningBlockCount: draft.reasoningBlocks.length,
    callCount: callsRun,
  };
  return { ...draft, pendingCalls: [], roundEnds: [...draft.roundEnds, end] };
}

/** The reply ends with an error of the engine's own (too many tool rounds, an unexpected throw). */
export function failDraft(draft: ReplyDraft, error: TurnError): ReplyDraft {
  return { ...draft, error };
}

/** The reasoning as stored and replayed: written once, tagged with the brain and model that produced it. */
export function draftReasoning(draft: ReplyDraft, brain: BrainId, model: string): ReplayReasoning | null {
  return taggedReasoning(draft.reasoningText, draft.reasoningBlocks, draft.reasoningPlaces, brain, model);
}

/** The draft's finished tool rounds, oldest first, each with only what its own stream gave. */
export function draftRounds(draft: ReplyDraft, brain: BrainId, model: string): WrittenRound[] {
  return splitRounds(draft, draft.roundEnds, brain, model);
}

export interface FinalStatus {
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly error: TurnError | null;
}

/**
 * How a finished draft is stored (DESIGN rule 4): a stopped reply keeps what the user saw, a shutdown leaves it
 * `interrupted`, a refusal fails naming itself (the words before it kept), an empty reply is a failure, never a
 * finished turn.
 */
export function finalStatus(draft: ReplyDraft, abortReason: AbortReason | null, brainLabel: string): FinalStatus {
  if (abortReason === 'shutdown') {
    return {
      status: 'interrupted',
      error: { code: 'interrupted', message: 'Anybrain closed while this reply was being written. Retry to get a full reply.', retryable: true },
    };
  }
  if (abortReason === 'stop') return { status: 'stopped', error: draft.error };
  if (draft.error !== null && draft.error.code !== 'length') return { status: 'failed', error: draft.error };
  if (draft.refusal !== null) {
    // The same request draws the same refusal: another brain, or other words, is the way on.
    return { status: 'failed', error: { code: 'refusal', message: refusalMessage(brainLabel, draft.refusal), retryable: false } };
  }
  if (draft.text.trim().length === 0 && draft.roundEnds.length === 0) {
    return {
      status: 'failed',
      error: { code: 'empty-reply', message: `${brainLabel} sent back an empty reply. Retry, or switch brain.`, retryable: true },
    };
  }
  return { status: 'complete', error: draft.error };
}
