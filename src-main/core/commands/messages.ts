/**
 * A conversation's messages and its turns: read a page, send, retry, stop, and preview the next request.
 */
import { listInvocationsByMessage, toInvocationView } from '../store/invocations';
import { listMessagePage, toMessageViews } from '../store/messages';
import { requireConversation } from './conversations';
import type { CommandDependencies, HandlerGroup } from './handlers';

export function messageCommands({ db, engine }: Pick<CommandDependencies, 'db' | 'engine'>) {
  return {
    listMessages: ({ conversationId, beforeSeq, limit }) => {
      requireConversation(db, conversationId);
      const page = listMessagePage(db, conversationId, limit, beforeSeq);
      const byMessage = listInvocationsByMessage(db, page.rows.map((row) => row.id));
      return {
        messages: toMessageViews(db, page.rows),
        invocations: page.rows.flatMap((row) => byMessage.get(row.id) ?? []).map(toInvocationView),
        hasOlder: page.hasOlder,
      };
    },
    send: ({ conversationId, text }) => engine.send(conversationId, text).result,
    retry: ({ conversationId }) => engine.retry(conversationId).result,
    stop: ({ conversationId }) => ({ stopped: engine.stop(conversationId) }),
    previewRequest: ({ conversationId, brain, model, message }) =>
      engine.previewRequest(conversationId, { ...(brain ? { brain } : {}), ...(model ? { model } : {}), ...(message === undefined ? {} : { message }) }),
  } satisfies HandlerGroup;
}
