import type { ConnectionStatus } from '../transport/connection';

export interface UiSlice {
  /** Unsent composer text per conversation. */
  readonly drafts: Readonly<Record<string, string>>;
  /** A problem that belongs to no particular control, shown in a dismissible banner. */
  readonly notice: string | null;
  readonly connectionStatus: ConnectionStatus;
  /** The "Show request" dialog of the open conversation. */
  readonly requestPreviewOpen: boolean;
  /** The "Compact now" dialog of the open conversation: what it would fold, asked before it runs. */
  readonly compactDialogOpen: boolean;
  /** The sheet listing every keyboard shortcut. */
  readonly shortcutsOpen: boolean;
  /** The window is too narrow for the sidebar beside the conversation: it shows only as an overlay. */
  readonly narrowWindow: boolean;
  /** In a wide window, the person hid the sidebar (remembered across reloads). */
  readonly sidebarHidden: boolean;
  /** In a narrow window, the sidebar is open over the conversation. */
  readonly sidebarOverlayOpen: boolean;
  /** Counts requests to focus the search box, so that each request focuses it once the sidebar shows. */
  readonly searchFocusRequests: number;
  /** The desktop app hands files to the system viewer; a browser opens them in a tab. */
  readonly host: 'electron' | 'web';
}

export const initialUiSlice: UiSlice = {
  drafts: {},
  notice: null,
  connectionStatus: 'connecting',
  requestPreviewOpen: false,
  compactDialogOpen: false,
  shortcutsOpen: false,
  narrowWindow: false,
  sidebarHidden: false,
  sidebarOverlayOpen: false,
  searchFocusRequests: 0,
  host: 'web',
};

/** Whether the sidebar shows: beside the conversation in a wide window, over it in a narrow one. */
export function sidebarShown(state: UiSlice): boolean {
  return state.narrowWindow ? state.sidebarOverlayOpen : !state.sidebarHidden;
}

export function toggleSidebar(state: UiSlice): Partial<UiSlice> {
  return state.narrowWindow ? { sidebarOverlayOpen: !state.sidebarOverlayOpen } : { sidebarHidden: !state.sidebarHidden };
}

export function showSidebar(state: UiSlice): Partial<UiSlice> {
  return state.narrowWindow ? { sidebarOverlayOpen: true } : { sidebarHidden: false };
}

/** A narrow window starts with the sidebar closed whenever it becomes narrow; a wide one keeps the person's choice. */
export function setNarrowWindow(state: UiSlice, narrowWindow: boolean): Partial<UiSlice> {
  if (state.narrowWindow === narrowWindow) return {};
  return { narrowWindow, sidebarOverlayOpen: false };
}

export function setDraft(state: UiSlice, conversationId: string, text: string): Partial<UiSlice> {
  if ((state.drafts[conversationId] ?? '') === text) return {};
  const drafts = { ...state.drafts };
  if (text === '') delete drafts[conversationId];
  else drafts[conversationId] = text;
  return { drafts };
}
