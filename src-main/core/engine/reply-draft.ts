/**
 * The reply being written, as a pure reduction of the provider's stream parts: the engine folds each part in with
 * `applyStreamPart` and, once the stream and its tool rounds end, asks `finalStatus` how the reply is stored.
 */
import type { MessageStatus, TurnError, Usage } from '../../../src-shared/api';
import type { BrainId } from '../../../src-shared/brains';
import { refusalMessage, type RefusalDetails } from '../providers/provider-errors';
import type { ProviderError, StreamPart } from '../providers/stream-parts';
import type { ReplayReasoning } from '../replay/types';

export type ToolCallPart = Extract<StreamPart, { type: 'tool-call' }>;

/** Why a turn was aborted: the user's Stop, or the app shutting down. */
export type AbortReason = 'stop' | 'shutdown';

export interface ReplyDraft {
  readonly text: string;
  readonly reasoningText: string;
  /** Signatures, encrypted items and the like, verbatim and in stream order. */
  readonly reasoningBlocks: readonly unknown[];
  /** The calls the current round's stream asked for, not yet run. */
  readonly pendingCalls: readonly ToolCallPart[];
  /** How many calls earlier rounds ran. */
  readonly callsRun: number;
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
  pendingCalls: [],
  callsRun: 0,
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
    case 'reasoning-delta':
      return { ...draft, reasoningText: draft.reasoningText + part.text };
    case 'reasoning-opaque':
      return { ...draft, reasoningBlocks: [...draft.reasoningBlocks, part.opaque] };
    case 'tool-call':
      return { ...draft, pendingCalls: [...draft.pendingCalls, part] };
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

/** The draft after its pending calls ran: the next round starts with none pending. */
export function afterToolRound(draft: ReplyDraft, callsRun: number): ReplyDraft {
  return { ...draft, pendingCalls: [], callsRun: draft.callsRun + callsRun };
}

/** The reply ends with an error of the engine's own (too many tool rounds, an unexpected throw). */
export function failDraft(draft: ReplyDraft, error: TurnError): ReplyDraft {
  return { ...draft, error };
}

/** The reasoning as stored and replayed: written once, tagged with the brain and model that produced it. */
export function draftReasoning(draft: ReplyDraft, brain: BrainId, model: string): ReplayReasoning | null {
  if (draft.reasoningText.length === 0 && draft.reasoningBlocks.length === 0) return null;
  return { brain, model, text: draft.reasoningText, opaque: { blocks: [...draft.reasoningBlocks] } };
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
  if (draft.text.trim().length === 0 && draft.callsRun === 0) {
    return {
      status: 'failed',
      error: { code: 'empty-reply', message: `${brainLabel} sent back an empty reply. Retry, or switch brain.`, retryable: true },
    };
  }
  return { status: 'complete', error: draft.error };
}
