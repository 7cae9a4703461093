import { useEffect, useState } from 'react';
import type { AttachmentView } from '../../src-shared/api';
import { exceedsImageMegapixels } from '../../src-shared/attachments';
import { attachmentUrl } from '../state/attachment-actions';

type Loaded =
  | { readonly state: 'loading' }
  | { readonly state: 'shown'; readonly attachmentId: string; readonly url: string }
  | { readonly state: 'failed'; readonly attachmentId: string };

/**
 * An attached image, read through the Api into an object URL. Only PNG, JPEG, WebP and GIF are ever stored as images,
 * and an `<img>` never runs what it shows: no attachment is put into the page as markup. An image stored before the
 * megapixel limit that declares more is never read nor decoded (decoding one froze the window for 19 s); the rest
 * decode off the main thread (`decoding="async"`).
 */
export function AttachmentImage({ attachment, className }: { readonly attachment: AttachmentView; readonly className: string }) {
  const [result, setResult] = useState<Loaded>({ state: 'loading' });
  const tooLarge = attachment.width !== null && attachment.height !== null && exceedsImageMegapixels(attachment.width, attachment.height);
  useEffect(() => {
    if (tooLarge) return;
    let current = true;
    attachmentUrl(attachment).then(
      (url) => {
        if (current) setResult({ state: 'shown', attachmentId: attachment.id, url });
      },
      () => {
        if (current) setResult({ state: 'failed', attachmentId: attachment.id });
      },
    );
    return () => {
      current = false;
    };
  }, [attachment, tooLarge]);
  // A row re-rendered with a fresh copy of the same attachment keeps showing it while the cached URL is looked up.
  const loaded: Loaded = result.state !== 'loading' && result.attachmentId !== attachment.id ? { state: 'loading' } : result;
  const size = attachment.width !== null && attachment.height !== null ? { width: attachment.width, height: attachment.height } : {};
  if (tooLarge) {
    return (
      <span className={`${className} attachment-image-placeholder failed`} role="img" aria-label={`${attachment.name} (too large to show)`}>
        {attachment.name}
      </span>
    );
  }
  switch (loaded.state) {
    case 'loading':
      return <span className={`${className} attachment-image-placeholder`} role="img" aria-label={attachment.name} aria-busy="true" />;
    case 'failed':
      return (
        <span className={`${className} attachment-image-placeholder failed`} role="img" aria-label={`${attachment.name} (could not be loaded)`}>
          {attachment.name}
        </span>
      );
    case 'shown':
      return <img className={className} src={loaded.url} alt={attachment.name} {...size} decoding="async" data-testid="attachment-image" />;
    default: {
      const _unknown: never = loaded;
      return null;
    }
  }
}
