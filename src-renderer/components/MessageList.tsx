import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { loadNewerMessages, loadOlderMessages, openConversation, showLatestMessages } from '../state/conversation-actions';
import { selectReplyRunning } from '../state/selectors';
import { useAppStore } from '../state/store';
import { ArrowDownIcon } from './icons';
import { MessageRow } from './MessageRow';

/** Older messages load when the view comes this close to the top; newer ones the window let go of, to the bottom. */
const LOAD_OLDER_THRESHOLD_PX = 400;
/** Within this distance of the end the view counts as at the bottom and follows new text. */
const STICK_TO_END_THRESHOLD_PX = 48;
/** Further than this from the end, a button offers the way back. */
const JUMP_BUTTON_DISTANCE_PX = 600;

function PageStatus({ conversationId }: { readonly conversationId: string }) {
  const pageStatus = useAppStore((state) => state.pageStatus);
  const pageError = useAppStore((state) => state.pageError);
  const loadingOlder = useAppStore((state) => state.loadingOlder);
  const isEmpty = useAppStore((state) => state.messageIds.length === 0);

  if (pageStatus === 'error') {
    return (
      <div className="list-overlay" role="alert">
        <p>Could not load messages: {pageError}</p>
        <button type="button" className="button small" onClick={() => void openConversation(conversationId)}>
          Try again
        </button>
      </div>
    );
  }
  if (pageStatus === 'loading') return <div className="list-overlay muted">Loading messages…</div>;
  if (pageStatus === 'ready' && isEmpty) {
    return <div className="list-overlay muted">No messages yet. Write the first one below.</div>;
  }
  if (loadingOlder) return <div className="loading-older">Loading older messages…</div>;
  return null;
}

/** A row's height before it is drawn and measured, and the list's padding above and below its rows. */
const ESTIMATED_ROW_PX = 120;
const LIST_PADDING_START_PX = 16;
const LIST_PADDING_END_PX = 24;

/**
 * The open conversation's messages. The list of rows mounts once the first page is in, so its first frame already
 * draws the rows it opens on (the newest, or a message opened from search) instead of the oldest of the page first.
 */
export function MessageList({ conversationId }: { readonly conversationId: string }) {
  const pageReady = useAppStore((state) => state.pageStatus === 'ready');
  if (pageReady) return <LoadedMessageList conversationId={conversationId} />;
  return (
    <div className="message-list-frame">
      <div className="message-scroll" data-testid="message-list" role="log" aria-label="Messages" aria-busy={false} tabIndex={0}>
        <div className="message-list-inner" />
      </div>
      <PageStatus conversationId={conversationId} />
    </div>
  );
}

/** Where the view starts, from estimated heights: at the end, or with the message opened from search in the middle. */
function openingOffset(rowCount: number, focusedIndex: number, viewHeight: number): number {
  const end = LIST_PADDING_START_PX + rowCount * ESTIMATED_ROW_PX + LIST_PADDING_END_PX - viewHeight;
  const target = focusedIndex < 0 ? end : LIST_PADDING_START_PX + focusedIndex * ESTIMATED_ROW_PX - (viewHeight - ESTIMATED_ROW_PX) / 2;
  return Math.max(0, Math.min(end, target));
}

/**
 * The open conversation's messages once its first page is in: paged from the newest, virtualized, following the end
 * while it grows. The virtualizer keeps each row's measured height by message id, so a page the window let go of and
 * fetched again comes back at the height it had, and a row in view stays where it is when pages come or go at either
 * end.
 */
function LoadedMessageList({ conversationId }: { readonly conversationId: string }) {
  const messageIds = useAppStore((state) => state.messageIds);
  const hasOlder = useAppStore((state) => state.hasOlder);
  const loadingOlder = useAppStore((state) => state.loadingOlder);
  const hasNewer = useAppStore((state) => state.hasNewer);
  const loadingNewer = useAppStore((state) => state.loadingNewer);
  const focusedMessageId = useAppStore((state) => state.focusedMessageId);
  const replyRunning = useAppStore((state) => selectReplyRunning(state, conversationId));
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrolledToEndOnOpen = useRef(false);
  const lastSeenId = useRef<string | undefined>(undefined);
  const [awayFromEnd, setAwayFromEnd] = useState(false);
  // Rows appended while the window does not reach the newest (a newer page fetched again, the last one included) are
  // not new: the view stays on the row it shows instead of following them to the end.
  const [reachesEnd, setReachesEnd] = useState(!hasNewer);
  useEffect(() => setReachesEnd(!hasNewer), [hasNewer]);

  // The view's height is not known before the first frame; the window's is at least as tall.
  const [startOffset] = useState(() => openingOffset(messageIds.length, focusedMessageId === null ? -1 : messageIds.indexOf(focusedMessageId), window.innerHeight));

  // The virtualizer is a mutable object read afresh on every render, which the compiler's memoisation cannot model.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: messageIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => messageIds[index] ?? index,
    overscan: 6,
    paddingStart: LIST_PADDING_START_PX,
    paddingEnd: LIST_PADDING_END_PX,
    initialOffset: startOffset,
    // Chat order: prepending older pages keeps the view still; appending while at the end follows it.
    anchorTo: 'end',
    followOnAppend: reachesEnd && !hasNewer,
    scrollEndThreshold: STICK_TO_END_THRESHOLD_PX,
    // A growing reply changes the list's height and moves nothing else on every frame: the virtualizer writes heights
    // and row positions (as `top`, no compositor layer per row) straight to the elements, and the list renders again
    // only when the rows in view change, not once more per frame from inside the resize observer.
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
  });

  // The rows drawn first are those at the opening offset: the element starts there too, before the virtualizer reads it.
  const attachScrollElement = useCallback(
    (element: HTMLDivElement | null) => {
      scrollRef.current = element;
      if (element !== null) element.scrollTop = startOffset;
    },
    [startOffset],
  );

  const lastId = messageIds[messageIds.length - 1];

  useLayoutEffect(() => {
    if (messageIds.length === 0 || scrolledToEndOnOpen.current) return;
    scrolledToEndOnOpen.current = true;
    lastSeenId.current = lastId;
    virtualizer.scrollToEnd();
  }, [messageIds.length, lastId, virtualizer]);

  // A message opened from a search result: brought to the middle of the view (MessageList's rows have measured
  // heights, so the virtualizer corrects its estimate as rows around it render).
  useLayoutEffect(() => {
    if (focusedMessageId === null) return;
    const index = messageIds.indexOf(focusedMessageId);
    if (index < 0) return;
    scrolledToEndOnOpen.current = true;
    virtualizer.scrollToIndex(index, { align: 'center' });
  }, [focusedMessageId, messageIds, virtualizer]);

  // A message the user just sent brings the view back to the end, even from far up.
  useLayoutEffect(() => {
    const previous = lastSeenId.current;
    lastSeenId.current = lastId;
    if (previous === undefined || lastId === undefined || previous === lastId) return;
    const state = useAppStore.getState();
    const previousIndex = state.messageIds.indexOf(previous);
    const appended = state.messageIds.slice(previousIndex + 1);
    if (previousIndex >= 0 && appended.some((id) => state.messagesById[id]?.role === 'user')) {
      virtualizer.scrollToEnd();
    }
  }, [lastId, virtualizer]);

  const maybeLoadOlder = useCallback(() => {
    const element = scrollRef.current;
    if (element === null || !hasOlder || loadingOlder) return;
    if (element.scrollTop < LOAD_OLDER_THRESHOLD_PX) void loadOlderMessages();
  }, [hasOlder, loadingOlder]);

  const maybeLoadNewer = useCallback(() => {
    const element = scrollRef.current;
    if (element === null || !hasNewer || loadingNewer) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_OLDER_THRESHOLD_PX) void loadNewerMessages();
  }, [hasNewer, loadingNewer]);

  const onScroll = (): void => {
    const element = scrollRef.current;
    if (element !== null) {
      setAwayFromEnd(element.scrollHeight - element.scrollTop - element.clientHeight > JUMP_BUTTON_DISTANCE_PX);
    }
    maybeLoadOlder();
    maybeLoadNewer();
  };

  const jumpToLatest = (): void => {
    if (!hasNewer) {
      virtualizer.scrollToEnd({ behavior: 'smooth' });
      return;
    }
    // The newest page replaces the window; the view goes to its end once it renders, as on opening.
    scrolledToEndOnOpen.current = false;
    void showLatestMessages();
  };

  // A first page shorter than the view leaves nothing to scroll, so the next page is fetched at once.
  useEffect(() => {
    const element = scrollRef.current;
    if (element === null || !scrolledToEndOnOpen.current) return;
    if (element.scrollHeight <= element.clientHeight + LOAD_OLDER_THRESHOLD_PX) maybeLoadOlder();
  }, [messageIds.length, maybeLoadOlder]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="message-list-frame">
      <div
        ref={attachScrollElement}
        className="message-scroll"
        data-testid="message-list"
        role="log"
        aria-label="Messages"
        // A log is polite; while a reply streams the list is busy, so a screen reader reads the finished reply once
        // instead of every delta.
        aria-live="polite"
        aria-relevant="additions"
        aria-busy={replyRunning}
        tabIndex={0}
        onScroll={onScroll}
      >
        <div ref={virtualizer.containerRef} className="message-list-inner">
          {items.map((item) => {
            const messageId = messageIds[item.index];
            if (messageId === undefined) return null;
            return (
              <div
                key={item.key.toString()}
                className={messageId === focusedMessageId ? 'message-slot is-focused' : 'message-slot'}
                data-index={item.index}
                data-message-id={messageId}
                ref={virtualizer.measureElement}
              >
                <MessageRow messageId={messageId} />
              </div>
            );
          })}
        </div>
      </div>
      <PageStatus conversationId={conversationId} />
      {awayFromEnd || hasNewer ? (
        <button type="button" className="jump-to-end" data-testid="jump-to-latest" onClick={jumpToLatest}>
          <ArrowDownIcon />
          Latest
        </button>
      ) : null}
    </div>
  );
}
