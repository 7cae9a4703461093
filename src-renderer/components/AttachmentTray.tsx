import type { AttachmentView } from '../../src-shared/api';
import { removeTrayAttachment } from '../state/attachment-actions';
import type { TrayAttachment } from '../state/attachments-slice';
import { useAppStore } from '../state/store';
import { AttachmentImage } from './AttachmentImage';
import { byteSizeText } from './format';
import { CloseIcon, FileIcon } from './icons';

const NO_ATTACHMENTS: readonly TrayAttachment[] = [];

/** What a stored file is, in a chip's second line: "PDF · 120 KB". */
export function attachmentDetail(attachment: AttachmentView): string {
  switch (attachment.kind) {
    case 'image':
      return attachment.width !== null && attachment.height !== null
        ? `${attachment.width}×${attachment.height} · ${byteSizeText(attachment.size)}`
        : byteSizeText(attachment.size);
    case 'pdf':
      return `PDF · ${byteSizeText(attachment.size)}`;
    case 'text':
      return `Text · ${byteSizeText(attachment.size)}`;
    default: {
      const _unknown: never = attachment.kind;
      return byteSizeText(attachment.size);
    }
  }
}

function TrayEntry({ conversationId, entry }: { readonly conversationId: string; readonly entry: TrayAttachment }) {
  const { view } = entry;
  return (
    <li
      className={view?.kind === 'image' ? 'tray-attachment image' : 'tray-attachment file'}
      data-testid="tray-attachment"
      data-state={view === null ? 'storing' : 'stored'}
      title={entry.name}
    >
      {view === null ? (
        <span className="tray-attachment-label" aria-busy="true">
          <FileIcon />
          <span className="tray-attachment-name">{entry.name}</span>
          <span className="tray-attachment-detail">Attaching…</span>
        </span>
      ) : view.kind === 'image' ? (
        <AttachmentImage attachment={view} className="tray-thumbnail" />
      ) : (
        <span className="tray-attachment-label">
          <FileIcon />
          <span className="tray-attachment-name">{view.name}</span>
          <span className="tray-attachment-detail">{attachmentDetail(view)}</span>
        </span>
      )}
      <button
        type="button"
        className="tray-attachment-remove"
        data-testid="tray-attachment-remove"
        aria-label={`Remove ${entry.name}`}
        title={`Remove ${entry.name}`}
        onClick={() => void removeTrayAttachment(conversationId, entry.localId)}
      >
        <CloseIcon />
      </button>
    </li>
  );
}

/** The files waiting to go with the next message: thumbnails for images, chips for other files, each removable. */
export function AttachmentTray({ conversationId }: { readonly conversationId: string }) {
  const tray = useAppStore((state) => state.trays[conversationId] ?? NO_ATTACHMENTS);
  if (tray.length === 0) return null;
  return (
    <ul className="attachment-tray" data-testid="attachment-tray" aria-label="Attached files">
      {tray.map((entry) => (
        <TrayEntry key={entry.localId} conversationId={conversationId} entry={entry} />
      ))}
    </ul>
  );
}
