import { enlargeAttachment } from '../state/attachment-actions';
import { useAppStore } from '../state/store';
import { AttachmentImage } from './AttachmentImage';
import { Dialog } from './Dialog';

/** An attached image at full size, over the window; Escape, the close button or the backdrop closes it. */
export function ImageViewer() {
  const attachment = useAppStore((state) => state.enlargedAttachment);
  if (attachment === null) return null;
  return (
    <Dialog
      title={attachment.name}
      titleId="image-viewer-title"
      testId="image-viewer"
      closeTestId="image-viewer-close"
      closeLabel="Close the image"
      onClose={closeImageViewer}
      wide
    >
      <div className="image-viewer">
        <AttachmentImage attachment={attachment} className="image-viewer-image" />
      </div>
    </Dialog>
  );
}

function closeImageViewer(): void {
  enlargeAttachment(null);
}
