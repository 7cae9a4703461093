import type { ExportFormat } from '../../src-shared/api';

/** The export of all conversations this window started, while it runs. */
export interface ExportAllRun {
  readonly exportId: string;
  readonly format: ExportFormat;
  readonly done: number;
  /** Unknown until the first `export-progress` event. */
  readonly total: number | null;
  /** `exporting` on the main side's worker; `downloading` while the window reads the finished zip. */
  readonly phase: 'exporting' | 'downloading';
}

export interface ExportSlice {
  readonly exportAll: ExportAllRun | null;
}

export const initialExportSlice: ExportSlice = { exportAll: null };

export function beginExportAll(exportId: string, format: ExportFormat): Partial<ExportSlice> {
  return { exportAll: { exportId, format, done: 0, total: null, phase: 'exporting' } };
}

/** Progress of another window's export, or of one this window has let go, changes nothing. */
export function advanceExportAll(state: ExportSlice, exportId: string, done: number, total: number): Partial<ExportSlice> {
  const run = state.exportAll;
  if (run === null || run.exportId !== exportId || run.phase !== 'exporting') return {};
  return { exportAll: { ...run, done, total } };
}

export function downloadExportAll(state: ExportSlice, exportId: string): Partial<ExportSlice> {
  const run = state.exportAll;
  if (run === null || run.exportId !== exportId) return {};
  return { exportAll: { ...run, done: run.total ?? run.done, phase: 'downloading' } };
}

export function endExportAll(state: ExportSlice, exportId: string): Partial<ExportSlice> {
  return state.exportAll?.exportId === exportId ? { exportAll: null } : {};
}
