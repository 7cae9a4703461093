import { messageTimestamp } from './format';

/** When a message was written, in the person's locale: shown on hover or focus, the full date in its tooltip. */
export function MessageTime({ iso }: { readonly iso: string }) {
  const timestamp = messageTimestamp(iso);
  if (timestamp === null) return null;
  return (
    <time className="message-time" data-testid="message-time" dateTime={iso} title={timestamp.full}>
      {timestamp.shown}
    </time>
  );
}
