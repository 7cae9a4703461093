import type { ApiEvent } from '../../src-shared/api';

type ImportProgressEvent = Extract<ApiEvent, { type: 'import-progress' }>;

export interface ImportProgress {
  /** The file being imported, as this window named it to importConversations. */
  readonly name: string;
  /** Conversations checked so far, of `total` (0 of 0 until the host first reports). */
  readonly done: number;
  readonly total: number;
}

export interface ImportSlice {
  /** The import this window started and is waiting on; null when none runs. */
  readonly importProgress: ImportProgress | null;
}

export const initialImportSlice: ImportSlice = { importProgress: null };

export function beginImport(name: string): Partial<ImportSlice> {
  return { importProgress: { name, done: 0, total: 0 } };
}

/** Progress of an import this window is not waiting on (another window's) changes nothing here. */
export function advanceImport(state: ImportSlice, event: ImportProgressEvent): Partial<ImportSlice> {
  if (state.importProgress === null || state.importProgress.name !== event.name) return {};
  return { importProgress: { name: event.name, done: event.done, total: event.total } };
}

export function endImport(): Partial<ImportSlice> {
  return { importProgress: null };
}
