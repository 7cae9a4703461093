/**
 * A turn's request, built the same way for a preview, the first round and every tool round: live rows and their
 * invocations → neutral replay turns → the wire's body, with the system prompt of this turn's target.
 */
import { BRAINS } from '../../../src-shared/brains';
import { collectReplayTurns } from '../replay/collect';
import { buildSystemPrompt } from '../replay/system-prompt';
import type { LiveTurn, ReplayAttachment, ReplayTurn, WireRequest } from '../replay/types';
import { buildWireRequest } from '../replay/wires';
import { attachmentRowsOfMessages, type AttachmentRow } from '../store/attachments';
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

/** An attached file's bytes by sha256, or null when the file is missing from the data folder. */
export type AttachmentFileReader = (sha256: string) => Uint8Array | null;

function toReplayAttachment(row: AttachmentRow, readFile: AttachmentFileReader | undefined): ReplayAttachment {
  const bytes = readFile?.(row.sha256) ?? null;
  const facts = { name: row.name, kind: row.kind, mediaType: row.mediaType, width: row.width, height: row.height };
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

/** `readFile`: where attached files' bytes come from; without it, every attachment replays as missing. */
export function buildTurnRequest(db: AppDatabase, request: TurnRequest, readFile?: AttachmentFileReader): WireRequest {
  const { target, rows } = request;
  const invocations = listInvocationsByMessage(db, rows.filter((row) => row.role === 'assistant').map((row) => row.id));
  const history = collectReplayTurns(rows, invocations, replayAttachments(db, rows, readFile));
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
