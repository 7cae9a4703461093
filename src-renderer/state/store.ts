import { create } from 'zustand';
import { initialApprovalsSlice, type ApprovalsSlice } from './approvals-slice';
import { initialAttachmentsSlice, type AttachmentsSlice } from './attachments-slice';
import { initialContextSlice, type ContextSlice } from './context-slice';
import { initialImportSlice, type ImportSlice } from './import-slice';
import { initialConversationsSlice, type ConversationsSlice } from './conversations-slice';
import { initialExportSlice, type ExportSlice } from './export-slice';
import { initialMemoriesSlice, type MemoriesSlice } from './memories-slice';
import { initialMessagesSlice, type MessagesSlice } from './messages-slice';
import { initialOutsideSlice, type OutsideSlice } from './outside-slice';
import { initialSearchSlice, type SearchSlice } from './search-slice';
import { initialSettingsSlice, type SettingsSlice } from './settings-slice';
import { initialToolsSlice, type ToolsSlice } from './tools-slice';
import { initialTurnsSlice, type TurnsSlice } from './turns-slice';
import { initialUiSlice, type UiSlice } from './ui-slice';

export type AppState = ConversationsSlice &
  MessagesSlice &
  TurnsSlice &
  SettingsSlice &
  UiSlice &
  ApprovalsSlice &
  MemoriesSlice &
  ToolsSlice &
  ContextSlice &
  ImportSlice &
  SearchSlice &
  ExportSlice &
  AttachmentsSlice &
  OutsideSlice;

export function initialAppState(): AppState {
  return {
    ...initialConversationsSlice,
    ...initialMessagesSlice,
    ...initialTurnsSlice,
    ...initialSettingsSlice,
    ...initialUiSlice,
    ...initialApprovalsSlice,
    ...initialMemoriesSlice,
    ...initialToolsSlice,
    ...initialContextSlice,
    ...initialImportSlice,
    ...initialSearchSlice,
    ...initialExportSlice,
    ...initialAttachmentsSlice,
    ...initialOutsideSlice,
  };
}

/** The one store. Transitions live beside each slice as pure functions; handlers call `setState` with them. */
export const useAppStore = create<AppState>()(() => initialAppState());

export function resetAppStore(): void {
  useAppStore.setState(initialAppState(), true);
}
