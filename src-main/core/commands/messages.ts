/**
 * A conversation's messages and its turns: read a page, send, retry, stop, and preview the next request.
 */
import type { MessagePage } from '../../../src-shared/api';
import { listInvocationsByMessage, toInvocationView } from '../store/invocations';
import { ApiError } from '../../../src-shared/api';
import { branchPoint, chooseBranch } from '../store/branches';
import { countShownFrom, listMessagePage, listMessagePageAfter, toMessageViews, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { requireConversation } from './conversations';
import type { CommandDependencies, HandlerGroup } from './handlers';

/** A page of rows as the window gets it: the views, then their invocations, by message then order. */
export function toMessagePage(
  db: AppDatabase,
  page: { readonly rows: readonly MessageRow[]; readonly hasOlder: boolean; readonly hasNewer?: boolean },
): MessagePage {
  const byMessage = listInvocationsByMessage(db, page.rows.map((row) => row.id));
  return {
    messages: toMessageViews(db, page.rows),
    invocations: page.rows.flatMap((row) => byMessage.get(row.id) ?? []).map(toInvocationView),
    hasOlder: page.hasOlder,
    ...(page.hasNewer === undefined ? {} : { hasNewer: page.hasNewer }),
  };
}

/** A branch switch answers with the path from the fork down when it is at most this long, else with the newest page. */
const MAX_BRANCH_PAGE = 500;
const DEFAULT_PAGE = 100;

export function messageCommands({ db, engine }: Pick<CommandDependencies, 'db' | 'engine'>) {
  return {
    listMessages: ({ conversationId, beforeSeq, afterSeq, limit }) => {
      requireConversation(db, conversationId);
      if (afterSeq !== undefined) return toMessagePage(db, listMessagePageAfter(db, conversationId, limit, afterSeq));
      return toMessagePage(db, listMessagePage(db, conversationId, limit, beforeSeq));
    },
    send: ({ conversationId, text, attachmentIds }) => engine.send(conversationId, text, attachmentIds ?? []).result,
    retry: ({ conversationId }) => engine.retry(conversationId).result,
    stop: ({ conversationId }) => ({ stopped: engine.stop(conversationId) }),
    editMessage: ({ messageId, text }) => engine.edit(messageId, text).result,
    regenerate: ({ messageId }) => engine.answerAgain(messageId, null).result,
    answerWith: ({ messageId, brain, model, reasoningLevel }) =>
      engine.answerAgain(messageId, { brain, ...(model ? { model } : {}), ...(reasoningLevel ? { reasoningLevel } : {}) }).result,
    chooseSibling: ({ messageId }) => {
      const { conversationId, parentId } = branchPoint(db, messageId);
      // A running reply reads the live path for its next tool round: the branch shown may not move under it.
      if (engine.isRunning(conversationId)) {
        throw new ApiError('turn-running', 'A reply is still being written in this conversation. Wait for it, or press Stop, then switch branches.');
      }
      chooseBranch(db, messageId);
      const shown = countShownFrom(db, conversationId, parentId ?? messageId);
      return toMessagePage(db, listMessagePage(db, conversationId, shown <= MAX_BRANCH_PAGE ? Math.max(shown, 1) : DEFAULT_PAGE));
    },
    previewRequest: ({ conversationId, brain, model, reasoningLevel, message }) =>
      engine.previewRequest(conversationId, {
        ...(brain ? { brain } : {}),
        ...(model ? { model } : {}),
        ...(reasoningLevel === undefined ? {} : { reasoningLevel }),
        ...(message === undefined ? {} : { message }),
      }),
  } satisfies HandlerGroup;
}
