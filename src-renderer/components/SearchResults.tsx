import { memo, type KeyboardEvent } from 'react';
import type { SearchHitView } from '../../src-shared/api';
import { snippetSegments } from '../../src-shared/search';
import { openSearchHit } from '../state/search-actions';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';
import { shortTimestamp } from './format';

/**
 * A snippet as text with its matched parts in <mark>: every character, model output and user text alike, goes in as
 * a text node, so nothing in a snippet can become markup.
 */
export function SearchSnippet({ snippet }: { readonly snippet: string }) {
  return (
    <span className="search-snippet" data-testid="search-snippet">
      {snippetSegments(snippet).map((segment, index) => (segment.marked ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>))}
    </span>
  );
}

function speaker(hit: SearchHitView): string {
  switch (hit.role) {
    case null:
      return 'Title';
    case 'user':
      return 'You';
    case 'assistant':
      return hit.brain === null ? 'Assistant' : brainLabel(hit.brain);
    case 'system':
      return 'System';
    default: {
      const unknownRole: never = hit.role;
      return unknownRole;
    }
  }
}

/** The results' buttons, in order: the arrow keys move between them and back to the search field. */
function resultButtons(from: HTMLElement): HTMLElement[] {
  const sidebar = from.closest('.sidebar');
  return sidebar === null ? [] : Array.from(sidebar.querySelectorAll<HTMLElement>('[data-search-result]'));
}

/** Arrow keys from the search field into the results, between them, and back up to the field. */
export function moveThroughResults(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = resultButtons(event.currentTarget);
  if (buttons.length === 0) return;
  const index = buttons.indexOf(event.currentTarget);
  event.preventDefault();
  if (event.key === 'ArrowDown') {
    buttons[Math.min(index + 1, buttons.length - 1)]?.focus();
    return;
  }
  if (index <= 0) {
    event.currentTarget.closest('.sidebar')?.querySelector<HTMLElement>('[data-testid="conversation-search"]')?.focus();
    return;
  }
  buttons[index - 1]?.focus();
}

const SearchHit = memo(function SearchHit({ hit }: { readonly hit: SearchHitView }) {
  return (
    <li>
      <button
        type="button"
        className="search-hit"
        data-testid="search-hit"
        data-search-result=""
        data-conversation-id={hit.conversationId}
        data-message-id={hit.messageId ?? ''}
        onClick={() => void openSearchHit(hit)}
        onKeyDown={moveThroughResults}
      >
        <span className="search-hit-heading">
          <span className="search-hit-title">{hit.conversationTitle}</span>
          <span className="search-hit-time">{shortTimestamp(hit.createdAt)}</span>
        </span>
        <span className="search-hit-line">
          <span className="search-hit-speaker">{speaker(hit)}:</span> <SearchSnippet snippet={hit.snippet} />
        </span>
      </button>
    </li>
  );
});

/** The messages whose words match the search, best first; titles are listed above by the conversation list. */
export function MessageHits() {
  const results = useAppStore((state) => state.searchResults);
  const status = useAppStore((state) => state.searchStatus);
  const error = useAppStore((state) => state.searchError);
  const messageHits = results?.hits.filter((hit) => hit.messageId !== null) ?? [];
  return (
    <section className="search-hits" aria-label="Messages that match" data-testid="search-hits">
      <h2 className="search-hits-heading">In messages</h2>
      {results?.indexing ? (
        <p className="search-hits-note" data-testid="search-indexing">
          Still indexing older messages: {results.indexing.percent}%
        </p>
      ) : null}
      {status === 'error' ? (
        <p className="search-hits-note" role="alert">
          Search failed: {error}
        </p>
      ) : null}
      {status === 'ready' && messageHits.length === 0 ? (
        <p className="search-hits-note" data-testid="search-hits-empty">
          No message has those words.
        </p>
      ) : null}
      {messageHits.length > 0 ? (
        <ul className="search-hit-list">
          {messageHits.map((hit) => (
            <SearchHit key={hit.messageId} hit={hit} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
