/**
 * Transcript v1 import: every text kept exactly as the file has it, new ids throughout (so a file imported twice is
 * two conversations), all or nothing. A malformed file is refused whole, naming its first bad path.
 */
import { existsSync } from 'node:fs';
import type { TurnError } from '../../../src-shared/api';
import type { ToolImage } from '../../../src-shared/tool-images';
import type { TranscriptAttachment, TranscriptError, TranscriptInvocation, TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import { attachmentFilePath, removeAttachmentFiles, sha256Of, writeAttachmentFile } from '../attachments/attachment-files';
import { insertAttachment, unusedAttachmentFiles } from '../store/attachments';
import { newId, nowIso } from '../store/clock';
import { insertConversation } from '../store/conversations';
import { attachmentTokenCeiling } from '../context/attachment-tokens';
import { estimateRowTokens } from '../context/row-estimate';
import { insertInvocation } from '../store/invocations';
import { foldIntoSummary } from '../store/compaction';
import { moveLeaf } from '../store/branches';
import { insertMessage, type StoredReasoning } from '../store/messages';
import { inTransaction, type AppDatabase } from '../store/open';
import { isBrainId, REASONING_LEVELS, type ReasoningLevel } from '../../../src-shared/brains';
import { attachmentFacts } from './export-attachments';
import { checkAttachment, hasBytes, parseTranscript, treeOf, type CheckedAttachment } from './import-check';
import { formatIssuePath } from './issue-path';

export { formatIssuePath };
export { parseTranscript, TranscriptImportError, validateTranscript } from './import-check';

/** The note an import writes before a message whose attachments the file names without their bytes. */
export function missingAttachmentsNote(attachments: readonly TranscriptAttachment[]): string {
  const named = attachments.map((attachment) => `${attachment.name} (${attachmentFacts(attachment)})`);
  const files = named.length === 1 ? `The next message had an attachment, ${named[0]}` : `The next message had ${named.length} attachments: ${named.join(', ')}`;
  return `${files}; the imported transcript did not include ${named.length === 1 ? 'it' : 'them'}.`;
}

function reasoningLevelOf(value: string | null | undefined): ReasoningLevel | null {
  return value && (REASONING_LEVELS as readonly string[]).includes(value) ? (value as ReasoningLevel) : null;
}

/** A reply's error as the app keeps it: the known fields only, an optional one only where the file gives it. */
function turnErrorOf(error: TranscriptError): TurnError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retry_after_seconds === undefined ? {} : { retryAfterSeconds: error.retry_after_seconds }),
    ...(error.limit_tokens === undefined ? {} : { limitTokens: error.limit_tokens }),
    ...(error.request_tokens === undefined ? {} : { requestTokens: error.request_tokens }),
  };
}

/** An invocation's images as stored (null when it held none). */
function importedImages(invocation: TranscriptInvocation): ToolImage[] | null {
  const images = invocation.images ?? [];
  return images.length > 0 ? images.map((image) => ({ mimeType: image.mime_type, data: image.data })) : null;
}

/** Imports one transcript in a single transaction; returns the new conversation id. */
export function importTranscript(db: AppDatabase, text: string, dataDir?: string): string {
  return writeTranscripts(db, [parseTranscript(text)], dataDir)[0]!;
}

/** What the embedded attachments of validated transcripts are: checked then, or now for a transcript built in code. */
type CheckedAttachments = ReadonlyMap<TranscriptAttachment, CheckedAttachment>;

function checkedAttachmentsOf(transcripts: readonly TranscriptV1[]): CheckedAttachments {
  const checked = new Map<TranscriptAttachment, CheckedAttachment>();
  for (const transcript of transcripts) {
    transcript.messages.forEach((message, index) => {
      (message.attachments ?? []).forEach((attachment, position) => {
        if (hasBytes(attachment)) checked.set(attachment, checkAttachment(attachment, `messages[${index}].attachments[${position}]`));
      });
    });
  }
  return checked;
}

/**
 * Writes validated transcripts as new conversations, all in one transaction: a failure anywhere leaves none of them.
 * Embedded attachments' files go into `dataDir` first (content-addressed, so a file already there is the same file),
 * and their rows in the transaction with the messages; a failed transaction takes away the files it wrote that no row
 * uses. Returns the new conversation ids in the order given.
 */
export function writeTranscripts(db: AppDatabase, transcripts: readonly TranscriptV1[], dataDir?: string): string[] {
  const now = nowIso();
  const attachments = checkedAttachmentsOf(transcripts);
  if (attachments.size > 0 && dataDir === undefined) throw new Error('Importing attachments needs the data folder to keep their files in.');
  const added = new Set<string>();
  for (const { bytes } of attachments.values()) {
    const sha256 = sha256Of(bytes);
    if (added.has(sha256) || existsSync(attachmentFilePath(dataDir!, sha256))) continue;
    writeAttachmentFile(dataDir!, bytes);
    added.add(sha256);
  }
  try {
    return inTransaction(db, () => transcripts.map((transcript) => writeTranscript(db, transcript, now, attachments)));
  } catch (error) {
    if (added.size > 0) removeAttachmentFiles(dataDir!, unusedAttachmentFiles(db, [...added]));
    throw error;
  }
}

/**
 * The note on a message whose attachments the file names without their bytes: a system notice just before the message
 * (so the reply still follows the user's message, and every brain is told a file was there). Returns the note's id,
 * which the message then follows, or null when none was needed.
 */
function writeMissingAttachmentsNote(
  db: AppDatabase,
  message: TranscriptMessage,
  row: { conversationId: string; seq: number; turnId: string; parentId: string | null; createdAt: string },
): string | null {
  const missing = (message.attachments ?? []).filter((attachment) => !hasBytes(attachment));
  if (missing.length === 0 || message.kind === 'summary') return null;
  const id = newId();
  const text = missingAttachmentsNote(missing);
  insertMessage(db, {
    id,
    conversationId: row.conversationId,
    seq: row.seq,
    turnId: row.turnId,
    role: 'system',
    kind: 'notice',
    text,
    status: 'complete',
    tokenEstimate: estimateRowTokens(text, []),
    parentId: row.parentId,
    becomesLeaf: false,
    createdAt: row.createdAt,
  });
  return id;
}

/** What a message's restored attachments add to its row's estimate: as admission counts them, the most any brain charges. */
function attachmentsTokenEstimate(message: TranscriptMessage, attachments: CheckedAttachments): number {
  return (message.attachments ?? []).reduce((sum, attachment) => {
    const checked = attachments.get(attachment);
    return checked === undefined ? sum : sum + attachmentTokenCeiling({ name: attachment.name, size: checked.bytes.length, ...checked.sniffed });
  }, 0);
}

/** One conversation's rows; runs inside the caller's transaction. */
function writeTranscript(db: AppDatabase, transcript: TranscriptV1, now: string, attachments: CheckedAttachments): string {
  const conversationId = newId();
  // The conversation keeps its own times: created when the file says, last active at its newest message.
  const createdAt = transcript.conversation.created_at ?? now;
  const updatedAt = transcript.messages.reduce((newest, message) => (message.created_at !== undefined && message.created_at > newest ? message.created_at : newest), createdAt);
  insertConversation(db, { id: conversationId, title: transcript.conversation.title, brain: null, model: null, now: createdAt, updatedAt });
  const turnIds = new Map<string, string>();
  const newIds = new Map<string, string>();
  const tree = treeOf(transcript);
  const positions: string[] = [];
  const summaryIds = new Set<string>();
  const summaries: Array<{ id: string; seq: number; coversThroughId: string }> = [];
  // A note on missing attachments takes a row of its own, so rows count apart from the file's messages.
  let seq = 0;
  transcript.messages.forEach((message, index) => {
    let turnId = turnIds.get(message.turn_id);
    if (turnId === undefined) {
      turnId = newId();
      turnIds.set(message.turn_id, turnId);
    }
    const messageId = newId();
    newIds.set(message.id, messageId);
    positions.push(messageId);
    if (message.kind === 'summary') summaryIds.add(messageId);
    const parent = tree.parents[index] ?? null;
    const coversThroughId = message.kind === 'summary' && message.covers_through_id ? (newIds.get(message.covers_through_id) ?? null) : null;
    if (coversThroughId !== null) summaries.push({ id: messageId, seq, coversThroughId });
    const reasoning = message.reasoning && isBrainId(message.reasoning.brain) ? (message.reasoning as StoredReasoning) : null;
    const messageCreatedAt = message.created_at ?? now;
    const parentId = parent === null ? null : positions[parent]!;
    const noteId = writeMissingAttachmentsNote(db, message, { conversationId, seq, turnId, parentId, createdAt: messageCreatedAt });
    if (noteId !== null) seq += 1;
    insertMessage(db, {
      id: messageId,
      conversationId,
      seq,
      turnId,
      role: message.role,
      kind: message.kind,
      text: message.text,
      // A reply still streaming in the file was cut off wherever it came from.
      status: message.status === 'streaming' ? 'interrupted' : (message.status ?? 'complete'),
      brain: isBrainId(message.brain) ? message.brain : null,
      modelRequested: message.model_requested ?? null,
      modelResponded: message.model_responded ?? null,
      reasoningLevel: reasoningLevelOf(message.reasoning_level),
      reasoning,
      error: message.error ? turnErrorOf(message.error) : null,
      tokenEstimate:
        estimateRowTokens(
          message.text,
          (message.tool_invocations ?? []).map((invocation) => ({
            kind: invocation.kind,
            providerCallId: invocation.provider_call_id ?? null,
            input: invocation.input ?? {},
            output: invocation.output ?? null,
            images: importedImages(invocation),
          })),
        ) + attachmentsTokenEstimate(message, attachments),
      coversThroughId,
      // The whole tree first, in file order (a parent always comes before the messages that follow it); the leaf once.
      parentId: noteId ?? parentId,
      becomesLeaf: false,
      createdAt: messageCreatedAt,
    });
    seq += 1;
    for (const attachment of message.attachments ?? []) {
      const checked = attachments.get(attachment);
      if (checked === undefined) continue;
      const { kind, mediaType, width, height, pages } = checked.sniffed;
      insertAttachment(db, {
        id: newId(),
        messageId,
        name: attachment.name,
        mediaType,
        kind,
        size: checked.bytes.length,
        sha256: attachment.sha256,
        width,
        height,
        pages,
        createdAt: messageCreatedAt,
      });
    }
    (message.tool_invocations ?? []).forEach((invocation, position) => {
      insertInvocation(db, {
        id: newId(),
        turnId,
        messageId,
        seq: position,
        kind: invocation.kind,
        server: invocation.server ?? null,
        tool: invocation.tool,
        providerCallId: invocation.provider_call_id ?? null,
        input: invocation.input ?? {},
        output: invocation.output ?? null,
        images: importedImages(invocation),
        status: invocation.status,
        opaque: invocation.opaque ?? null,
        startedAt: message.created_at ?? now,
        endedAt: message.created_at ?? now,
      });
    });
  });
  // Each summary folds in what it covered when it was written: the rows of the branch through its last one (the branch
  // shown then), and the summary before it, in the order they were written.
  for (const summary of summaries) {
    if (!summaryIds.has(summary.coversThroughId)) moveLeaf(db, conversationId, summary.coversThroughId);
    foldIntoSummary(db, conversationId, summary.id, summary.coversThroughId);
  }
  moveLeaf(db, conversationId, tree.leaf === null ? null : positions[tree.leaf]!);
  return conversationId;
}
