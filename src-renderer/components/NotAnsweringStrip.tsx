import { useShallow } from 'zustand/react/shallow';
import { dismissNotAnswering, shownNotAnswering } from '../state/outside-slice';
import { useAppStore } from '../state/store';
import { CloseIcon } from './icons';

/**
 * What outside Anybrain is not answering (the keychain, the disk, an MCP server, a provider), one line each above the
 * conversation: in the page's flow, so it never covers the header's controls while it lasts.
 */
export function NotAnsweringStrip() {
  const shown = useAppStore(useShallow(shownNotAnswering));
  if (shown.length === 0) return null;
  return (
    <ul className="not-answering" aria-label="Not answering">
      {shown.map((entry) => (
        <li key={entry.key} role="status" data-testid="not-answering" data-kind={entry.kind}>
          <span>{entry.message}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={`Dismiss: ${entry.subject} is not answering`}
            onClick={() => useAppStore.setState((state) => dismissNotAnswering(state, entry))}
          >
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}
