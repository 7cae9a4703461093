/**
 * Transcript export: words and structured rows only. Keys never appear; reasoning and calls keep their opaque carriers
 * verbatim so an import can replay them to the brain that made them. Markdown and HTML are projections of the same
 * transcript, computed here at export time (export-markdown.ts, export-html.ts).
 */
import type { ExportFormat, ExportOptions, ExportResult, TurnError } from '../../../src-shared/api';
import {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptError,
  type TranscriptInvocationOpaque,
  type TranscriptMessage,
  type TranscriptReasoningOpaque,
  type TranscriptV1,
} from '../../../src-shared/transcript';
import { getConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { listAllMessages, type StoredReasoning } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { conversationFileName } from './export-file-names';
import { htmlOf } from './export-html';
import { markdownOf } from './export-markdown';

export class ConversationNotFoundError extends Error {
  constructor(readonly conversationId: string) {
    super(`There is no conversation with id ${conversationId}.`);
    this.name = 'ConversationNotFoundError';
  }
}

/** A reply's error in the transcript's own spelling; the optional fields only where the reply had them. */
function transcriptErrorOf(error: TurnError): TranscriptError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterSeconds === undefined ? {} : { retry_after_seconds: error.retryAfterSeconds }),
    ...(error.limitTokens === undefined ? {} : { limit_tokens: error.limitTokens }),
    ...(error.requestTokens === undefined ? {} : { request_tokens: error.requestTokens }),
  };
}

export class TurnNotFoundError extends Error {
  constructor(
    readonly conversationId: string,
    readonly turnIds: readonly string[],
  ) {
    super(`Conversation ${conversationId} has no turn with id ${turnIds.join(', ')}.`);
    this.name = 'TurnNotFoundError';
  }
}

/** The rows of the chosen turns, in conversation order; every row when no turns are named. */
function rowsOfTurns<Row extends { readonly turnId: string }>(conversationId: string, rows: readonly Row[], turnIds: readonly string[] | undefined): Row[] {
  if (turnIds === undefined) return [...rows];
  const wanted = new Set(turnIds);
  const missing = [...wanted].filter((turnId) => !rows.some((row) => row.turnId === turnId));
  if (missing.length > 0) throw new TurnNotFoundError(conversationId, missing);
  return rows.filter((row) => wanted.has(row.turnId));
}

export function buildTranscript(db: AppDatabase, conversationId: string, turnIds?: readonly string[]): TranscriptV1 {
  const conversation = getConversation(db, conversationId);
  if (!conversation) throw new ConversationNotFoundError(conversationId);
  const rows = rowsOfTurns(conversationId, listAllMessages(db, conversationId), turnIds);
  const exportedIds = new Set(rows.map((row) => row.id));
  const invocations = listInvocationsByMessage(db, rows.map((row) => row.id));
  const messages: TranscriptMessage[] = rows.map((row) => {
    const base = {
      id: row.id,
      turn_id: row.turnId,
      role: row.role,
      kind: row.kind,
      text: row.text,
      created_at: row.createdAt,
      // Among chosen turns, a summary whose covered rows were left out covers nothing in this file (an import
      // refuses a `covers_through_id` that names no message before the summary).
      ...(row.kind === 'summary' && row.coversThroughId !== null && exportedIds.has(row.coversThroughId) ? { covers_through_id: row.coversThroughId } : {}),
    };
    if (row.role !== 'assistant') return base;
    const reasoning = row.reasoning as StoredReasoning | null;
    return {
      ...base,
      status: row.status,
      brain: row.brain,
      model_requested: row.modelRequested,
      model_responded: row.modelResponded,
      reasoning_level: row.reasoningLevel,
      ...(row.error ? { error: transcriptErrorOf(row.error as TurnError) } : {}),
      ...(reasoning ? { reasoning: { brain: reasoning.brain, model: reasoning.model, text: reasoning.text, opaque: reasoning.opaque as TranscriptReasoningOpaque } } : {}),
      tool_invocations: (invocations.get(row.id) ?? []).map((invocation) => ({
        id: invocation.id,
        kind: invocation.kind,
        server: invocation.server,
        tool: invocation.tool,
        provider_call_id: invocation.providerCallId,
        input: invocation.input ?? {},
        output: invocation.output,
        status: invocation.status,
        ...(invocation.opaque === null || invocation.opaque === undefined ? {} : { opaque: invocation.opaque as TranscriptInvocationOpaque }),
        ...(invocation.images && invocation.images.length > 0
          ? { images: invocation.images.map((image) => ({ mime_type: image.mimeType, data: image.data })) }
          : {}),
      })),
    };
  });
  return {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    conversation: { id: conversation.id, title: conversation.title, created_at: conversation.createdAt },
    messages,
  };
}

export function exportConversation(db: AppDatabase, conversationId: string, format: ExportFormat, options: ExportOptions = {}): ExportResult {
  const transcript = buildTranscript(db, conversationId, options.turnIds);
  const projection = { includeTools: options.includeTools ?? true, includeReasoning: options.includeReasoning ?? false };
  const filename = conversationFileName(transcript.conversation.title, format);
  switch (format) {
    case 'json':
      return { filename, mimeType: 'application/json', content: `${JSON.stringify(transcript, null, 2)}\n` };
    case 'md':
      return { filename, mimeType: 'text/markdown', content: markdownOf(transcript, projection) };
    case 'html':
      return { filename, mimeType: 'text/html', content: htmlOf(transcript, projection) };
    default: {
      const unreachable: never = format;
      throw new Error(`Unknown export format ${String(unreachable)}`);
    }
  }
}
