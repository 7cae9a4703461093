/**
 * Claude's data export (claude.ai → Settings → Export data → `conversations.json`) as transcript v1 documents: one per
 * conversation, the branch the user last saw, reasoning as reasoning and tool work as invocations, never as words.
 *
 * The file is a list of conversations, each with its `chat_messages`. A message's `content` items are `text`,
 * `thinking`, `tool_use` and `tool_result` (older exports have only the message's `text`); messages may name their
 * `parent_message_uuid` (a root names a sentinel uuid that is no message), and the conversation its
 * `current_leaf_message_uuid`. A file that is not such a list is refused naming its first bad path; an entry that
 * cannot be read, or holds no messages, is left out with the reason.
 */
import { z, type ZodType } from 'zod';
import {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptInvocation,
  type TranscriptMessage,
  type TranscriptV1,
} from '../../../../src-shared/transcript';
import { titleFromMessage } from '../../store/titles';
import { formatIssuePath } from '../issue-path';
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_PROBLEM } from '../json-depth';
import { IdPlaces } from '../unique-ids';
import { ForeignImportError, RECOGNISED_BY_FIRST, type ForeignImport } from './types';
import { formatCount } from '../../../../src-shared/format-count';
import { boundedTitle } from '../../../../src-shared/title-limit';

/**
 * An attachment's extracted text up to this length goes into the user's words, since the model read it as part of the
 * message (large pastes arrive this way, as a file without a name); longer text is left out behind a note saying how
 * long it was, so one pasted log cannot swamp a conversation.
 */
export const ATTACHED_TEXT_LIMIT = 20_000;

// Lenient schemas of the export: the fields read here are checked, every other field is ignored.
const contentItemSchema = z.object({ type: z.string() }).passthrough();
const attachmentSchema = z
  .object({ file_name: z.string().nullable().optional(), extracted_content: z.string().nullable().optional() })
  .passthrough();
const fileSchema = z.object({ file_name: z.string().nullable().optional(), file_uuid: z.string().nullable().optional() }).passthrough();
const messageSchema = z
  .object({
    uuid: z.string().min(1),
    sender: z.string(),
    text: z.string().nullable().optional(),
    content: z.array(contentItemSchema).nullable().optional(),
    created_at: z.string().nullable().optional(),
    parent_message_uuid: z.string().nullable().optional(),
    attachments: z.array(attachmentSchema).nullable().optional(),
    files: z.array(fileSchema).nullable().optional(),
    files_v2: z.array(fileSchema).nullable().optional(),
  })
  .passthrough();
const conversationSchema = z
  .object({
    uuid: z.string().min(1),
    name: z.string().nullable().optional(),
    created_at: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
    current_leaf_message_uuid: z.string().nullable().optional(),
    chat_messages: z.array(messageSchema),
  })
  .passthrough();

const toolResultPartSchema = z.object({ type: z.string(), text: z.string().optional(), title: z.string().optional(), url: z.string().optional() }).passthrough();
const knownItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('thinking'), thinking: z.string() }).passthrough(),
  z.object({ type: z.literal('tool_use'), id: z.string().nullable().optional(), name: z.string().min(1), input: z.unknown().optional() }).passthrough(),
  z
    .object({
      type: z.literal('tool_result'),
      tool_use_id: z.string().nullable().optional(),
      name: z.string().nullable().optional(),
      content: z.union([z.string(), z.array(toolResultPartSchema)]).nullable().optional(),
      is_error: z.boolean().nullable().optional(),
    })
    .passthrough(),
]);
const UNTITLED = 'Untitled conversation';
const KNOWN_ITEM_TYPES: ReadonlySet<string> = new Set(['text', 'thinking', 'tool_use', 'tool_result']);

type ClaudeConversation = z.infer<typeof conversationSchema>;
type ClaudeMessage = z.infer<typeof messageSchema>;
type ClaudeContentItem = z.infer<typeof knownItemSchema>;
type ClaudeToolResult = Extract<ClaudeContentItem, { type: 'tool_result' }>;

/** One entry cannot be read: the message is its first bad path and what is wrong there. */
class UnreadableEntry extends Error {}

function parseAt<Output>(schema: ZodType<Output>, value: unknown, path: string): Output {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue ? `${path}${issue.path.length > 0 && typeof issue.path[0] !== 'number' ? '.' : ''}${formatIssuePath(issue.path)}` : path;
  throw new UnreadableEntry(`${where}: ${issue?.message ?? 'unreadable'}`);
}

/** Whether `document` claims to be a Claude data export: a list in which some entry has its `chat_messages`. */
export function isClaudeExport(document: unknown): boolean {
  return Array.isArray(document) && document.slice(0, RECOGNISED_BY_FIRST).some((entry) => conversationClaim.safeParse(entry).success);
}

/** Reads a Claude data export; throws `ForeignImportError` when the document is not one. */
export function claudeExportToTranscripts(document: unknown): ForeignImport {
  assertClaudeExport(document);
  const transcripts: TranscriptV1[] = [];
  const skipped: { title: string; reason: string }[] = [];
  const conversationIds = new IdPlaces();
  document.forEach((entry, index) => {
    const where = `conversations[${index}]`;
    try {
      const conversation = parseAt(conversationSchema, entry, where);
      refuseIfRepeated(conversationIds, conversation.uuid, `${where}.uuid`);
      const transcript = conversationToTranscript(conversation, where);
      if (transcript === null) skipped.push({ title: entryTitle(entry), reason: `${where}: no messages` });
      else transcripts.push(transcript);
    } catch (error) {
      if (!(error instanceof UnreadableEntry)) throw error;
      skipped.push({ title: entryTitle(entry), reason: error.message });
    }
  });
  return { transcripts, skipped };
}

/**
 * A fault that leaves no conversation of the file to trust (an id used twice, a value too deep to read safely): the
 * whole file is refused, where an entry that merely cannot be read is left out.
 */
function refusal(where: string, problem: string): ForeignImportError {
  return new ForeignImportError(`The file is not a readable Claude export: ${where}: ${problem}. Nothing was imported.`);
}

/** Messages follow one another by uuid: one used twice would drop a message from the branch, so the file is refused. */
function refuseIfRepeated(places: IdPlaces, id: string, path: string): void {
  const problem = places.claim(id, path);
  if (problem !== null) throw refusal(path, problem);
}

const conversationClaim = z.object({ chat_messages: z.array(z.unknown()) });

/** A list in which at least one entry has its `chat_messages`; an empty list is an export with nothing in it. */
function assertClaudeExport(document: unknown): asserts document is unknown[] {
  try {
    const entries = parseAt(z.array(z.unknown()), document, 'conversations');
    if (entries.length > 0 && !isClaudeExport(entries)) parseAt(conversationClaim, entries[0], 'conversations[0]');
  } catch (error) {
    if (error instanceof UnreadableEntry) throw new ForeignImportError(`The file is not a Claude data export: ${error.message}.`);
    throw error;
  }
}

/** A left-out entry's name as claude.ai showed it; the reason names where it is in the file. */
function entryTitle(entry: unknown): string {
  const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? boundedTitle(name) : UNTITLED;
}

function conversationToTranscript(conversation: ClaudeConversation, where: string): TranscriptV1 | null {
  const model = conversation.model ?? null;
  const messageIds = new IdPlaces();
  conversation.chat_messages.forEach((message, index) => refuseIfRepeated(messageIds, message.uuid, `${where}.chat_messages[${index}].uuid`));
  const messages: TranscriptMessage[] = [];
  let turnId: string | null = null;
  for (const index of branchLastSeen(conversation)) {
    const message = conversation.chat_messages[index]!;
    const items = contentItems(message, `${where}.chat_messages[${index}]`);
    // Only the two speakers' messages are the conversation; anything else the app kept is context, not words.
    if (message.sender === 'human') {
      turnId = `turn-${message.uuid}`;
      messages.push({ id: message.uuid, turn_id: turnId, role: 'user', kind: 'chat', text: userText(message, items), ...createdAt(message) });
    } else if (message.sender === 'assistant') {
      messages.push(assistantMessage(message, items, turnId ?? `turn-${message.uuid}`, model));
    }
  }
  if (messages.length === 0) return null;
  const createdAtOfConversation = isoTime(conversation.created_at) ?? messages.find((message) => message.created_at !== undefined)?.created_at;
  if (createdAtOfConversation === undefined) throw new UnreadableEntry(`${where}.created_at: missing, and no message has a time`);
  const firstUser = messages.find((message) => message.role === 'user') ?? messages[0];
  const title = conversation.name && conversation.name.trim() !== '' ? conversation.name : titleFromMessage(firstUser?.text ?? '');
  return {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    conversation: { id: conversation.uuid, title, created_at: createdAtOfConversation },
    messages,
  };
}

/**
 * Where in `chat_messages` the branch the user last saw lies, root first: from the conversation's current leaf (else
 * the last message in the file) up through `parent_message_uuid`. Messages that name no parents are one branch already.
 */
function branchLastSeen(conversation: ClaudeConversation): readonly number[] {
  const all = conversation.chat_messages;
  if (!all.some((message) => typeof message.parent_message_uuid === 'string')) return all.map((_message, index) => index);
  const indexByUuid = new Map(all.map((message, index) => [message.uuid, index]));
  const leafUuid = conversation.current_leaf_message_uuid;
  let current: number | undefined = (leafUuid ? indexByUuid.get(leafUuid) : undefined) ?? all.length - 1;
  const branch: number[] = [];
  const seen = new Set<number>();
  // A root names a parent that is no message (a sentinel uuid); a cycle in a damaged file ends the walk too.
  while (current !== undefined && current >= 0 && !seen.has(current)) {
    seen.add(current);
    branch.push(current);
    const parent: string | null | undefined = all[current]!.parent_message_uuid;
    current = parent ? indexByUuid.get(parent) : undefined;
  }
  return branch.reverse();
}

/** The message's known content items, each checked; items of other kinds are the export's own context and left out. */
function contentItems(message: ClaudeMessage, path: string): ClaudeContentItem[] {
  return (message.content ?? []).flatMap((item, index) => {
    if (!KNOWN_ITEM_TYPES.has(item.type)) return [];
    const known = parseAt(knownItemSchema, item, `${path}.content[${index}]`);
    if (known.type === 'tool_use' && nestedDeeperThan(known.input, MAX_JSON_DEPTH)) throw refusal(`${path}.content[${index}].input`, TOO_DEEP_PROBLEM);
    return [known];
  });
}

/**
 * A time in the app's own form (`toISOString`, milliseconds, UTC), as the app writes its rows; the export writes
 * microseconds. A time that is no time is left out, and the importer stamps the row when it is written.
 */
function isoTime(value: string | null | undefined): string | undefined {
  const milliseconds = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(milliseconds) ? undefined : new Date(milliseconds).toISOString();
}

function createdAt(message: ClaudeMessage): { created_at?: string } {
  const time = isoTime(message.created_at);
  return time === undefined ? {} : { created_at: time };
}

/**
 * The words of the text items. Adjacent text items are one passage (a cited span arrives as its own item) and join
 * directly; text on either side of thinking or a tool call is a separate paragraph. Without text items, the message's
 * `text` field holds the words (older exports have no `content`).
 */
function wordsOf(message: ClaudeMessage, items: readonly ClaudeContentItem[]): string {
  if (!items.some((item) => item.type === 'text')) return message.text ?? '';
  // Pieces joined once at the end, and only the words' last two characters kept to look at: a message of many items
  // never copies the words so far once per item.
  const pieces: string[] = [];
  let ending = '';
  let paragraphBreak = false;
  const append = (piece: string): void => {
    pieces.push(piece);
    ending = piece.length >= 2 ? piece.slice(-2) : (ending + piece).slice(-2);
  };
  for (const item of items) {
    if (item.type !== 'text') {
      paragraphBreak = ending !== '';
      continue;
    }
    if (paragraphBreak) append(ending === '\n\n' ? '' : ending.endsWith('\n') ? '\n' : '\n\n');
    append(item.text);
    paragraphBreak = false;
  }
  return pieces.join('');
}

function userText(message: ClaudeMessage, items: readonly ClaudeContentItem[]): string {
  return [wordsOf(message, items), ...attachmentNotes(message)].filter((part) => part !== '').join('\n\n');
}

/** A backtick fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * What the user attached, as a visible note: an attachment's extracted text (what the model read) within the limit,
 * else its length; a file the export names but does not hold (an image, a PDF) by its name only.
 */
function attachmentNotes(message: ClaudeMessage): string[] {
  const notes = (message.attachments ?? []).map((attachment) => {
    const name = attachment.file_name?.trim() ? attachment.file_name : 'pasted text';
    const extracted = attachment.extracted_content ?? '';
    if (extracted === '') return `[attached: ${name}, not included in the export]`;
    if (extracted.length > ATTACHED_TEXT_LIMIT) {
      return `[attached: ${name}, ${formatCount(extracted.length)} characters of extracted text, not included here]`;
    }
    const fence = fenceFor(extracted);
    return `[attached: ${name}, its extracted text follows]\n${fence}\n${extracted}${extracted.endsWith('\n') ? '' : '\n'}${fence}`;
  });
  // `files_v2` repeats `files` in a newer shape: a file is named once.
  const named = new Set<string>();
  for (const file of [...(message.files ?? []), ...(message.files_v2 ?? [])]) {
    const name = file.file_name?.trim() ? file.file_name : 'a file';
    const key = file.file_uuid ?? name;
    if (named.has(key)) continue;
    named.add(key);
    notes.push(`[attached: ${name}, not included in the export]`);
  }
  return notes;
}

/** A tool result's text: its text parts, or a reference's title and address. */
function toolOutput(result: ClaudeToolResult): string | null {
  const content = result.content;
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text ?? [part.title, part.url].filter((line) => line !== undefined).join('\n'))
    .filter((text) => text !== '')
    .join('\n');
}

interface CallDraft {
  readonly providerCallId: string | null;
  readonly tool: string;
  readonly input: unknown;
  output: string | null;
  status: TranscriptInvocation['status'];
  answered: boolean;
}

/** A call's input as the transcript keeps it: an object as given, anything else under `input`. */
function callInput(input: unknown): unknown {
  if (input === undefined) return {};
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { input };
}

/** Calls in the order they were made, each key's earliest still unanswered at `next` (the ones before it are answered). */
type WaitingCalls = Map<string, { readonly calls: CallDraft[]; next: number }>;

/** One reply's calls, and those still waiting for a result by call id and by tool name, so pairing never rescans. */
interface ReplyCalls {
  readonly all: CallDraft[];
  readonly byId: WaitingCalls;
  readonly byTool: WaitingCalls;
}

function addWaiting(waiting: WaitingCalls, key: string, call: CallDraft): void {
  const queue = waiting.get(key);
  if (queue === undefined) waiting.set(key, { calls: [call], next: 0 });
  else queue.calls.push(call);
}

function earliestWaiting(waiting: WaitingCalls, key: string | null | undefined): CallDraft | undefined {
  const queue = key === null || key === undefined ? undefined : waiting.get(key);
  if (queue === undefined) return undefined;
  while (queue.next < queue.calls.length && queue.calls[queue.next]!.answered) queue.next += 1;
  return queue.calls[queue.next];
}

function addCall(calls: ReplyCalls, call: CallDraft): void {
  calls.all.push(call);
  if (call.providerCallId !== null) addWaiting(calls.byId, call.providerCallId, call);
  addWaiting(calls.byTool, call.tool, call);
}

/**
 * Pairs each result with its call by `tool_use_id`, or (where the export gives no ids) with the earliest unanswered
 * call of the same name. A call the export holds no result for did not finish; a result without its call is kept
 * with an empty input.
 */
function answerCall(calls: ReplyCalls, result: ClaudeToolResult): void {
  const callId = result.tool_use_id ?? null;
  const call = callId !== null ? earliestWaiting(calls.byId, callId) : earliestWaiting(calls.byTool, result.name);
  const status = result.is_error === true ? 'error' : 'ok';
  if (call === undefined) {
    calls.all.push({ providerCallId: callId, tool: result.name?.trim() ? result.name : 'unknown', input: {}, output: toolOutput(result), status, answered: true });
    return;
  }
  call.output = toolOutput(result);
  call.status = status;
  call.answered = true;
}

function assistantMessage(message: ClaudeMessage, items: readonly ClaudeContentItem[], turnId: string, model: string | null): TranscriptMessage {
  const thoughts: string[] = [];
  const calls: ReplyCalls = { all: [], byId: new Map(), byTool: new Map() };
  for (const item of items) {
    switch (item.type) {
      case 'text':
        break;
      case 'thinking':
        thoughts.push(item.thinking);
        break;
      case 'tool_use':
        addCall(calls, { providerCallId: item.id ?? null, tool: item.name, input: callInput(item.input), output: null, status: 'cancelled', answered: false });
        break;
      case 'tool_result':
        answerCall(calls, item);
        break;
      default: {
        const unexpected: never = item;
        throw new Error(`Unhandled content item ${JSON.stringify(unexpected)}`);
      }
    }
  }
  const text = wordsOf(message, items);
  // DESIGN rule 4: an empty reply is a failure, never a finished turn.
  const empty = text.trim() === '' && calls.all.length === 0;
  return {
    id: message.uuid,
    turn_id: turnId,
    role: 'assistant',
    kind: 'chat',
    text,
    ...createdAt(message),
    status: empty ? 'failed' : 'complete',
    brain: 'claude',
    model_requested: null,
    model_responded: model,
    reasoning_level: null,
    // The export keeps the thinking's words but no signature, so it is read, never replayed as Claude's own thinking.
    ...(thoughts.length > 0 ? { reasoning: { brain: 'claude', model: model ?? '', text: thoughts.join('\n\n'), opaque: null } } : {}),
    tool_invocations: calls.all.map((call, position) => ({
      id: `${message.uuid}:call:${position}`,
      kind: 'tool',
      server: null,
      tool: call.tool,
      provider_call_id: call.providerCallId,
      input: call.input,
      output: call.output,
      status: call.status,
    })),
    ...(empty ? { error: { code: 'empty-reply', message: 'This reply is empty in the Claude export.', retryable: true } } : {}),
  };
}
