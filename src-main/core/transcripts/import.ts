/**
 * Transcript v1 import: every text kept exactly as the file has it, new ids throughout (so a file imported twice is
 * two conversations), all or nothing. A malformed file is refused whole, naming its first bad path.
 */
import type { ZodError } from 'zod';
import type { TurnError } from '../../../src-shared/api';
import type { ToolImage } from '../../../src-shared/tool-images';
import { TRANSCRIPT_FORMAT, transcriptSchema, type TranscriptError, type TranscriptInvocation, type TranscriptV1 } from '../../../src-shared/transcript';
import { newId, nowIso } from '../store/clock';
import { insertConversation } from '../store/conversations';
import { estimateRowTokens } from '../context/row-estimate';
import { insertInvocation } from '../store/invocations';
import { foldIntoSummary } from '../store/compaction';
import { moveLeaf } from '../store/branches';
import { insertMessage, type StoredReasoning } from '../store/messages';
import { inTransaction, type AppDatabase } from '../store/open';
import { isBrainId, REASONING_LEVELS, type ReasoningLevel } from '../../../src-shared/brains';
import { formatIssuePath } from './issue-path';
import { isTreeIssue, transcriptTree, type TranscriptTree } from './transcript-tree';

export { formatIssuePath };

export class TranscriptImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptImportError';
  }
}


function describeFirstIssue(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The file is not a valid transcript.';
  const where = formatIssuePath(issue.path) || 'the top level';
  return `The file is not a valid Anybrain transcript: ${where}: ${issue.message}. Nothing was imported.`;
}

export function parseTranscript(text: string): TranscriptV1 {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TranscriptImportError(`The file is not JSON (${error instanceof Error ? error.message : String(error)}). Nothing was imported.`);
  }
  return validateTranscript(raw);
}

/**
 * Checks one parsed document whole: the schema, then what the schema cannot say (summaries cover earlier rows, a
 * message follows one before it, the leaf is one of its messages).
 */
export function validateTranscript(raw: unknown): TranscriptV1 {
  if (typeof raw === 'object' && raw !== null && (raw as { format?: unknown }).format !== TRANSCRIPT_FORMAT) {
    throw new TranscriptImportError(`The file is not an Anybrain transcript (format is not "${TRANSCRIPT_FORMAT}"). Nothing was imported.`);
  }
  const parsed = transcriptSchema.safeParse(raw);
  if (!parsed.success) throw new TranscriptImportError(describeFirstIssue(parsed.error));
  checkSummaries(parsed.data);
  treeOf(parsed.data);
  return parsed.data;
}

/** The file's tree, or a refusal naming the first `parent_id` or `current_leaf_id` that names what it may not. */
function treeOf(transcript: TranscriptV1): TranscriptTree {
  const tree = transcriptTree(transcript);
  if (isTreeIssue(tree)) throw new TranscriptImportError(`The file is not a valid Anybrain transcript: ${tree.path}: ${tree.problem}. Nothing was imported.`);
  return tree;
}

/** A summary covers messages before it: its `covers_through_id` names one of them. */
function checkSummaries(transcript: TranscriptV1): void {
  const seen = new Set<string>();
  transcript.messages.forEach((message, index) => {
    const through = message.covers_through_id;
    if (through !== undefined && through !== null && (message.kind !== 'summary' || !seen.has(through))) {
      const problem = message.kind !== 'summary' ? 'only a summary covers messages' : 'it names no message before this summary';
      throw new TranscriptImportError(`The file is not a valid Anybrain transcript: messages[${index}].covers_through_id: ${problem}. Nothing was imported.`);
    }
    seen.add(message.id);
  });
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
export function importTranscript(db: AppDatabase, text: string): string {
  return writeTranscripts(db, [parseTranscript(text)])[0]!;
}

/**
 * Writes validated transcripts as new conversations, all in one transaction: a failure anywhere leaves none of them.
 * Returns the new conversation ids in the order given.
 */
export function writeTranscripts(db: AppDatabase, transcripts: readonly TranscriptV1[]): string[] {
  const now = nowIso();
  return inTransaction(db, () => transcripts.map((transcript) => writeTranscript(db, transcript, now)));
}

/** One conversation's rows; runs inside the caller's transaction. */
function writeTranscript(db: AppDatabase, transcript: TranscriptV1, now: string): string {
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
  transcript.messages.forEach((message, seq) => {
    let turnId = turnIds.get(message.turn_id);
    if (turnId === undefined) {
      turnId = newId();
      turnIds.set(message.turn_id, turnId);
    }
    const messageId = newId();
    newIds.set(message.id, messageId);
    positions.push(messageId);
    if (message.kind === 'summary') summaryIds.add(messageId);
    const parent = tree.parents[seq] ?? null;
    const coversThroughId = message.kind === 'summary' && message.covers_through_id ? (newIds.get(message.covers_through_id) ?? null) : null;
    if (coversThroughId !== null) summaries.push({ id: messageId, seq, coversThroughId });
    const reasoning = message.reasoning && isBrainId(message.reasoning.brain) ? (message.reasoning as StoredReasoning) : null;
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
      tokenEstimate: estimateRowTokens(
        message.text,
        (message.tool_invocations ?? []).map((invocation) => ({
          kind: invocation.kind,
          providerCallId: invocation.provider_call_id ?? null,
          input: invocation.input ?? {},
          output: invocation.output ?? null,
          images: importedImages(invocation),
        })),
      ),
      coversThroughId,
      // The whole tree first, in file order (a parent always comes before the messages that follow it); the leaf once.
      parentId: parent === null ? null : positions[parent]!,
      becomesLeaf: false,
      createdAt: message.created_at ?? now,
    });
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
