import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { createConversation, importTranscript, loadConversations } from '../state/conversation-actions';
import { openSettings } from '../state/settings-actions';
import { errorText } from '../state/api-client';
import { openMemories } from '../state/memory-actions';
import { useAppStore } from '../state/store';
import { ConversationItem } from './ConversationItem';
import { CloseIcon, ImportIcon, MemoryIcon, PlusIcon, SearchIcon, SettingsIcon } from './icons';

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
    return (
      <p className="sidebar-empty" data-testid="conversation-list-empty">
        {searching ? 'No conversation has that title.' : 'No conversations yet.'}
      </p>
    );
  }
  return (
    <ul className="conversation-list" aria-label="Conversations" aria-busy={!loaded} data-testid="conversation-list">
      {conversationIds.map((conversationId) => (
        <ConversationItem key={conversationId} conversationId={conversationId} />
      ))}
    </ul>
  );
}

/** Picks a transcript v1 file and imports it as a new conversation; a refusal names the file's first bad path. */
function ImportTranscript() {
  const inputRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again, once fixed, is noticed.
    input.value = '';
    if (file === undefined) return;
    setError(null);
    setImporting(true);
    try {
      const content = await file.text();
      if (content.trim() === '') throw new Error('The file is empty. Nothing was imported.');
      await importTranscript(content);
    } catch (caught) {
      setError(`Could not import ${file.name}: ${errorText(caught)}`);
    } finally {
      setImporting(false);
    }
  };

  return (
    <>
      {error === null ? null : (
        <div className="sidebar-notice" role="alert" data-testid="import-error">
          <span>{error}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setError(null)}>
            <CloseIcon />
          </button>
        </div>
      )}
      <button
        type="button"
        className="button ghost full"
        data-testid="import-transcript"
        disabled={importing}
        onClick={() => inputRef.current?.click()}
      >
        <ImportIcon />
        {importing ? 'Importing…' : 'Import transcript'}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept=".json,application/json"
        hidden
        tabIndex={-1}
        aria-label="Transcript file to import"
        data-testid="import-transcript-input"
        onChange={(event) => void onFileChosen(event)}
      />
    </>
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
        <ImportTranscript />
        <button type="button" className="button ghost full" data-testid="open-memories" onClick={openMemories}>
          <MemoryIcon />
          Memories
        </button>
        <button type="button" className="button ghost full" data-testid="open-settings" onClick={() => openSettings()}>
          <SettingsIcon />
          Settings
        </button>
      </div>
    </nav>
  );
}
