/**
 * Test support for exports: conversations with chosen ids, titles and times, each a few turns of a user question and a
 * reply, and one conversation with branches.
 */
import { moveLeaf } from '../store/branches';
import { insertConversation } from '../store/conversations';
import { writeAttachmentFile } from '../attachments/attachment-files';
import { insertAttachment } from '../store/attachments';
import { insertInvocation } from '../store/invocations';
import { insertMessage, type NewMessage } from '../store/messages';
import type { AppDatabase } from '../store/open';
import type { TranscriptV1 } from '../../../src-shared/transcript';

export interface SeededConversation {
  readonly id: string;
  readonly title: string;
  /** ISO time; later ones come first in an export, like the sidebar. */
  readonly at: string;
  readonly turns?: number;
}

export function seedConversation(db: AppDatabase, conversation: SeededConversation): void {
  insertConversation(db, { id: conversation.id, title: conversation.title, brain: 'claude', model: null, now: conversation.at });
  for (let turn = 0; turn < (conversation.turns ?? 1); turn += 1) {
    const turnId = `${conversation.id}-t${turn}`;
    insertMessage(db, {
      id: `${turnId}-u`,
      conversationId: conversation.id,
      seq: turn * 2,
      turnId,
      role: 'user',
      text: `Question ${turn} about ${conversation.title}`,
      status: 'complete',
      createdAt: conversation.at,
    });
    insertMessage(db, {
      id: `${turnId}-a`,
      conversationId: conversation.id,
      seq: turn * 2 + 1,
      turnId,
      role: 'assistant',
      text: `Answer ${turn}: **bold** and \`code\` in ${conversation.title}`,
      status: 'complete',
      brain: 'claude',
      modelRequested: 'claude-sonnet-4-5',
      modelResponded: 'claude-sonnet-4-5',
      createdAt: conversation.at,
    });
  }
}

/** `count` conversations, one minute apart, with ULID-like ids that differ only in their last characters. */
export function seedManyConversations(db: AppDatabase, count: number, turns = 2): void {
  for (let index = 0; index < count; index += 1) {
    const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
    seedConversation(db, { id: `01JEXPORT${String(index).padStart(17, '0')}`, title: `Conversation ${index}`, at, turns });
  }
}

/**
 * A conversation with branches, as the window makes them: a question and its answer; a follow-up answered, then
 * edited (a sibling user message); the edit answered by Kimi with a tool call, then by Gemini (a sibling reply); the
 * Kimi reply chosen again, so the current leaf is not the newest message. Live path: u1, a1, u2-edit, a3-kimi.
 */
export function seedBranchedConversation(db: AppDatabase, at = '2026-12-01T12:00:00.000Z'): string {
  const conversationId = 'branched';
  insertConversation(db, { id: conversationId, title: 'Branches', brain: 'claude', model: null, now: at });
  let seq = 0;
  const message = (id: string, fields: Omit<NewMessage, 'id' | 'conversationId' | 'seq' | 'status' | 'createdAt'>) =>
    insertMessage(db, { id, conversationId, seq: seq++, status: 'complete', createdAt: at, ...fields });
  const reply = (brain: 'claude' | 'kimi' | 'gemini', model: string) => ({ role: 'assistant' as const, brain, modelRequested: model, modelResponded: model });
  message('u1', { turnId: 't1', role: 'user', text: 'Which sort is faster?' });
  message('a1', { turnId: 't1', ...reply('claude', 'claude-opus-4-7'), text: 'Quicksort, usually.' });
  message('u2', { turnId: 't2', role: 'user', text: 'Why?' });
  message('a2', { turnId: 't2', ...reply('claude', 'claude-opus-4-7'), text: 'Fewer cache misses.' });
  message('u2-edit', { turnId: 't3', role: 'user', text: 'Why, in one line?', parentId: 'a1' });
  message('a3-kimi', { turnId: 't4', ...reply('kimi', 'kimi-k2.6'), text: 'Locality.' });
  insertInvocation(db, {
    id: 'i-kimi', turnId: 't4', messageId: 'a3-kimi', seq: 0, kind: 'tool', server: 'files', tool: 'read_file', providerCallId: 'functions.read_file:0',
    input: { path: 'notes.md' }, output: 'Quicksort partitions in place.', status: 'ok', opaque: null, startedAt: at, endedAt: at,
  });
  message('a3-gemini', { turnId: 't5', ...reply('gemini', 'gemini-3.1-pro-preview'), text: 'It stays in cache.', parentId: 'u2-edit' });
  moveLeaf(db, conversationId, 'a3-kimi');
  return conversationId;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const TEXT = Buffer.from('# Notes\nbuy milk\n');

/** A question with a photo, a PDF and a text file attached, and its answer; the files in `dataDir`. */
export function seedAttachedConversation(db: AppDatabase, dataDir: string, at = '2026-12-01T12:00:00.000Z'): string {
  insertConversation(db, { id: 'c1', title: 'Three files', brain: 'gemini', model: null, now: at });
  insertMessage(db, { id: 'u1', conversationId: 'c1', seq: 0, turnId: 't1', role: 'user', text: 'What are these?', status: 'complete', createdAt: at });
  const files = [
    { name: 'photo.png', bytes: PNG, mediaType: 'image/png', kind: 'image' as const, width: 1, height: 1 },
    { name: 'report.pdf', bytes: PDF, mediaType: 'application/pdf', kind: 'pdf' as const, width: null, height: null },
    { name: 'notes.md', bytes: TEXT, mediaType: 'text/markdown', kind: 'text' as const, width: null, height: null },
  ];
  files.forEach((file, index) => {
    const sha256 = writeAttachmentFile(dataDir, file.bytes);
    insertAttachment(db, {
      id: `att${index}`, messageId: 'u1', name: file.name, mediaType: file.mediaType, kind: file.kind, size: file.bytes.length, sha256,
      width: file.width, height: file.height, createdAt: at,
    });
  });
  insertMessage(db, {
    id: 'a1', conversationId: 'c1', seq: 1, turnId: 't1', role: 'assistant', text: 'A pixel, a report, notes.', status: 'complete',
    brain: 'gemini', modelRequested: 'gemini-3.1-pro-preview', modelResponded: 'gemini-3.1-pro-preview', createdAt: at,
  });
  return 'c1';
}

/** A transcript with every id replaced by its position, so two documents that differ only in ids compare equal. */
export function withoutIds(transcript: TranscriptV1): unknown {
  const messageIndex = new Map(transcript.messages.map((message, index) => [message.id, index]));
  const turnIndex = new Map<string, number>();
  for (const message of transcript.messages) if (!turnIndex.has(message.turn_id)) turnIndex.set(message.turn_id, turnIndex.size);
  const positionOf = (id: string | null | undefined) => (id === null || id === undefined ? id : messageIndex.get(id));
  return {
    ...transcript,
    conversation: {
      ...transcript.conversation,
      id: 'conversation',
      ...('current_leaf_id' in transcript.conversation ? { current_leaf_id: positionOf(transcript.conversation.current_leaf_id) } : {}),
    },
    messages: transcript.messages.map((message, index) => ({
      ...message,
      id: index,
      turn_id: turnIndex.get(message.turn_id),
      ...('parent_id' in message ? { parent_id: positionOf(message.parent_id) } : {}),
      ...('covers_through_id' in message && message.covers_through_id ? { covers_through_id: messageIndex.get(message.covers_through_id) } : {}),
      ...('tool_invocations' in message && message.tool_invocations
        ? { tool_invocations: message.tool_invocations.map((invocation, position) => ({ ...invocation, id: position })) }
        : {}),
    })),
  };
}
