/**
 * Search over every conversation's words and titles.
 */
import { searchMessages } from '../store/search';
import type { CommandDependencies, HandlerGroup } from './handlers';

export function searchCommands({ db }: Pick<CommandDependencies, 'db'>) {
  return {
    searchMessages: ({ query, limit }) => searchMessages(db, query, { limit }),
  } satisfies HandlerGroup;
}
