import type { ConnectionStatus } from '../transport/connection';

export interface UiSlice {
  /** Unsent composer text per conversation. */
  readonly drafts: Readonly<Record<string, string>>;
  /** A problem that belongs to no particular control, shown in a dismissible banner. */
  readonly notice: string | null;
  readonly connectionStatus: ConnectionStatus;
  /** The "Show request" dialog of the open conversation. */
  readonly requestPreviewOpen: boolean;
}

export const initialUiSlice: UiSlice = {
  drafts: {},
  notice: null,
  connectionStatus: 'connecting',
  requestPreviewOpen: false,
};

export function setDraft(state: UiSlice, conversationId: string, text: string): Partial<UiSlice> {
  if ((state.drafts[conversationId] ?? '') === text) return {};
  const drafts = { ...state.drafts };
  if (text === '') delete drafts[conversationId];
  else drafts[conversationId] = text;
  return { drafts };
}
