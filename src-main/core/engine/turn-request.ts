/**
 * A turn's request, built the same way for a preview, the first round and every tool round: live rows and their
 * invocations → neutral replay turns → the wire's body, with the system prompt of this turn's target.
 */
import { BRAINS } from '../../../src-shared/brains';
import { estimateTokens } from '../context/token-estimate';
import { buildSystemPrompt } from '../replay/system-prompt';
import { buildFromParts, type TurnRequestParts } from '../replay/request-parts';
import type { LiveTurn, ReplayAttachment, ReplayTurn, WireRequest } from '../replay/types';
import { attachmentRowsOfMessages, type AttachmentRow } from '../store/attachments';
import { listInvocationsByMessage, type InvocationRow } from '../store/invocations';
import type { MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import type { ProviderCall } from '../providers/stream-parts';
import { declarationsOf, type ToolDefinition } from '../tools/catalogue';
import type { Skill } from '../tools/skills';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from './event-loop-turn';
import { promptCachePlan } from './prompt-cache-plan';
import type { RequestBodyEncoder } from './request-body-encoder';
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
  /** The target's window the rows were measured against (see replay/types.ts `ReplayRequest.contextWindow`). */
  readonly contextWindow: number;
  /** The reply being written, round by round, once it has made calls. */
  readonly live?: LiveTurn | null;
}

/** What a request to the target costs beside its history: the system prompt and the tool declarations. */
export function requestOverhead(target: ResolvedTarget, tools: readonly ToolDefinition[], skills: readonly Skill[]): number {
  return estimateTokens(buildSystemPrompt(target, skills)) + estimateTokens(JSON.stringify(declarationsOf(tools)));
}

/** An attached file's bytes by sha256, or null when the file is missing from the data folder. */
export type AttachmentFileReader = (sha256: string) => Uint8Array | null;

function toReplayAttachment(row: AttachmentRow, readFile: AttachmentFileReader | undefined): ReplayAttachment {
  const bytes = readFile?.(row.sha256) ?? null;
  const facts = { name: row.name, kind: row.kind, mediaType: row.mediaType, width: row.width, height: row.height, pages: row.pages };
  if (bytes === null) return facts;
  // A text file was read as UTF-8 text when it was added (core/attachments/sniff.ts).
  return row.kind === 'text' ? { ...facts, text: Buffer.from(bytes).toString('utf8') } : { ...facts, data: Buffer.from(bytes).toString('base64') };
}

/** The attachments of the user rows, by message id, each with its bytes (or text) read from the data folder. */
function replayAttachments(db: AppDatabase, rows: readonly MessageRow[], readFile: AttachmentFileReader | undefined): Map<string, ReplayAttachment[]> {
  const byMessage = new Map<string, ReplayAttachment[]>();
  for (const [messageId, attachmentRows] of attachmentRowsOfMessages(db, rows.filter((row) => row.role === 'user').map((row) => row.id))) {
    byMessage.set(messageId, attachmentRows.map((row) => toReplayAttachment(row, readFile)));
  }
  return byMessage;
}

function partsOf(request: TurnRequest, invocations: TurnRequestParts['invocations'], attachments: TurnRequestParts['attachments']): TurnRequestParts {
  const { target } = request;
  const system = buildSystemPrompt(target, request.skills);
  const tools = declarationsOf(request.tools);
  return {
    wire: BRAINS[target.brain].wire,
    rows: request.rows,
    invocations,
    attachments,
    leading: request.leading ?? [],
    pending: request.pending ?? [],
    request: {
      brain: target.brain,
      model: target.model,
      reasoningLevel: target.reasoningLevel,
      system,
      ...(request.live ? { live: request.live } : {}),
      tools,
      maxOutputTokens: request.maxOutputTokens,
      contextWindow: request.contextWindow,
      cacheKey: `anybrain-${request.conversationId}`,
      promptCache: promptCachePlan(target, request.rows, system, tools),
    },
  };
}

/** `readFile`: where attached files' bytes come from; without it, every attachment replays as missing. */
export function buildTurnRequest(db: AppDatabase, request: TurnRequest, readFile?: AttachmentFileReader): WireRequest {
  const invocations = listInvocationsByMessage(db, request.rows.filter((row) => row.role === 'assistant').map((row) => row.id));
  return buildFromParts(partsOf(request, invocations, replayAttachments(db, request.rows, readFile)));
}

/**
 * The parts of a long history's request, read a page of `LONG_HISTORY_ROWS` messages' calls at a time with a turn of
 * the event loop between pages: a window of a million tokens holds thousands of calls.
 */
export async function readTurnRequestParts(db: AppDatabase, request: TurnRequest, readFile?: AttachmentFileReader): Promise<TurnRequestParts> {
  const replies = request.rows.filter((row) => row.role === 'assistant').map((row) => row.id);
  const invocations = new Map<string, InvocationRow[]>();
  for (let start = 0; start < replies.length; start += LONG_HISTORY_ROWS) {
    for (const [messageId, rows] of listInvocationsByMessage(db, replies.slice(start, start + LONG_HISTORY_ROWS))) invocations.set(messageId, rows);
    await nextEventLoopTurn();
  }
  return partsOf(request, invocations, replayAttachments(db, request.rows, readFile));
}

/** A body as a provider call carries it: the object, or its top-level fields and its bytes (see encoded-body.ts). */
export type RequestBody = Pick<ProviderCall, 'body' | 'encodedBody'>;

/**
 * The body of a turn's request. A long history's is built and serialised in the worker when there is one, and its
 * reads are paged; a short one is built here, in well under a millisecond a step.
 */
export async function buildRequestBody(
  db: AppDatabase,
  request: TurnRequest,
  encoder: RequestBodyEncoder | undefined,
  readFile?: AttachmentFileReader,
): Promise<RequestBody> {
  if (encoder === undefined || request.rows.length < LONG_HISTORY_ROWS) return { body: buildTurnRequest(db, request, readFile).body };
  const parts = await readTurnRequestParts(db, request, readFile);
  try {
    const encoded = await encoder.encode(parts);
    return { body: encoded.fields, encodedBody: encoded.json };
  } catch {
    // A worker that failed or closed leaves the build to this thread: the turn goes on, in longer steps.
    return { body: buildFromParts(parts).body };
  }
}
