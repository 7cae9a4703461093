/**
 * The address a file chip opens in the desktop app: `window.open` hands it to the main process's window-open handler,
 * the one place allowed to give a file to the system viewer. It names the stored file by its sha256 (the main process
 * finds it in `<dataDir>/attachments` and decides its type from the bytes) and carries the attachment's name only to
 * title the copy it opens.
 */
export const ATTACHMENT_LINK_PROTOCOL = 'anybrain-attachment:';

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export interface AttachmentLink {
  readonly sha256: string;
  readonly name: string;
}

export function attachmentLink({ sha256, name }: AttachmentLink): string {
  return `${ATTACHMENT_LINK_PROTOCOL}${sha256}?name=${encodeURIComponent(name)}`;
}

/** The file an attachment link names, or null for any other address or a malformed one. */
export function parseAttachmentLink(url: string): AttachmentLink | null {
  if (!url.startsWith(ATTACHMENT_LINK_PROTOCOL)) return null;
  const rest = url.slice(ATTACHMENT_LINK_PROTOCOL.length);
  const query = rest.indexOf('?');
  const sha256 = query === -1 ? rest : rest.slice(0, query);
  if (!SHA256_PATTERN.test(sha256)) return null;
  const name = query === -1 ? '' : (new URLSearchParams(rest.slice(query + 1)).get('name') ?? '');
  return { sha256, name };
}
