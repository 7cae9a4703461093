import type { ExportFormat, ExportOptions } from '../../src-shared/api';

/**
 * What an export shows beyond the words. JSON always carries the calls, reasoning and branches, so it takes only
 * `includeAttachments` (the attachments' bytes, so an import restores the files).
 */
export interface ExportIncludes {
  readonly includeTools: boolean;
  readonly includeReasoning: boolean;
  /** Every branch, each alternative labelled, where the default is the branch shown. */
  readonly includeBranches: boolean;
  /** The attachments' bytes: embedded in JSON, images in HTML, files beside Markdown. */
  readonly includeAttachments: boolean;
}

/** Tool calls shown, reasoning left out, the branch shown only, and the attachments' bytes carried in every format. */
export const DEFAULT_EXPORT_INCLUDES: ExportIncludes = { includeTools: true, includeReasoning: false, includeBranches: false, includeAttachments: true };

/** The include options a format takes: for JSON, which is complete otherwise, only the attachments' bytes. */
export function includesFor(format: ExportFormat, includes: ExportIncludes): ExportOptions {
  switch (format) {
    case 'json':
      // The Api embeds no bytes unless asked, so a transcript without attachments reads as it always did.
      return includes.includeAttachments ? { includeAttachments: true } : {};
    case 'md':
    case 'html':
      return {
        includeTools: includes.includeTools,
        includeReasoning: includes.includeReasoning,
        // The Api's default is the live path, so an export of it reads as it always did.
        ...(includes.includeBranches ? { branches: 'all' as const } : {}),
        // The Api carries the bytes in Markdown and HTML unless told not to.
        ...(includes.includeAttachments ? {} : { includeAttachments: false }),
      };
    default: {
      const _unknown: never = format;
      return {};
    }
  }
}

/** The export of one conversation being set up in its dialog, and the turns ticked in the message list. */
export interface ExportDraft extends ExportIncludes {
  readonly conversationId: string;
  readonly format: ExportFormat;
  readonly scope: 'conversation' | 'turns';
  /** The message list shows a checkbox on each turn, and the dialog waits. */
  readonly choosing: boolean;
  /**
   * Chosen turns, each with the seq of the row it was ticked on. The list is virtualized and paged, so the choice lives
   * here, and the seq gives conversation order whatever is loaded when the export runs.
   */
  readonly chosenTurns: Readonly<Record<string, number>>;
}

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
  readonly exportDraft: ExportDraft | null;
  /** The dialog that sets up an export of all conversations. */
  readonly exportAllDialogOpen: boolean;
}

export const initialExportSlice: ExportSlice = { exportAll: null, exportDraft: null, exportAllDialogOpen: false };

export function beginExportDraft(conversationId: string): Partial<ExportSlice> {
  return {
    exportDraft: { conversationId, format: 'md', ...DEFAULT_EXPORT_INCLUDES, scope: 'conversation', choosing: false, chosenTurns: {} },
  };
}

export type ExportDraftChange = Partial<Pick<ExportDraft, 'format' | 'includeTools' | 'includeReasoning' | 'includeBranches' | 'includeAttachments' | 'scope' | 'choosing'>>;

export function changeExportDraft(state: ExportSlice, change: ExportDraftChange): Partial<ExportSlice> {
  if (state.exportDraft === null) return {};
  return { exportDraft: { ...state.exportDraft, ...change } };
}

/** Ticks or unticks one turn; only while choosing, and only in the conversation being exported. */
export function toggleExportTurn(state: ExportSlice, conversationId: string, turnId: string, seq: number): Partial<ExportSlice> {
  const draft = state.exportDraft;
  if (draft === null || !draft.choosing || draft.conversationId !== conversationId) return {};
  const chosenTurns = { ...draft.chosenTurns };
  if (turnId in chosenTurns) delete chosenTurns[turnId];
  else chosenTurns[turnId] = seq;
  return { exportDraft: { ...draft, chosenTurns } };
}

/** Ids of the chosen turns in conversation order. */
export function chosenTurnIds(draft: ExportDraft): string[] {
  return Object.entries(draft.chosenTurns)
    .sort(([, left], [, right]) => left - right)
    .map(([turnId]) => turnId);
}

/** The Api options of a draft: the includes its format takes, and the chosen turns when it exports only those. */
export function exportOptionsOf(draft: ExportDraft): ExportOptions {
  const turnIds = draft.scope === 'turns' ? chosenTurnIds(draft) : [];
  return { ...includesFor(draft.format, draft), ...(turnIds.length > 0 ? { turnIds } : {}) };
}

export function endExportDraft(state: ExportSlice, conversationId: string): Partial<ExportSlice> {
  return state.exportDraft?.conversationId === conversationId ? { exportDraft: null } : {};
}

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
