import { useShallow } from 'zustand/react/shallow';
import { showNotice } from '../state/conversation-actions';
import { dismissNotAnswering, shownNotAnswering } from '../state/outside-slice';
import { useAppStore } from '../state/store';
import { CloseIcon } from './icons';

export function NoticeBanner() {
  const notice = useAppStore((state) => state.notice);
  const reconnecting = useAppStore((state) => state.connectionStatus === 'reconnecting');
  const notAnswering = useAppStore(useShallow(shownNotAnswering));
  if (notice === null && !reconnecting && notAnswering.length === 0) return null;
  return (
    <div className="banners">
      {notAnswering.map((entry) => (
        <div key={entry.key} className="banner warning" role="status" data-testid="not-answering" data-kind={entry.kind}>
          <span>{entry.message}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={`Dismiss: ${entry.subject} is not answering`}
            onClick={() => useAppStore.setState((state) => dismissNotAnswering(state, entry))}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
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
