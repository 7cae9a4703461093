import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { describeImportSummary } from '../../src-shared/import-summary';
import { createConversation, importConversationsFile, loadConversations, loadMoreConversations } from '../state/conversation-actions';
import { openSettings } from '../state/settings-actions';
import { errorText } from '../state/api-client';
import { openMemories } from '../state/memory-actions';
import { searchMessages } from '../state/search-actions';
import { useAppStore } from '../state/store';
import { ConversationItem } from './ConversationItem';
import { MessageHits, moveThroughResults } from './SearchResults';
import { ExportAllConversations } from './ExportAllConversations';
import { sidebarShown } from '../state/ui-slice';
import { openShortcuts } from '../state/window-actions';
import { isApplePlatform } from './brain-shortcuts';
import { CloseIcon, ImportIcon, KeyboardIcon, MemoryIcon, PlusIcon, SearchIcon, SettingsIcon } from './icons';
import { windowAriaShortcut, windowShortcutLabel } from './shortcuts';
import { SIDEBAR_ID, SidebarToggle } from './SidebarToggle';

const SEARCH_DELAY_MS = 200;
/** The next page of conversations loads when the list comes this close to its end. */
const LOAD_MORE_THRESHOLD_PX = 600;
/** An entry's height before it is measured: a title line and a meta line. */
const ESTIMATED_ITEM_PX = 52;
/** The height assumed for a list that has no layout yet (hidden, or not laid out): its first screenful renders. */
const UNLAID_LIST_PX = 800;

/** The list's size as the virtualizer sees it; a list with no height yet still renders its first entries. */
function observeListRect(instance: Virtualizer<HTMLDivElement, HTMLLIElement>, report: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => report(rect.height === 0 ? { ...rect, height: UNLAID_LIST_PX } : rect));
}

function ConversationSearch() {
  const query = useAppStore((state) => state.conversationQuery);
  const focusRequests = useAppStore((state) => state.searchFocusRequests);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequests === 0) return;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [focusRequests]);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const onChange = (value: string): void => {
    useAppStore.setState({ conversationQuery: value });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void loadConversations(value);
      void searchMessages(value);
    }, SEARCH_DELAY_MS);
  };

  return (
    <label className="search-field">
      <SearchIcon />
      <input
        ref={inputRef}
        type="search"
        data-testid="conversation-search"
        aria-keyshortcuts={windowAriaShortcut('focus-search', isApplePlatform())}
        placeholder="Search conversations"
        aria-label="Search conversations: titles and every message"
        value={query}
        maxLength={500}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={moveThroughResults}
      />
    </label>
  );
}

function ConversationList() {
  const conversationIds = useAppStore((state) => state.conversationOrder);
  const loaded = useAppStore((state) => state.conversationsLoaded);
  const searching = useAppStore((state) => state.conversationQuery.trim() !== '');

  if (searching) {
    return (
      <div className="search-results" data-testid="search-results">
        {loaded && conversationIds.length === 0 ? (
          <p className="sidebar-empty" data-testid="conversation-list-empty">
            No conversation has that title.
          </p>
        ) : (
          <ConversationItems conversationIds={conversationIds} loaded={loaded} />
        )}
        <MessageHits />
      </div>
    );
  }
  if (loaded && conversationIds.length === 0) {
    return (
      <p className="sidebar-empty" data-testid="conversation-list-empty">
        No conversations yet.
      </p>
    );
  }
  return <VirtualConversationItems conversationIds={conversationIds} loaded={loaded} />;
}

/**
 * The list without a search: virtualized like the message list (only the entries in view and a few around them are on
 * the page), paged from the newest as it scrolls to its end.
 */
function VirtualConversationItems({ conversationIds, loaded }: { readonly conversationIds: readonly string[]; readonly loaded: boolean }) {
  const haveMore = useAppStore((state) => state.conversationsHaveMore);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer is a mutable object read afresh on every render, which the compiler's memoisation cannot model.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    count: conversationIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ITEM_PX,
    getItemKey: (index) => conversationIds[index] ?? index,
    observeElementRect: observeListRect,
    overscan: 8,
  });

  const maybeLoadMore = (): void => {
    const element = scrollRef.current;
    if (element === null || !haveMore) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_MORE_THRESHOLD_PX) void loadMoreConversations();
  };

  // A first page shorter than the list leaves nothing to scroll, so the next page is fetched at once.
  useEffect(() => {
    const element = scrollRef.current;
    if (element === null || !haveMore || element.clientHeight === 0) return;
    if (element.scrollHeight <= element.clientHeight + LOAD_MORE_THRESHOLD_PX) void loadMoreConversations();
  }, [conversationIds.length, haveMore]);

  return (
    <div ref={scrollRef} className="conversation-scroll" onScroll={maybeLoadMore}>
      <ul
        className="conversation-list is-virtual"
        aria-label="Conversations"
        aria-busy={!loaded}
        data-testid="conversation-list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const conversationId = conversationIds[item.index];
          if (conversationId === undefined) return null;
          const slot = { index: item.index, setSize: conversationIds.length, start: item.start, measure: virtualizer.measureElement };
          return <ConversationItem key={conversationId} conversationId={conversationId} slot={slot} />;
        })}
      </ul>
    </div>
  );
}

function ConversationItems({ conversationIds, loaded }: { readonly conversationIds: readonly string[]; readonly loaded: boolean }) {
  return (
    <ul className="conversation-list" aria-label="Conversations" aria-busy={!loaded} data-testid="conversation-list">
      {conversationIds.map((conversationId) => (
        <ConversationItem key={conversationId} conversationId={conversationId} />
      ))}
    </ul>
  );
}

/**
 * Picks a file of conversations (a transcript v1, ChatGPT's or Claude's conversations.json, or ChatGPT's export zip)
 * and imports it, showing progress and then the summary; a refusal names the file's first bad path.
 */
function ImportTranscript() {
  const inputRef = useRef<HTMLInputElement>(null);
  const progress = useAppStore((state) => state.importProgress);
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again, once fixed, is noticed.
    input.value = '';
    if (file === undefined) return;
    setError(null);
    setSummary(null);
    setImporting(true);
    try {
      const imported = await importConversationsFile(file.name, new Uint8Array(await file.arrayBuffer()));
      setSummary(describeImportSummary(imported));
    } catch (caught) {
      setError(`Could not import ${file.name}: ${errorText(caught)}`);
    } finally {
      setImporting(false);
    }
  };

  const label = !importing ? 'Import conversations' : progress !== null && progress.total > 0 ? `Importing… ${progress.done} of ${progress.total}` : 'Importing…';
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
      {summary === null ? null : (
        <div className="sidebar-notice" role="status" data-testid="import-summary">
          <span>{summary}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setSummary(null)}>
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
        {label}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept=".json,.zip,application/json,application/zip"
        hidden
        tabIndex={-1}
        aria-label="Conversations file to import: a transcript, or a ChatGPT or Claude data export"
        data-testid="import-transcript-input"
        onChange={(event) => void onFileChosen(event)}
      />
    </>
  );
}

export function Sidebar() {
  const shown = useAppStore(sidebarShown);
  const overlay = useAppStore((state) => state.narrowWindow);
  const hideToggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  const apple = isApplePlatform();

  // The overlay covers the window's only other column, which is inert meanwhile: focus moves into it.
  useEffect(() => {
    if (!overlay || !shown) return;
    if (!navRef.current?.contains(document.activeElement)) hideToggleRef.current?.focus();
  }, [overlay, shown]);

  return (
    <nav
      ref={navRef}
      id={SIDEBAR_ID}
      className={overlay ? 'sidebar is-overlay' : 'sidebar'}
      aria-label="Conversations"
      hidden={!shown}
      data-testid="sidebar"
    >
      <div className="sidebar-header">
        <span className="app-name">Anybrain</span>
        <SidebarToggle buttonRef={hideToggleRef} testId="hide-sidebar" />
      </div>
      <div className="sidebar-new">
        <button
          type="button"
          className="button primary small full"
          data-testid="new-conversation"
          aria-keyshortcuts={windowAriaShortcut('new-conversation', apple)}
          title={`New conversation (${windowShortcutLabel('new-conversation', apple)})`}
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
        <ExportAllConversations />
        <button type="button" className="button ghost full" data-testid="open-memories" onClick={openMemories}>
          <MemoryIcon />
          Memories
        </button>
        <button
          type="button"
          className="button ghost full"
          data-testid="open-shortcuts"
          aria-haspopup="dialog"
          aria-keyshortcuts={windowAriaShortcut('show-shortcuts', apple)}
          onClick={openShortcuts}
        >
          <KeyboardIcon />
          Keyboard shortcuts
        </button>
        <button type="button" className="button ghost full" data-testid="open-settings" onClick={() => openSettings()}>
          <SettingsIcon />
          Settings
        </button>
      </div>
    </nav>
  );
}
