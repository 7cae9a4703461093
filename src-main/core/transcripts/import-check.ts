/**
 * Checking an import whole before anything is written: a transcript v1 document against its schema and what the schema
 * cannot say. Pure (no database), so it can run off the main thread.
 */
import type { ZodError } from 'zod';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../../../src-shared/attachments';
import { TRANSCRIPT_FORMAT, transcriptSchema, type TranscriptAttachment, type TranscriptV1 } from '../../../src-shared/transcript';
import { sha256Of } from '../attachments/attachment-files';
import { objectBombRefusal } from './json-shape';
import { sniffAttachment, type SniffedAttachment } from '../attachments/sniff';
import { formatIssuePath } from './issue-path';
import { nestedDeeperThan, TOO_DEEP_PROBLEM } from './json-depth';
import { isTreeIssue, transcriptTree, type TranscriptTree } from './transcript-tree';

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
  const tooMany = objectBombRefusal(text, 'The file');
  if (tooMany !== null) throw new TranscriptImportError(tooMany);
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
 * message follows one before it, the leaf is one of its messages, each embedded attachment is the file it claims).
 */
export function validateTranscript(raw: unknown): TranscriptV1 {
  if (typeof raw === 'object' && raw !== null && (raw as { format?: unknown }).format !== TRANSCRIPT_FORMAT) {
    throw new TranscriptImportError(`The file is not an Anybrain transcript (format is not "${TRANSCRIPT_FORMAT}"). Nothing was imported.`);
  }
  const parsed = transcriptSchema.safeParse(raw);
  if (!parsed.success) throw new TranscriptImportError(describeFirstIssue(parsed.error));
  checkNesting(parsed.data);
  checkSummaries(parsed.data);
  treeOf(parsed.data);
  checkAttachments(parsed.data);
  return parsed.data;
}

/** An embedded attachment's bytes, and what they are. */
export interface CheckedAttachment {
  readonly bytes: Buffer;
  readonly sniffed: SniffedAttachment;
}

/**
 * Each attachment checked when its file was validated, so writing it decodes and hashes it no second time; held only
 * as long as the parsed transcript is.
 */
const checkedAttachments = new WeakMap<TranscriptAttachment, CheckedAttachment>();

function attachmentRefusal(path: string, problem: string): TranscriptImportError {
  return new TranscriptImportError(`The file is not a valid Anybrain transcript: ${path}: ${problem} Nothing was imported.`);
}

/**
 * An embedded attachment's bytes, checked as a file attached in the window is (sniffed from the bytes: not empty, a
 * kind Anybrain takes, under its size limit, an image whose header reads) and against what the transcript says of
 * them: canonical base64, the size, the SHA-256 and the media type. A mismatch means a damaged or edited file.
 */
export function checkAttachment(attachment: TranscriptAttachment & { data_base64: string }, path: string): CheckedAttachment {
  const known = checkedAttachments.get(attachment);
  if (known !== undefined) return known;
  const data = attachment.data_base64;
  const bytes = Buffer.from(data, 'base64');
  // Node decodes leniently (it stops at bad padding and skips what it cannot read): only a round trip is exact.
  if (bytes.toString('base64') !== data) throw attachmentRefusal(`${path}.data_base64`, 'is not base64 (its length or padding is wrong).');
  const checked = sniffAttachment(attachment.name, bytes);
  if (!checked.ok) throw attachmentRefusal(path, checked.refusal.message);
  if (bytes.length !== attachment.size) throw attachmentRefusal(`${path}.size`, `is ${attachment.size}, but data_base64 holds ${bytes.length} bytes: the file is damaged.`);
  const digest = sha256Of(bytes);
  if (digest !== attachment.sha256) {
    throw attachmentRefusal(`${path}.sha256`, `does not match the bytes in data_base64 (their SHA-256 is ${digest}): the file is damaged.`);
  }
  if (checked.attachment.mediaType !== attachment.media_type) {
    throw attachmentRefusal(`${path}.media_type`, `is ${attachment.media_type}, but the bytes are ${checked.attachment.mediaType}.`);
  }
  const result = { bytes, sniffed: checked.attachment };
  checkedAttachments.set(attachment, result);
  return result;
}

export function hasBytes(attachment: TranscriptAttachment): attachment is TranscriptAttachment & { data_base64: string } {
  return attachment.data_base64 !== undefined;
}

/** Every attachment of the file: at most as many per message as the window sends, each embedded one checked whole. */
function checkAttachments(transcript: TranscriptV1): void {
  transcript.messages.forEach((message, index) => {
    const attachments = message.attachments ?? [];
    if (attachments.length > MAX_ATTACHMENTS_PER_MESSAGE) {
      throw attachmentRefusal(`messages[${index}].attachments`, `holds ${attachments.length} attachments; a message carries at most ${MAX_ATTACHMENTS_PER_MESSAGE}.`);
    }
    attachments.forEach((attachment, position) => {
      if (hasBytes(attachment)) checkAttachment(attachment, `messages[${index}].attachments[${position}]`);
    });
  });
}

/** The file's tree, or a refusal naming the first `parent_id` or `current_leaf_id` that names what it may not. */
export function treeOf(transcript: TranscriptV1): TranscriptTree {
  const tree = transcriptTree(transcript);
  if (isTreeIssue(tree)) throw new TranscriptImportError(`The file is not a valid Anybrain transcript: ${tree.path}: ${tree.problem}. Nothing was imported.`);
  return tree;
}

/** The values kept as JSON (a call's input, opaque facts) no deeper than every later reading of them can walk. */
function checkNesting(transcript: TranscriptV1): void {
  transcript.messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const values: Array<readonly [string, unknown]> = [[`${where}.reasoning.opaque`, message.reasoning?.opaque]];
    (message.tool_invocations ?? []).forEach((invocation, position) => {
      values.push([`${where}.tool_invocations[${position}].input`, invocation.input], [`${where}.tool_invocations[${position}].opaque`, invocation.opaque]);
    });
    for (const [path, value] of values) {
      if (nestedDeeperThan(value)) throw new TranscriptImportError(`The file is not a valid Anybrain transcript: ${path}: ${TOO_DEEP_PROBLEM}. Nothing was imported.`);
    }
  });
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
