import type { AttachmentView } from '../../src-shared/api';

/** A file in the composer's tray: being stored by the host (`view` null), then stored and waiting for its message. */
export interface TrayAttachment {
  /** Names the entry before the host has given the attachment its id. */
  readonly localId: string;
  readonly name: string;
  /** The host's row once it has stored the file. */
  readonly view: AttachmentView | null;
}

export interface AttachmentsSlice {
  /** The composer's tray, per conversation. */
  readonly trays: Readonly<Record<string, readonly TrayAttachment[]>>;
  /** Why files were not attached, per conversation: shown beside the composer until dismissed or the next files. */
  readonly attachmentProblems: Readonly<Record<string, readonly string[]>>;
  /** The image shown enlarged over the window, or null. */
  readonly enlargedAttachment: AttachmentView | null;
}

export const initialAttachmentsSlice: AttachmentsSlice = {
  trays: {},
  attachmentProblems: {},
  enlargedAttachment: null,
};

function withTray(state: AttachmentsSlice, conversationId: string, tray: readonly TrayAttachment[]): Partial<AttachmentsSlice> {
  const trays = { ...state.trays };
  if (tray.length === 0) delete trays[conversationId];
  else trays[conversationId] = tray;
  return { trays };
}

export function addToTray(state: AttachmentsSlice, conversationId: string, entries: readonly TrayAttachment[]): Partial<AttachmentsSlice> {
  if (entries.length === 0) return {};
  return withTray(state, conversationId, [...(state.trays[conversationId] ?? []), ...entries]);
}

/** Entries that come back to the tray (a queued message cancelled or refused) go before the ones added since. */
export function prependToTray(state: AttachmentsSlice, conversationId: string, entries: readonly TrayAttachment[]): Partial<AttachmentsSlice> {
  if (entries.length === 0) return {};
  return withTray(state, conversationId, [...entries, ...(state.trays[conversationId] ?? [])]);
}

/** The host stored the file of `localId`; an entry removed meanwhile stays removed. */
export function markStored(state: AttachmentsSlice, conversationId: string, localId: string, view: AttachmentView): Partial<AttachmentsSlice> {
  const tray = state.trays[conversationId] ?? [];
  if (!tray.some((entry) => entry.localId === localId)) return {};
  return withTray(state, conversationId, tray.map((entry) => (entry.localId === localId ? { ...entry, view } : entry)));
}

export function removeFromTray(state: AttachmentsSlice, conversationId: string, localIds: readonly string[]): Partial<AttachmentsSlice> {
  const tray = state.trays[conversationId] ?? [];
  const kept = tray.filter((entry) => !localIds.includes(entry.localId));
  return kept.length === tray.length ? {} : withTray(state, conversationId, kept);
}

export function setAttachmentProblems(state: AttachmentsSlice, conversationId: string, problems: readonly string[]): Partial<AttachmentsSlice> {
  const current = state.attachmentProblems[conversationId] ?? [];
  if (current.length === 0 && problems.length === 0) return {};
  const attachmentProblems = { ...state.attachmentProblems };
  if (problems.length === 0) delete attachmentProblems[conversationId];
  else attachmentProblems[conversationId] = problems;
  return { attachmentProblems };
}
