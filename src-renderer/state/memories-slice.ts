import type { MemoryView } from '../../src-shared/api';

export type MemoriesStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface MemoriesSlice {
  readonly memoriesOpen: boolean;
  /** Newest first, or by relevance for a search. */
  readonly memories: readonly MemoryView[];
  readonly memoryQuery: string;
  readonly memoriesStatus: MemoriesStatus;
  readonly memoriesError: string | null;
}

export const initialMemoriesSlice: MemoriesSlice = {
  memoriesOpen: false,
  memories: [],
  memoryQuery: '',
  memoriesStatus: 'idle',
  memoriesError: null,
};

export function replaceMemoryList(memories: readonly MemoryView[]): Partial<MemoriesSlice> {
  return { memories, memoriesStatus: 'ready', memoriesError: null };
}

/** A memory just added goes first, where the person looks for it. */
export function prependMemory(state: MemoriesSlice, memory: MemoryView): Partial<MemoriesSlice> {
  return { memories: [memory, ...state.memories.filter((known) => known.id !== memory.id)] };
}

export function replaceMemory(state: MemoriesSlice, memory: MemoryView): Partial<MemoriesSlice> {
  return { memories: state.memories.map((known) => (known.id === memory.id ? memory : known)) };
}

export function removeMemory(state: MemoriesSlice, memoryId: string): Partial<MemoriesSlice> {
  return { memories: state.memories.filter((known) => known.id !== memoryId) };
}
