/**
 * Memories the user keeps: list or search, add, edit, delete.
 */
import { ApiError } from '../../../src-shared/api';
import { newId, nowIso } from '../store/clock';
import { deleteMemory, getMemory, insertMemory, listMemories, searchMemories, toMemoryView, updateMemory } from '../store/memories';
import type { CommandDependencies, HandlerGroup } from './handlers';

export function memoryCommands({ db }: Pick<CommandDependencies, 'db'>) {
  return {
    listMemories: ({ query, limit }) =>
      query && query.trim()
        ? searchMemories(db, query, limit).map((match) => {
            const row = getMemory(db, match.id);
            return row ? toMemoryView(row) : { id: match.id, text: match.text, createdAt: '', updatedAt: '' };
          })
        : listMemories(db, { limit }).map(toMemoryView),
    addMemory: ({ text }) => toMemoryView(insertMemory(db, { id: newId(), text, now: nowIso() })),
    updateMemory: ({ id, text }) => {
      const row = updateMemory(db, id, text, nowIso());
      if (!row) throw new ApiError('not-found', 'That memory no longer exists.');
      return toMemoryView(row);
    },
    deleteMemory: ({ id }) => ({ deleted: deleteMemory(db, id) }),
  } satisfies HandlerGroup;
}
