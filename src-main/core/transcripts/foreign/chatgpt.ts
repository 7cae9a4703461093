/**
 * ChatGPT's data export (`conversations.json`, alone or in the zip ChatGPT sends) → one transcript v1 document per
 * conversation. Pure: the parsed JSON in, documents out.
 *
 * OpenAI does not publish the format; this follows what the exports hold, as open-source readers of them describe it:
 * - A conversation is a tree of nodes (`mapping`: node id → `{ message, parent, children }`). Editing a message or
 *   regenerating a reply adds a sibling branch; `current_node` names the newest node of the branch the user last saw.
 *   Every branch is kept: each message names the one it follows (`parent_id`), alternatives in the order of their
 *   parent's `children`, and the message `current_node` ends in is the current leaf.
 * - One turn of the assistant is several nodes in a row: `thoughts` and `reasoning_recap` (o-series reasoning),
 *   `code` sent to a tool (`recipient: "python"`), the tool's answer (`author.role: "tool"`, `execution_output`), and
 *   the words (`text`, `multimodal_text`). They merge into one reply: reasoning as reasoning, tool work as
 *   invocations, the words as its text.
 * - The system prompt, custom instructions and memory context (`system` role, `is_visually_hidden_from_conversation`,
 *   `user_editable_context`, `model_editable_context`) were never part of what was said: they are left out.
 * - Uploaded files and images are references only (`image_asset_pointer`, `metadata.attachments`); the bytes are not
 *   in conversations.json, so each becomes a visible note in the text.
 *
 * A file without the export's shape is refused whole, naming its first bad path (`conversations[3].mapping`): the
 * export is machine-written, so a broken shape means a damaged or different file. A conversation with the shape whose
 * branch cannot be followed, or that holds nothing a person wrote or read, is skipped with its reason.
 */
import { z } from 'zod';
import type { BrainId } from '../../../../src-shared/brains';
import { TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION, type TranscriptInvocation, type TranscriptMessage, type TranscriptV1 } from '../../../../src-shared/transcript';
import { formatIssuePath, recordKeyPath } from '../issue-path';
import { IdPlaces } from '../unique-ids';
import { ForeignImportError, RECOGNISED_BY_FIRST, type ForeignImport } from './types';
import { boundedTitle } from '../../../../src-shared/title-limit';

const chatGptContentSchema = z.object({ content_type: z.string() }).passthrough();

const chatGptMessageSchema = z
  .object({
    id: z.string().optional(),
    author: z.object({ role: z.string(), name: z.string().nullable().optional() }).passthrough(),
    create_time: z.number().nullable().optional(),
    content: chatGptContentSchema,
    recipient: z.string().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .passthrough();

const chatGptNodeSchema = z
  .object({
    message: chatGptMessageSchema.nullable().optional(),
    parent: z.string().nullable().optional(),
    children: z.array(z.string()).optional(),
  })
  .passthrough();

const chatGptConversationSchema = z
  .object({
    id: z.string().optional(),
    conversation_id: z.string().optional(),
    title: z.string().nullable().optional(),
    create_time: z.number().nullable().optional(),
    mapping: z.record(z.string(), chatGptNodeSchema),
    current_node: z.string().nullable().optional(),
  })
  .passthrough();

const chatGptExportSchema = z.array(chatGptConversationSchema);

type ChatGptConversation = z.infer<typeof chatGptConversationSchema>;
type ChatGptMessage = z.infer<typeof chatGptMessageSchema>;
type ChatGptContent = z.infer<typeof chatGptContentSchema>;

/** An array of conversations, at least one of which carries a `mapping`: what only a ChatGPT export looks like. */
export function looksLikeChatGptExport(document: unknown): boolean {
  return Array.isArray(document) && document.slice(0, RECOGNISED_BY_FIRST).some((entry) => typeof entry === 'object' && entry !== null && 'mapping' in entry);
}

/** Content types that hold the context ChatGPT adds to a conversation (custom instructions, memories), never its words. */
const HIDDEN_CONTENT_TYPES: ReadonlySet<string> = new Set(['user_editable_context', 'model_editable_context']);

/** Where a message is addressed to everyone, it is words; anything else (`python`, `browser`, …) is a call to that tool. */
const TO_EVERYONE = 'all';

/** The served models of ChatGPT replies: the GPT family and the o-series reasoning models, both OpenAI's (Anybrain's codex). */
const OPENAI_MODEL = /^(gpt|o\d|chatgpt|text-davinci|codex)/i;

const NOT_INCLUDED = 'not included in the export';

export function chatGptExportToTranscripts(document: unknown): ForeignImport {
  const parsed = chatGptExportSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = `conversations${formatIssuePath(issue?.path ?? [])}`;
    throw unreadableExport(where, issue?.message ?? 'unreadable');
  }
  checkUniqueIds(parsed.data);
  const transcripts: TranscriptV1[] = [];
  const skipped: { title: string; reason: string }[] = [];
  parsed.data.forEach((conversation, index) => {
    const title = boundedTitle(conversation.title ?? `Untitled conversation ${index + 1}`);
    const converted = convertConversation(conversation, title);
    if (typeof converted === 'string') skipped.push({ title, reason: converted });
    else transcripts.push(converted);
  });
  return { transcripts, skipped };
}

function unreadableExport(where: string, problem: string): ForeignImportError {
  return new ForeignImportError(`The file is not a readable ChatGPT export: ${where}: ${problem}. Nothing was imported.`);
}

/**
 * Each conversation's id once in the file, and each message's id once in its conversation: messages follow one another
 * by id, so a repeated one would hang a branch under the wrong message.
 */
function checkUniqueIds(conversations: readonly ChatGptConversation[]): void {
  const conversationIds = new IdPlaces();
  conversations.forEach((conversation, index) => {
    const idField = conversation.conversation_id !== undefined ? 'conversation_id' : 'id';
    const conversationId = conversation.conversation_id ?? conversation.id;
    const conversationPath = `conversations[${index}].${idField}`;
    const repeatedConversation = conversationId === undefined ? null : conversationIds.claim(conversationId, conversationPath);
    if (repeatedConversation !== null) throw unreadableExport(conversationPath, repeatedConversation);
    const messageIds = new IdPlaces();
    for (const [nodeId, node] of Object.entries(conversation.mapping)) {
      const messageId = node.message?.id;
      if (messageId === undefined) continue;
      const messagePath = `conversations[${index}].mapping${recordKeyPath(nodeId)}.message.id`;
      const repeatedMessage = messageIds.claim(messageId, messagePath);
      if (repeatedMessage !== null) throw unreadableExport(messagePath, repeatedMessage);
    }
  });
}

/** Why the branch the user last saw cannot be followed up from `current_node` to its root; null when it can. */
function lastSeenBranchProblem(conversation: ChatGptConversation): string | null {
  const current = conversation.current_node;
  if (current === undefined || current === null) return 'it names no current message (current_node is missing)';
  if (!(current in conversation.mapping)) return `its current_node "${current}" is not in its mapping`;
  const visited = new Set<string>();
  let nodeId: string | null | undefined = current;
  // A parent missing from the mapping ends the walk: older exports point the root at a placeholder that is not there.
  while (nodeId !== null && nodeId !== undefined && nodeId in conversation.mapping) {
    if (visited.has(nodeId)) return `its messages' parent links loop back to "${nodeId}"`;
    visited.add(nodeId);
    nodeId = conversation.mapping[nodeId]!.parent;
  }
  return null;
}

function isoFromSeconds(seconds: number | null | undefined): string | undefined {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return undefined;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function isHidden(message: ChatGptMessage): boolean {
  const metadata = message.metadata ?? {};
  return (
    message.author.role === 'system' ||
    metadata.is_visually_hidden_from_conversation === true ||
    metadata.is_user_system_message === true ||
    HIDDEN_CONTENT_TYPES.has(message.content.content_type)
  );
}

function stringField(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

interface Attachment {
  readonly id: string | undefined;
  readonly name: string;
  readonly mimeType: string | undefined;
}

function attachmentsOf(message: ChatGptMessage): Attachment[] {
  const listed = message.metadata?.attachments;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry): Attachment[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    const id = stringField(record, 'id');
    const name = stringField(record, 'name') ?? id;
    return name === undefined ? [] : [{ id, name, mimeType: stringField(record, 'mime_type') }];
  });
}

/** `file-service://file-abc` and `sediment://file_abc` both name the file `file-abc` / `file_abc`. */
function assetFileId(pointer: string): string {
  const separator = pointer.indexOf('://');
  return separator === -1 ? pointer : pointer.slice(separator + 3);
}

function referenceNote(kind: 'image' | 'file', name: string): string {
  return `[${kind}: ${name}, ${NOT_INCLUDED}]`;
}

/**
 * A message's words and the notes for what it only references, in the order the parts come; attachments no part
 * points at follow. Strings and objects with `text` are words; `image_asset_pointer` parts are notes.
 */
function visibleText(message: ChatGptMessage): string {
  const content: ChatGptContent = message.content;
  const attachments = attachmentsOf(message);
  // The first attachment of each id, as a search from the start would find it, looked up once per part.
  const attachmentById = new Map<string, Attachment>();
  for (const attachment of attachments) {
    if (attachment.id !== undefined && !attachmentById.has(attachment.id)) attachmentById.set(attachment.id, attachment);
  }
  const noted = new Set<string>();
  const pieces: string[] = [];
  const parts = Array.isArray(content.parts) ? (content.parts as unknown[]) : [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part !== '') pieces.push(part);
      continue;
    }
    if (typeof part !== 'object' || part === null) continue;
    const record = part as Record<string, unknown>;
    const pointer = stringField(record, 'asset_pointer');
    if (record.content_type === 'image_asset_pointer' && pointer !== undefined) {
      const fileId = assetFileId(pointer);
      const attachment = attachmentById.get(fileId);
      noted.add(fileId);
      pieces.push(referenceNote('image', attachment?.name ?? fileId));
      continue;
    }
    // A voice message's transcription, and other parts carrying their words as `text`.
    const text = stringField(record, 'text');
    if (text !== undefined && text !== '') pieces.push(text);
  }
  if (parts.length === 0) {
    // `code` shown to everyone, `tether_quote` and other single-text contents.
    const text = stringField(content, 'text') ?? stringField(content, 'result');
    if (text !== undefined && text !== '') pieces.push(text);
  }
  for (const attachment of attachments) {
    if (attachment.id !== undefined && noted.has(attachment.id)) continue;
    pieces.push(referenceNote(attachment.mimeType?.startsWith('image/') ? 'image' : 'file', attachment.name));
  }
  return pieces.join('\n\n');
}

/** An o-series reasoning node's words: each thought's summary over its content. */
function reasoningText(content: ChatGptContent): string {
  if (content.content_type === 'reasoning_recap') return stringField(content, 'content') ?? '';
  const thoughts = Array.isArray(content.thoughts) ? (content.thoughts as unknown[]) : [];
  return thoughts
    .flatMap((thought) => {
      if (typeof thought !== 'object' || thought === null) return [];
      const record = thought as Record<string, unknown>;
      const text = [stringField(record, 'summary'), stringField(record, 'content')].filter((piece): piece is string => piece !== undefined && piece !== '');
      return text.length > 0 ? [text.join('\n\n')] : [];
    })
    .join('\n\n');
}

/** Code runs that ended in an exception, a timeout or a cancellation answer as errors; the others ran. */
function toolStatus(message: ChatGptMessage): TranscriptInvocation['status'] {
  if (message.content.content_type === 'system_error') return 'error';
  const result = message.metadata?.aggregate_result;
  const status = typeof result === 'object' && result !== null ? (result as Record<string, unknown>).status : undefined;
  return typeof status === 'string' && status !== 'success' ? 'error' : 'ok';
}

/** One reply being assembled from the consecutive assistant and tool nodes of a turn. */
interface ReplyDraft {
  readonly id: string;
  readonly createdAt: string | undefined;
  /** The nodes it stands for, hidden ones among them. */
  readonly nodeIds: string[];
  texts: string[];
  reasoning: string[];
  invocations: TranscriptInvocation[];
  /** The positions in `invocations` of the calls still waiting for their answer, newest last. */
  readonly waiting: number[];
  model: string | null;
  stopped: boolean;
}

function finishReply(draft: ReplyDraft, turnId: string, parentId: string | null): TranscriptMessage {
  const brain: BrainId | null = draft.model !== null && OPENAI_MODEL.test(draft.model) ? 'codex' : null;
  const reasoning = draft.reasoning.filter((text) => text !== '').join('\n\n');
  return {
    id: draft.id,
    turn_id: turnId,
    parent_id: parentId,
    role: 'assistant',
    kind: 'chat',
    text: draft.texts.join('\n\n'),
    ...(draft.createdAt === undefined ? {} : { created_at: draft.createdAt }),
    status: draft.stopped ? 'stopped' : 'complete',
    brain,
    model_requested: null,
    model_responded: draft.model,
    // ChatGPT's reasoning is OpenAI's, readable only: no encrypted item came with it, so it never replays.
    ...(reasoning === '' ? {} : { reasoning: { brain: 'codex', model: draft.model ?? '', text: reasoning, opaque: null } }),
    ...(draft.invocations.length === 0 ? {} : { tool_invocations: draft.invocations }),
  };
}

/**
 * Each node's children, roots under null, in the order their parent lists them (then any it does not list). A node
 * whose parent is missing from the mapping is a root: older exports point the root at a placeholder that is not there.
 */
function childrenByParent(conversation: ChatGptConversation): Map<string | null, string[]> {
  const byParent = new Map<string | null, string[]>();
  for (const [nodeId, node] of Object.entries(conversation.mapping)) {
    const parent = node.parent !== null && node.parent !== undefined && node.parent in conversation.mapping ? node.parent : null;
    const siblings = byParent.get(parent);
    if (siblings === undefined) byParent.set(parent, [nodeId]);
    else siblings.push(nodeId);
  }
  for (const [parent, children] of byParent) {
    if (parent === null || children.length < 2) continue;
    // Each child's place in its parent's list, its first if listed twice; a node it does not list comes after.
    const listed = conversation.mapping[parent]!.children ?? [];
    const placeOf = new Map<string, number>();
    listed.forEach((nodeId, place) => {
      if (!placeOf.has(nodeId)) placeOf.set(nodeId, place);
    });
    const place = (nodeId: string) => placeOf.get(nodeId) ?? listed.length;
    children.sort((left, right) => place(left) - place(right));
  }
  return byParent;
}

/** Where the walk of one branch stands: the message it last wrote, the turn it is in, the reply being assembled. */
interface BranchState {
  parentId: string | null;
  turnId: string;
  draft: ReplyDraft | null;
}

function convertConversation(conversation: ChatGptConversation, title: string): TranscriptV1 | string {
  const problem = lastSeenBranchProblem(conversation);
  if (problem !== null) return problem;
  const messages: TranscriptMessage[] = [];
  // The converted message each node ended up in: the current node's is the current leaf.
  const messageOfNode = new Map<string, string | null>();
  const repliedTurns = new Set<string>();
  let turnNumber = 0;
  // A reply of hidden or unreadable nodes only, and a user message of nothing (ChatGPT's "Continue generating" sends
  // one), held no words for anyone: they are left out.
  const closeReply = (state: BranchState): void => {
    const draft = state.draft;
    if (draft === null) return;
    state.draft = null;
    if (draft.texts.length > 0 || draft.reasoning.some((text) => text !== '') || draft.invocations.length > 0) {
      // Each alternative reply to one question is a turn of its own, as a regenerated reply is in this app.
      if (repliedTurns.has(state.turnId)) {
        turnNumber += 1;
        state.turnId = `turn-${turnNumber}`;
      }
      repliedTurns.add(state.turnId);
      messages.push(finishReply(draft, state.turnId, state.parentId));
      state.parentId = draft.id;
    }
    for (const nodeId of draft.nodeIds) messageOfNode.set(nodeId, state.parentId);
  };

  const visit = (nodeId: string, state: BranchState, position: number): void => {
    const message = conversation.mapping[nodeId]?.message;
    if (message === null || message === undefined || isHidden(message)) {
      if (state.draft !== null) state.draft.nodeIds.push(nodeId);
      else messageOfNode.set(nodeId, state.parentId);
      return;
    }
    const messageId = message.id ?? `node-${position}`;
    const role = message.author.role;
    if (role === 'user') {
      closeReply(state);
      turnNumber += 1;
      state.turnId = `turn-${turnNumber}`;
      const text = visibleText(message);
      if (text !== '') {
        const createdAt = isoFromSeconds(message.create_time);
        messages.push({
          id: messageId, turn_id: state.turnId, parent_id: state.parentId, role: 'user', kind: 'chat', text, ...(createdAt === undefined ? {} : { created_at: createdAt }),
        });
        state.parentId = messageId;
      }
      messageOfNode.set(nodeId, state.parentId);
      return;
    }
    if (role !== 'assistant' && role !== 'tool') {
      messageOfNode.set(nodeId, state.parentId);
      return;
    }
    state.draft ??= {
      id: messageId, createdAt: isoFromSeconds(message.create_time), nodeIds: [], texts: [], reasoning: [], invocations: [], waiting: [], model: null, stopped: false,
    };
    state.draft.nodeIds.push(nodeId);
    addToReply(state.draft, message);
  };

  // Depth first with a stack of its own: a branch can run to thousands of nodes. A node in a loop of parent links is
  // under no root, so the walk never reaches it.
  const childrenOf = childrenByParent(conversation);
  let position = 0;
  const pending: { nodeId: string; state: BranchState }[] = (childrenOf.get(null) ?? [])
    .map((nodeId) => ({ nodeId, state: { parentId: null, turnId: 'turn-0', draft: null } }))
    .reverse();
  while (pending.length > 0) {
    const { nodeId, state } = pending.pop()!;
    visit(nodeId, state, position);
    position += 1;
    const children = childrenOf.get(nodeId) ?? [];
    if (children.length <= 1) {
      if (children.length === 0) closeReply(state);
      else pending.push({ nodeId: children[0]!, state });
      continue;
    }
    // The reply so far is one message every alternative follows, a question or the rest of a reply regenerated
    // part-way: what the branches share is stored once, never once per branch (an export whose alternatives all go
    // on from one long draft would otherwise store it as many times as it has branches). An answer in one
    // alternative to a call made before the fork is a call of its own there.
    closeReply(state);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      pending.push({ nodeId: children[index]!, state: { parentId: state.parentId, turnId: state.turnId, draft: null } });
    }
  }

  if (!messages.some((message) => message.text !== '' || (message.tool_invocations?.length ?? 0) > 0)) {
    return 'it holds no message a person wrote or read';
  }
  const firstTime = messages.find((message) => message.created_at !== undefined)?.created_at;
  const leafId = messageOfNode.get(conversation.current_node!) ?? null;
  return {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    conversation: {
      id: conversation.conversation_id ?? conversation.id ?? title,
      title,
      created_at: isoFromSeconds(conversation.create_time) ?? firstTime ?? '',
      ...(leafId === null ? {} : { current_leaf_id: leafId }),
    },
    messages,
  };
}

/** One assistant or tool node into the reply it belongs to: its words, reasoning, or a call or a call's answer. */
function addToReply(reply: ReplyDraft, message: ChatGptMessage): void {
  const slug = message.metadata?.model_slug;
  if (typeof slug === 'string' && slug !== '') reply.model = slug;
  const finish = message.metadata?.finish_details;
  if (typeof finish === 'object' && finish !== null && (finish as Record<string, unknown>).type === 'interrupted') reply.stopped = true;
  const contentType = message.content.content_type;
  if (message.author.role === 'tool') {
    // A tool's answer goes to the newest call still waiting for one; an answer without a call is a call of its own.
    const waiting = reply.waiting.pop();
    const output = stringField(message.content, 'text') ?? stringField(message.content, 'result') ?? textParts(message.content);
    const images = imageNotes(message);
    if (images !== '') reply.texts.push(images);
    if (waiting !== undefined) {
      reply.invocations[waiting] = { ...reply.invocations[waiting]!, output, status: toolStatus(message) };
    } else {
      reply.invocations.push(invocation(reply, message.author.name ?? 'tool', {}, output, toolStatus(message)));
    }
    return;
  }
  if (contentType === 'thoughts' || contentType === 'reasoning_recap') {
    reply.reasoning.push(reasoningText(message.content));
    return;
  }
  const recipient = message.recipient ?? TO_EVERYONE;
  if (recipient !== TO_EVERYONE) {
    const code = stringField(message.content, 'text');
    const input = code !== undefined ? { code } : { text: textParts(message.content) };
    reply.waiting.push(reply.invocations.length);
    reply.invocations.push(invocation(reply, recipient, input, null, 'ok'));
    return;
  }
  const text = visibleText(message);
  if (text !== '') reply.texts.push(text);
}

function textParts(content: ChatGptContent): string {
  const parts = Array.isArray(content.parts) ? (content.parts as unknown[]) : [];
  return parts.filter((part): part is string => typeof part === 'string').join('\n\n');
}

/** Images a tool made (a DALL·E picture, a chart) are references too. */
function imageNotes(message: ChatGptMessage): string {
  const parts = Array.isArray(message.content.parts) ? (message.content.parts as unknown[]) : [];
  return parts
    .flatMap((part) => {
      if (typeof part !== 'object' || part === null) return [];
      const pointer = stringField(part as Record<string, unknown>, 'asset_pointer');
      return pointer === undefined ? [] : [referenceNote('image', assetFileId(pointer))];
    })
    .join('\n\n');
}

function invocation(
  reply: ReplyDraft,
  tool: string,
  input: Record<string, unknown>,
  output: string | null,
  status: TranscriptInvocation['status'],
): TranscriptInvocation {
  // The call ran in ChatGPT, not in any tool this app offers: the server says so on the receipt.
  return { id: `${reply.id}-call-${reply.invocations.length}`, kind: 'tool', server: 'chatgpt', tool, provider_call_id: null, input, output, status };
}
