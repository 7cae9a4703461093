import type { SearchResultsView } from '../../src-shared/api';

/** Search over every conversation's words, and the message a hit asks the open conversation to show. */
export interface SearchSlice {
  /** The query the results answer; '' when nobody is searching. */
  readonly searchQuery: string;
  readonly searchResults: SearchResultsView | null;
  readonly searchStatus: 'idle' | 'loading' | 'ready' | 'error';
  readonly searchError: string | null;
  /** A message of the open conversation to bring into view and highlight, once it is loaded. */
  readonly focusedMessageId: string | null;
}

export const initialSearchSlice: SearchSlice = {
  searchQuery: '',
  searchResults: null,
  searchStatus: 'idle',
  searchError: null,
  focusedMessageId: null,
};

/** A deleted conversation's hits leave the results at once (opening one would only say it no longer exists). */
export function dropConversationHits(state: SearchSlice, conversationId: string): Partial<SearchSlice> {
  const results = state.searchResults;
  if (results === null || !results.hits.some((hit) => hit.conversationId === conversationId)) return {};
  return { searchResults: { ...results, hits: results.hits.filter((hit) => hit.conversationId !== conversationId) } };
}
