/**
 * A conversation's messages and its turns: read a page, send, retry, stop, and preview the next request.
 */
import type { MessagePage } from '../../../src-shared/api';
import { listInvocationsByMessage, toInvocationView } from '../store/invocations';
import { listMessagePage, toMessageViews, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { requireConversation } from './conversations';
import type { CommandDependencies, HandlerGroup } from './handlers';

/** A page of rows as the window gets it: the views, then their invocations, by message then order. */
export function toMessagePage(db: AppDatabase, page: { readonly rows: readonly MessageRow[]; readonly hasOlder: boolean }): MessagePage {
  const byMessage = listInvocationsByMessage(db, page.rows.map((row) => row.id));
  return {
    messages: toMessageViews(db, page.rows),
    invocations: page.rows.flatMap((row) => byMessage.get(row.id) ?? []).map(toInvocationView),
    hasOlder: page.hasOlder,
  };
}

export function messageCommands({ db, engine }: Pick<CommandDependencies, 'db' | 'engine'>) {
  return {
    listMessages: ({ conversationId, beforeSeq, limit }) => {
      requireConversation(db, conversationId);
      return toMessagePage(db, listMessagePage(db, conversationId, limit, beforeSeq));
    },
    send: ({ conversationId, text }) => engine.send(conversationId, text).result,
    retry: ({ conversationId }) => engine.retry(conversationId).result,
    stop: ({ conversationId }) => ({ stopped: engine.stop(conversationId) }),
    previewRequest: ({ conversationId, brain, model, reasoningLevel, message }) =>
      engine.previewRequest(conversationId, {
        ...(brain ? { brain } : {}),
        ...(model ? { model } : {}),
        ...(reasoningLevel === undefined ? {} : { reasoningLevel }),
        ...(message === undefined ? {} : { message }),
      }),
  } satisfies HandlerGroup;
}
