/**
 * Conversations: list, create, rename, delete, and the brain, model and reasoning level a conversation picks.
 */
import { ApiError, type ConversationView } from '../../../src-shared/api';
import { newId, nowIso } from '../store/clock';
import { DEFAULT_TITLE, deleteConversation, getConversation, insertConversation, listConversations, updateConversation } from '../store/conversations';
import { attachmentShasOfConversation } from '../store/attachments';
import type { AppDatabase } from '../store/open';
import { releaseAttachmentFiles } from './attachments';
import type { CommandDependencies, HandlerGroup } from './handlers';

/** The conversation, or the Api's not-found error a person can read. */
export function requireConversation(db: AppDatabase, id: string): ConversationView {
  const conversation = getConversation(db, id);
  if (!conversation) throw new ApiError('not-found', 'That conversation no longer exists.');
  return conversation;
}

export function conversationCommands({ db, dataDir, emit, engine }: Pick<CommandDependencies, 'db' | 'dataDir' | 'emit' | 'engine'>) {
  return {
    listConversations: ({ query, before, limit }) =>
      listConversations(db, query, { ...(before === undefined ? {} : { before }), ...(limit === undefined ? {} : { limit }) }),
    createConversation: ({ title, brain, model }) => {
      const conversation = insertConversation(db, {
        id: newId(),
        title: title?.trim() || DEFAULT_TITLE,
        brain: brain ?? null,
        model: brain && model ? model : null,
        now: nowIso(),
      });
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    renameConversation: ({ id, title }) => {
      requireConversation(db, id);
      const conversation = updateConversation(db, id, { title, updatedAt: nowIso() })!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
    deleteConversation: async ({ id }) => {
      if (engine.isRunning(id)) {
        engine.stop(id);
      }
      const files = attachmentShasOfConversation(db, id);
      const deleted = deleteConversation(db, id);
      // The rows went with the conversation; a file another conversation (or a pending attachment) holds stays.
      if (deleted) releaseAttachmentFiles(db, dataDir, files);
      if (deleted) emit({ type: 'conversation-deleted', conversationId: id });
      return { deleted };
    },
    getConversation: ({ id }) => requireConversation(db, id),
    setConversationBrain: ({ id, brain, model, reasoningLevel }) => {
      const current = requireConversation(db, id);
      const conversation = updateConversation(db, id, {
        brain,
        // A model and a reasoning level belong to the brain they were picked on: switching brain without naming them
        // goes back to that brain's default model and that model's default level (engine/resolve-target.ts reads them so).
        model: model === undefined ? (current.brain === brain ? current.model : null) : model,
        reasoningLevel: reasoningLevel === undefined ? (current.brain === brain ? current.reasoningLevel : null) : reasoningLevel,
      })!;
      emit({ type: 'conversation-updated', conversation });
      return conversation;
    },
  } satisfies HandlerGroup;
}
