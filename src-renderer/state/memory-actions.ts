import { api, errorText } from './api-client';
import { prependMemory, removeMemory, replaceMemory, replaceMemoryList } from './memories-slice';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

let memoryListRequest = 0;

export async function loadMemories(query: string = getState().memoryQuery): Promise<void> {
  const request = ++memoryListRequest;
  setState({ memoryQuery: query, memoriesStatus: 'loading' });
  const trimmed = query.trim();
  try {
    const memories = await api().listMemories(trimmed === '' ? {} : { query: trimmed });
    if (request === memoryListRequest) setState(replaceMemoryList(memories));
  } catch (error) {
    if (request === memoryListRequest) setState({ memoriesStatus: 'error', memoriesError: errorText(error) });
  }
}

export function openMemories(): void {
  setState({ memoriesOpen: true, memoryQuery: '' });
  void loadMemories('');
}

export function closeMemories(): void {
  memoryListRequest += 1;
  setState({ memoriesOpen: false });
}

/** Memory commands throw the Api's refusal, for the view to show beside the control that asked. */
export async function addMemory(text: string): Promise<void> {
  const memory = await api().addMemory({ text });
  setState((state) => prependMemory(state, memory));
}

export async function updateMemory(memoryId: string, text: string): Promise<void> {
  const memory = await api().updateMemory({ id: memoryId, text });
  setState((state) => replaceMemory(state, memory));
}

export async function deleteMemory(memoryId: string): Promise<void> {
  await api().deleteMemory({ id: memoryId });
  setState((state) => removeMemory(state, memoryId));
}
