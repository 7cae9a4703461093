import { strToU8, zipSync } from 'fflate';
import type { ExportFormat, ExportResult } from '../../src-shared/api';
import { api, errorText } from './api-client';
import { exportConversation, showNotice } from './conversation-actions';
import {
  beginExportAll,
  beginExportDraft,
  changeExportDraft,
  downloadExportAll,
  endExportAll,
  endExportDraft,
  exportOptionsOf,
  includesFor,
  toggleExportTurn,
  type ExportDraftChange,
  type ExportIncludes,
} from './export-slice';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

export interface ExportedFile {
  readonly filename: string;
  readonly mimeType: string;
  readonly parts: readonly Uint8Array<ArrayBuffer>[];
}

function isCurrent(exportId: string): boolean {
  return getState().exportAll?.exportId === exportId;
}

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * What one conversation's export saves as: the file itself, or, for Markdown with attachments, a zip of the file and
 * the folder beside it its links name (a download is one file; unpacked, the links work).
 */
export function exportedFileOf(exported: ExportResult): ExportedFile {
  const files = exported.files ?? [];
  if (files.length === 0) return { filename: exported.filename, mimeType: exported.mimeType, parts: [strToU8(exported.content)] };
  const entries: Record<string, Uint8Array> = { [exported.filename]: strToU8(exported.content) };
  for (const file of files) entries[file.path] = decodeBase64(file.dataBase64);
  const stem = exported.filename.replace(/\.[^.]+$/, '');
  return { filename: `${stem}.zip`, mimeType: 'application/zip', parts: [zipSync(entries) as Uint8Array<ArrayBuffer>] };
}

/**
 * Exports every conversation into one zip and reads it back in pieces. Null when it was cancelled (nothing to save)
 * or failed (a notice says why).
 */
export async function exportAllConversations(format: ExportFormat, includes: ExportIncludes): Promise<ExportedFile | null> {
  if (getState().exportAll !== null) return null;
  const exportId = crypto.randomUUID();
  setState(beginExportAll(exportId, format));
  try {
    const result = await api().exportAllConversations({ exportId, format, ...includesFor(format, includes) });
    if (result.outcome === 'cancelled' || !isCurrent(exportId)) return null;
    setState((state) => downloadExportAll(state, exportId));
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const chunk = await api().readExport({ exportId, offset });
      // Cancelled while reading: the main side has let the zip go.
      if (!isCurrent(exportId)) return null;
      parts.push(decodeBase64(chunk.data));
      offset = chunk.nextOffset;
    }
    return { filename: result.filename, mimeType: result.mimeType, parts };
  } catch (error) {
    if (isCurrent(exportId)) showNotice(`Could not export all conversations: ${errorText(error)}`);
    return null;
  } finally {
    setState((state) => endExportAll(state, exportId));
  }
}

/** Stops the running export (the main side keeps nothing of it), or drops the zip being read. */
export async function cancelExportAll(): Promise<void> {
  const run = getState().exportAll;
  if (run === null) return;
  setState((state) => endExportAll(state, run.exportId));
  try {
    await api().cancelExport({ exportId: run.exportId });
  } catch (error) {
    showNotice(`Could not cancel the export: ${errorText(error)}`);
  }
}

export function openExportAllDialog(): void {
  setState({ exportAllDialogOpen: true });
}

export function closeExportAllDialog(): void {
  setState({ exportAllDialogOpen: false });
}

/** Opens the export dialog of a conversation, with the Api's defaults and the whole conversation. */
export function openConversationExport(conversationId: string): void {
  setState(beginExportDraft(conversationId));
}

export function changeConversationExport(change: ExportDraftChange): void {
  setState((state) => changeExportDraft(state, change));
}

export function toggleTurnForExport(conversationId: string, turnId: string, seq: number): void {
  setState((state) => toggleExportTurn(state, conversationId, turnId, seq));
}

export function closeConversationExport(conversationId: string): void {
  setState((state) => endExportDraft(state, conversationId));
}

/**
 * Exports the conversation as its dialog is set and closes the dialog. Null when there was no such export or it
 * failed (a notice says why).
 */
export async function runConversationExport(conversationId: string): Promise<ExportResult | null> {
  const draft = getState().exportDraft;
  if (draft === null || draft.conversationId !== conversationId) return null;
  setState((state) => endExportDraft(state, conversationId));
  try {
    return await exportConversation(conversationId, draft.format, exportOptionsOf(draft));
  } catch (error) {
    showNotice(`Could not export: ${errorText(error)}`);
    return null;
  }
}
