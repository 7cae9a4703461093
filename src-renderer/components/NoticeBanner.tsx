import { showNotice } from '../state/conversation-actions';
import { useAppStore } from '../state/store';
import { CloseIcon } from './icons';

export function NoticeBanner() {
  const notice = useAppStore((state) => state.notice);
  const reconnecting = useAppStore((state) => state.connectionStatus === 'reconnecting');
  if (notice === null && !reconnecting) return null;
  return (
    <div className="banners">
      {reconnecting ? (
        <div className="banner warning" role="status" data-testid="connection-banner">
          Connection to Anybrain lost. Reconnecting…
        </div>
      ) : null}
      {notice === null ? null : (
        <div className="banner" role="alert" data-testid="notice">
          <span>{notice}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => showNotice(null)}>
            <CloseIcon />
          </button>
        </div>
      )}
    </div>
  );
}
