/**
 * Transcript export: words and structured rows only. Keys never appear; reasoning and calls keep their opaque carriers
 * verbatim so an import can replay them to the brain that made them. Markdown and HTML are projections of the same
 * transcript, computed here at export time (export-markdown.ts, export-html.ts).
 */
import { redactKeys } from '../secrets/redact';
import type { AttachmentView, ExportBranches, ExportFormat, ExportOptions, ExportResult, TurnError } from '../../../src-shared/api';
import {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptAttachment,
  type TranscriptError,
  type TranscriptInvocationOpaque,
  type TranscriptMessage,
  type TranscriptReasoningOpaque,
  type TranscriptUsage,
  type TranscriptV1,
} from '../../../src-shared/transcript';
import { readAttachmentFile } from '../attachments/attachment-files';
import { attachmentsOfMessages } from '../store/attachments';
import { currentLeafId } from '../store/branches';
import { getConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { listAllMessages, type MessageRow, type StoredReasoning } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { replyUsageByTurn, type UsageTotals } from '../store/request-usage';
import { attachmentFiles, attachmentPlacement } from './export-attachments';
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
    // Replies stored before keys were redacted on the way in: no key-shaped text leaves in an export.
    message: redactKeys(error.message),
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

/**
 * The ids of the live path's rows as the window shows it over time: the rows marked on the path (those a summary
 * covers included) and the summaries that stand for them, each summary a later one covers included.
 */
function liveRowIds(rows: readonly MessageRow[]): Set<string> {
  const live = new Set(rows.filter((row) => row.kind !== 'summary' && row.onLivePath === 1).map((row) => row.id));
  const standing = new Set<string>();
  for (const row of rows) if (live.has(row.id) && row.compactedInto !== null) standing.add(row.compactedInto);
  // Rows in the order written: a summary comes before the summary that covers it.
  for (const row of rows) {
    if (row.kind !== 'summary') continue;
    if (row.coversThroughId !== null && live.has(row.coversThroughId)) standing.add(row.id);
    if (standing.has(row.id) && row.compactedInto !== null) standing.add(row.compactedInto);
  }
  return new Set([...live, ...standing]);
}

/** `id` when it is exported, else the nearest of its ancestors that is; null for none. */
function nearestExported(rowsById: ReadonlyMap<string, MessageRow>, exportedIds: ReadonlySet<string>, id: string | null): string | null {
  let current = id;
  while (current !== null && !exportedIds.has(current)) current = rowsById.get(current)?.parentId ?? null;
  return current;
}

/**
 * A conversation as a transcript: every branch (`branches: 'all'`, what JSON always exports) or the live path; only
 * the chosen turns when `turnIds` names some. Each message names the nearest exported message it follows, and the
 * conversation its current leaf, or the nearest exported message above it.
 */
export function buildTranscript(db: AppDatabase, conversationId: string, turnIds?: readonly string[], branches: ExportBranches = 'all'): TranscriptV1 {
  const conversation = getConversation(db, conversationId);
  if (!conversation) throw new ConversationNotFoundError(conversationId);
  const allRows = listAllMessages(db, conversationId);
  const chosen = rowsOfTurns(conversationId, allRows, turnIds);
  const liveIds = branches === 'live' ? liveRowIds(allRows) : null;
  const rows = liveIds === null ? chosen : chosen.filter((row) => liveIds.has(row.id));
  const exportedIds = new Set(rows.map((row) => row.id));
  const rowsById = new Map(allRows.map((row) => [row.id, row]));
  const invocations = listInvocationsByMessage(db, rows.map((row) => row.id));
  const attachments = attachmentsOfMessages(db, rows.map((row) => row.id));
  const spent = replyUsageByTurn(db, rows.filter((row) => row.role === 'assistant').map((row) => row.turnId));
  const messages: TranscriptMessage[] = rows.map((row) => {
    const attached = attachments.get(row.id) ?? [];
    const base = {
      id: row.id,
      turn_id: row.turnId,
      // A summary follows nothing; it stands where it was written.
      parent_id: row.kind === 'summary' ? null : nearestExported(rowsById, exportedIds, row.parentId),
      role: row.role,
      kind: row.kind,
      text: row.text,
      created_at: row.createdAt,
      // Among chosen turns, a summary whose covered rows were left out covers nothing in this file (an import
      // refuses a `covers_through_id` that names no message before the summary).
      ...(row.kind === 'summary' && row.coversThroughId !== null && exportedIds.has(row.coversThroughId) ? { covers_through_id: row.coversThroughId } : {}),
      ...(attached.length > 0 ? { attachments: attached.map(transcriptAttachmentOf) } : {}),
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
      ...(spent.has(row.turnId) ? { usage: transcriptUsageOf(spent.get(row.turnId)!) } : {}),
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
    conversation: {
      id: conversation.id,
      title: conversation.title,
      created_at: conversation.createdAt,
      current_leaf_id: nearestExported(rowsById, exportedIds, currentLeafId(db, conversationId)),
    },
    messages,
  };
}

/** A reply's summed requests as the transcript writes them. */
function transcriptUsageOf(totals: UsageTotals): TranscriptUsage {
  return {
    requests: totals.requests,
    input_tokens: totals.inputTokens,
    cache_read_tokens: totals.cacheReadTokens,
    cache_write_tokens: totals.cacheWriteTokens,
    output_tokens: totals.outputTokens,
    reasoning_tokens: totals.reasoningTokens,
    cost_usd: totals.costUsd,
  };
}

/** An attachment as the transcript names it: what it is and the hash it is kept under, never where. */
function transcriptAttachmentOf(attachment: AttachmentView): TranscriptAttachment {
  return { name: attachment.name, media_type: attachment.mediaType, size: attachment.size, sha256: attachment.sha256 };
}

/**
 * The transcript with each attachment's bytes in base64, read from the data folder once per file. A file missing
 * from the folder stays a reference, as when its bytes are not asked for.
 */
export function embedAttachments(transcript: TranscriptV1, dataDir: string): TranscriptV1 {
  const read = new Map<string, string | null>();
  const bytesOf = (sha256: string): string | null => {
    if (!read.has(sha256)) {
      let data: string | null;
      try {
        data = readAttachmentFile(dataDir, sha256).toString('base64');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        data = null;
      }
      read.set(sha256, data);
    }
    return read.get(sha256)!;
  };
  return {
    ...transcript,
    messages: transcript.messages.map((message) => {
      if (message.attachments === undefined) return message;
      return {
        ...message,
        attachments: message.attachments.map((attachment) => {
          const data = bytesOf(attachment.sha256);
          return data === null ? attachment : { ...attachment, data_base64: data };
        }),
      };
    }),
  };
}

/**
 * One conversation in one format. The attachments' bytes come from `dataDir` when `includeAttachments` asks for them
 * (the default for Markdown and HTML, not for JSON); without a data folder every attachment stays a reference.
 * `filename` names the file the export is written as, which a Markdown export's attachment links are relative to.
 */
export function exportConversation(
  db: AppDatabase,
  conversationId: string,
  format: ExportFormat,
  options: ExportOptions = {},
  dataDir?: string,
  filename?: string,
): ExportResult {
  const branches = format === 'json' ? 'all' : (options.branches ?? 'live');
  const built = buildTranscript(db, conversationId, options.turnIds, branches);
  const embed = dataDir !== undefined && (options.includeAttachments ?? format !== 'json');
  const transcript = embed ? embedAttachments(built, dataDir) : built;
  const projection = { includeTools: options.includeTools ?? true, includeReasoning: options.includeReasoning ?? false, branches };
  const name = filename ?? conversationFileName(transcript.conversation.title, format);
  switch (format) {
    case 'json':
      return { filename: name, mimeType: 'application/json', content: `${JSON.stringify(transcript, null, 2)}\n` };
    case 'md': {
      const placement = attachmentPlacement(transcript, name);
      const files = attachmentFiles(transcript, placement);
      const content = markdownOf(transcript, { ...projection, attachmentPlacement: placement });
      return { filename: name, mimeType: 'text/markdown', content, ...(files.length > 0 ? { files } : {}) };
    }
    case 'html':
      return { filename: name, mimeType: 'text/html', content: htmlOf(transcript, projection) };
    default: {
      const unreachable: never = format;
      throw new Error(`Unknown export format ${String(unreachable)}`);
    }
  }
}
