import type { AttachmentView } from '../../src-shared/api';
import { attachmentLink } from '../../src-shared/attachment-link';
import { ATTACHMENT_SIZE_LIMITS, MAX_ATTACHMENTS_PER_MESSAGE } from '../../src-shared/attachments';
import { byteSizeText } from '../components/format';
import { api, errorText } from './api-client';
import { addToTray, markStored, removeFromTray, setAttachmentProblems } from './attachments-slice';
import { showNotice } from './conversation-actions';
import { useAppStore } from './store';

const { getState, setState } = useAppStore;

/** No kind of attachment is larger: a bigger file is refused before its bytes are read into the window. */
const LARGEST_ATTACHMENT = Math.max(...Object.values(ATTACHMENT_SIZE_LIMITS));

let nextLocalId = 0;

/** The file's bytes as base64, the form `addAttachment` takes them in. */
async function base64Of(file: Blob): Promise<string> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
  // "data:<type>;base64,<bytes>"
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}

/**
 * Attaches files picked, pasted or dropped into the composer: each goes to the host, which sniffs its type, checks
 * its size and stores it, or refuses it with a sentence shown beside the composer. Files beyond the per-message
 * number are not sent at all.
 */
export async function attachFiles(conversationId: string, files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  const problems: string[] = [];
  const room = MAX_ATTACHMENTS_PER_MESSAGE - (getState().trays[conversationId]?.length ?? 0);
  const accepted: { readonly localId: string; readonly file: File }[] = [];
  for (const file of files) {
    if (accepted.length >= room) {
      problems.push(`${file.name} was not attached: a message takes at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`);
    } else if (file.size > LARGEST_ATTACHMENT) {
      problems.push(
        `${file.name} is ${byteSizeText(file.size)}, over the ${byteSizeText(LARGEST_ATTACHMENT)} limit for any attachment. Attach a smaller file.`,
      );
    } else {
      nextLocalId += 1;
      accepted.push({ localId: `local-${nextLocalId}`, file });
    }
  }
  setState((state) => ({
    ...setAttachmentProblems(state, conversationId, problems),
    ...addToTray(state, conversationId, accepted.map(({ localId, file }) => ({ localId, name: file.name, view: null }))),
  }));
  await Promise.all(
    accepted.map(async ({ localId, file }) => {
      try {
        const view = await api().addAttachment({ name: file.name, dataBase64: await base64Of(file) });
        // An image is shown from the bytes already here, without reading them back from the host.
        if (view.kind === 'image') rememberAttachmentUrl(view.id, URL.createObjectURL(file));
        const stillInTray = getState().trays[conversationId]?.some((entry) => entry.localId === localId) === true;
        if (stillInTray) setState((state) => markStored(state, conversationId, localId, view));
        // Removed while it was being stored: the host lets go of it too.
        else await discardPendingAttachment(view.id);
      } catch (error) {
        setState((state) => ({
          ...removeFromTray(state, conversationId, [localId]),
          ...setAttachmentProblems(state, conversationId, [...(state.attachmentProblems[conversationId] ?? []), errorText(error)]),
        }));
      }
    }),
  );
}

async function discardPendingAttachment(attachmentId: string): Promise<void> {
  try {
    await api().removeAttachment({ id: attachmentId });
  } catch (error) {
    showNotice(`Could not remove the attachment: ${errorText(error)}`);
  }
}

/** Takes a file out of the tray before sending; the host forgets it unless another message uses the same bytes. */
export async function removeTrayAttachment(conversationId: string, localId: string): Promise<void> {
  const entry = getState().trays[conversationId]?.find((candidate) => candidate.localId === localId);
  if (entry === undefined) return;
  setState((state) => removeFromTray(state, conversationId, [localId]));
  if (entry.view !== null) await discardPendingAttachment(entry.view.id);
}

export function dismissAttachmentProblems(conversationId: string): void {
  setState((state) => setAttachmentProblems(state, conversationId, []));
}

export function enlargeAttachment(attachment: AttachmentView | null): void {
  setState({ enlargedAttachment: attachment });
}

/** Object URLs of attachments read this session, by attachment id: the bytes behind an id never change. */
const attachmentUrls = new Map<string, Promise<string>>();

function rememberAttachmentUrl(attachmentId: string, url: string): void {
  attachmentUrls.set(attachmentId, Promise.resolve(url));
}

/**
 * The media type an opened or shown file gets. A text file is only ever shown as plain text, whatever the host
 * recorded, so no attached file can run as a page in the window's origin.
 */
function blobType(attachment: AttachmentView): string {
  switch (attachment.kind) {
    case 'image':
    case 'pdf':
      return attachment.mediaType;
    case 'text':
      return 'text/plain;charset=utf-8';
    default: {
      const _unknown: never = attachment.kind;
      return 'application/octet-stream';
    }
  }
}

/** An object URL of the attachment's bytes, read from the host once per session. */
export function attachmentUrl(attachment: AttachmentView): Promise<string> {
  const known = attachmentUrls.get(attachment.id);
  if (known !== undefined) return known;
  const reading = api()
    .readAttachment({ id: attachment.id })
    .then(({ dataBase64 }) => {
      const binary = atob(dataBase64);
      const bytes = new Uint8Array(binary.length);
      for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
      return URL.createObjectURL(new Blob([bytes], { type: blobType(attachment) }));
    });
  // A failed read is tried again the next time the attachment is shown.
  reading.catch(() => attachmentUrls.delete(attachment.id));
  attachmentUrls.set(attachment.id, reading);
  return reading;
}

/**
 * Opens a file attachment: in the desktop app through the main process's one opener (the system viewer, on a copy
 * whose extension the bytes decide); in a browser as its bytes in a new tab.
 */
export async function openAttachment(attachment: AttachmentView): Promise<void> {
  if (getState().host === 'electron') {
    window.open(attachmentLink({ sha256: attachment.sha256, name: attachment.name }));
    return;
  }
  try {
    window.open(await attachmentUrl(attachment), '_blank', 'noopener');
  } catch (error) {
    showNotice(`Could not open ${attachment.name}: ${errorText(error)}`);
  }
}

/** Forgets every object URL, for tests. */
export function forgetAttachmentUrls(): void {
  attachmentUrls.clear();
}
