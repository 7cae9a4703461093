/**
 * Test support for exports of many conversations: conversations with chosen ids, titles and times, each a few turns of
 * a user question and a reply.
 */
import { insertConversation } from '../store/conversations';
import { insertMessage } from '../store/messages';
import type { AppDatabase } from '../store/open';

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
