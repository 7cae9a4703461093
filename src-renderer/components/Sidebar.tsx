import { useEffect, useRef } from 'react';
import { createConversation, loadConversations, openSettings } from '../state/actions';
import { useAppStore } from '../state/store';
import { ConversationItem } from './ConversationItem';
import { PlusIcon, SearchIcon, SettingsIcon } from './icons';

const SEARCH_DELAY_MS = 200;

function ConversationSearch() {
  const query = useAppStore((state) => state.conversationQuery);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const onChange = (value: string): void => {
    useAppStore.setState({ conversationQuery: value });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void loadConversations(value), SEARCH_DELAY_MS);
  };

  return (
    <label className="search-field">
      <SearchIcon />
      <input
        type="search"
        data-testid="conversation-search"
        placeholder="Search conversations"
        aria-label="Search conversations by title"
        value={query}
        maxLength={500}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

function ConversationList() {
  const conversationIds = useAppStore((state) => state.conversationOrder);
  const loaded = useAppStore((state) => state.conversationsLoaded);
  const searching = useAppStore((state) => state.conversationQuery.trim() !== '');

  if (loaded && conversationIds.length === 0) {
    return <p className="sidebar-empty">{searching ? 'No conversation has that title.' : 'No conversations yet.'}</p>;
  }
  return (
    <ul className="conversation-list" aria-label="Conversations">
      {conversationIds.map((conversationId) => (
        <ConversationItem key={conversationId} conversationId={conversationId} />
      ))}
    </ul>
  );
}

export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Conversations">
      <div className="sidebar-header">
        <span className="app-name">Anybrain</span>
        <button
          type="button"
          className="button primary small"
          data-testid="new-conversation"
          onClick={() => void createConversation()}
        >
          <PlusIcon />
          New conversation
        </button>
      </div>
      <ConversationSearch />
      <ConversationList />
      <div className="sidebar-footer">
        <button type="button" className="button ghost full" data-testid="open-settings" onClick={openSettings}>
          <SettingsIcon />
          Settings
        </button>
      </div>
    </nav>
  );
}
