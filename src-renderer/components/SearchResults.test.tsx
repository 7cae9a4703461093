// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, SearchHitView } from '../../src-shared/api';
import { SEARCH_MARK_END as END, SEARCH_MARK_START as START } from '../../src-shared/search';
import { installApi } from '../state/api-client';
import { openConversation } from '../state/conversation-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi, messageFixture } from '../state/test-fixtures';
import { SearchSnippet } from './SearchResults';
import { Sidebar } from './Sidebar';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 8; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

async function typeQuery(view: ReturnType<typeof render>, query: string): Promise<void> {
  fireEvent.change(view.getByTestId('conversation-search'), { target: { value: query } });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
  });
  await settle();
}

function hitFixture(overrides: Partial<SearchHitView> = {}): SearchHitView {
  return {
    conversationId: 'c1',
    conversationTitle: 'Ocean notes',
    messageId: 'm7',
    role: 'assistant',
    brain: 'kimi',
    snippet: `The blue ${START}whale${END} sings`,
    createdAt: '2026-12-01T10:00:00.000Z',
    offBranch: false,
    ...overrides,
  };
}

beforeEach(() => {
  resetAppStore();
  window.history.replaceState(null, '', '/');
});
afterEach(cleanup);

describe('SearchSnippet', () => {
  it('renders every character of a snippet as text and only the marked parts as <mark>, whatever the text holds', () => {
    const payload = `<img src=x onerror="window.__pwned=1"> said ${START}<script>window.__pwned=2</script>${END} and <b>bold</b> ${END}${START}`;
    const view = render(<SearchSnippet snippet={payload} />);
    const snippet = view.getByTestId('search-snippet');
    expect(snippet.querySelector('img, script, b')).toBeNull();
    expect(Array.from(snippet.querySelectorAll('mark')).map((mark) => mark.textContent)).toEqual(['<script>window.__pwned=2</script>']);
    expect(snippet.textContent).toBe('<img src=x onerror="window.__pwned=1"> said <script>window.__pwned=2</script> and <b>bold</b> ');
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });
});

describe('Sidebar search over messages', () => {
  it('lists title matches and message hits with highlighted snippets, and says when indexing is not done', async () => {
    const searchMessages = vi.fn<Api['searchMessages']>().mockResolvedValue({
      hits: [hitFixture({ messageId: null, role: null, snippet: `${START}Whale${END} songs`, conversationId: 'c2', conversationTitle: 'Whale songs' }), hitFixture()],
      indexing: { percent: 42 },
    });
    installApi(fakeApi({ searchMessages, listConversations: async () => [conversationFixture({ id: 'c2', title: 'Whale songs' })] }));
    const view = render(<Sidebar />);
    await typeQuery(view, ' whale ');
    expect(searchMessages).toHaveBeenLastCalledWith({ query: 'whale' });
    expect(view.getAllByTestId('conversation-item').map((item) => item.dataset.conversationId)).toEqual(['c2']);
    const hits = view.getAllByTestId('search-hit');
    expect(hits.map((hit) => [hit.dataset.conversationId, hit.dataset.messageId, hit.querySelector('.search-hit-speaker')?.textContent])).toEqual([
      ['c1', 'm7', 'Kimi:'],
    ]);
    expect(hits[0]?.querySelector('mark')?.textContent).toBe('whale');
    expect(view.getByTestId('search-indexing').textContent).toBe('Still indexing older messages: 42%');
  });

  it('says a word is in no title but still shows the messages that hold it', async () => {
    installApi(fakeApi({ searchMessages: async () => ({ hits: [hitFixture()], indexing: null }), listConversations: async () => [] }));
    const view = render(<Sidebar />);
    await typeQuery(view, 'whale');
    expect(view.getByTestId('conversation-list-empty').textContent).toBe('No conversation has that title.');
    expect(view.getAllByTestId('search-hit')).toHaveLength(1);
  });

  it('opens the conversation at the hit: pages back until the message is loaded, then focuses it', async () => {
    const newest = Array.from({ length: 3 }, (_, index) => messageFixture({ id: `new${index}`, seq: 10 + index, text: `newer ${index}` }));
    const older = [messageFixture({ id: 'm7', seq: 7, text: 'The blue whale sings' }), messageFixture({ id: 'm8', seq: 8, text: 'after' })];
    const listMessages = vi.fn<Api['listMessages']>(async ({ beforeSeq }) =>
      beforeSeq === undefined ? { messages: newest, invocations: [], hasOlder: true } : { messages: older, invocations: [], hasOlder: false },
    );
    installApi(
      fakeApi({
        searchMessages: async () => ({ hits: [hitFixture()], indexing: null }),
        listConversations: async () => [],
        getConversation: async () => conversationFixture({ id: 'c1', title: 'Ocean notes' }),
        listMessages,
      }),
    );
    const view = render(<Sidebar />);
    await typeQuery(view, 'whale');
    fireEvent.click(view.getByTestId('search-hit'));
    await settle();
    expect(listMessages.mock.calls.map(([input]) => input)).toEqual([
      { conversationId: 'c1', limit: 50 },
      { conversationId: 'c1', beforeSeq: 10, limit: 500 },
    ]);
    const state = useAppStore.getState();
    expect(state.openConversationId).toBe('c1');
    expect(state.messageIds).toEqual(['m7', 'm8', 'new0', 'new1', 'new2']);
    expect(state.focusedMessageId).toBe('m7');
  });

  it('pages back past the window\'s bound to a hit far back, the newest rows let go of on the way', async () => {
    const rowsFrom = (first: number, count: number) =>
      Array.from({ length: count }, (_, index) => messageFixture({ id: `m${first + index}`, seq: first + index, text: `row ${first + index}` }));
    const listMessages = vi.fn<Api['listMessages']>(async ({ beforeSeq, limit }) => {
      const end = beforeSeq ?? 1_200;
      const first = Math.max(end - (limit ?? 100), 0);
      return { messages: rowsFrom(first, end - first), invocations: [], hasOlder: first > 0 };
    });
    installApi(
      fakeApi({
        searchMessages: async () => ({ hits: [hitFixture({ messageId: 'm7' })], indexing: null }),
        listConversations: async () => [],
        getConversation: async () => conversationFixture({ id: 'c1', title: 'Ocean notes' }),
        listMessages,
      }),
    );
    const view = render(<Sidebar />);
    await typeQuery(view, 'whale');
    fireEvent.click(view.getByTestId('search-hit'));
    await settle();
    expect(listMessages.mock.calls.map(([input]) => input.beforeSeq)).toEqual([undefined, 1_150, 650, 150]);
    const state = useAppStore.getState();
    expect([state.messageIds.length, state.messageIds[0], state.hasNewer, state.focusedMessageId]).toEqual([400, 'm0', true, 'm7']);
  });

  it('shows the branch of a hit on a branch the conversation does not show before opening it', async () => {
    const calls: string[] = [];
    installApi(
      fakeApi({
        searchMessages: async () => ({ hits: [hitFixture({ offBranch: true })], indexing: null }),
        listConversations: async () => [],
        getConversation: async () => conversationFixture({ id: 'c1', title: 'Ocean notes' }),
        chooseSibling: async ({ messageId }) => {
          calls.push(`chooseSibling ${messageId}`);
          return { messages: [], invocations: [], hasOlder: false };
        },
        listMessages: async () => {
          calls.push('listMessages');
          return { messages: [messageFixture({ id: 'm7', seq: 7, text: 'The blue whale sings' })], invocations: [], hasOlder: false };
        },
      }),
    );
    const view = render(<Sidebar />);
    await typeQuery(view, 'whale');
    fireEvent.click(view.getByTestId('search-hit'));
    await settle();
    expect(calls).toEqual(['chooseSibling m7', 'listMessages']);
    expect(useAppStore.getState().focusedMessageId).toBe('m7');
  });

  it('switches the open conversation to the branch of a hit on a branch it does not show', async () => {
    const pages: string[][] = [];
    installApi(
      fakeApi({
        searchMessages: async () => ({ hits: [hitFixture({ offBranch: true })], indexing: null }),
        listConversations: async () => [],
        getConversation: async () => conversationFixture({ id: 'c1', title: 'Ocean notes' }),
        chooseSibling: async () => {
          pages.push(['chooseSibling']);
          return { messages: [messageFixture({ id: 'm7', seq: 7, text: 'The blue whale sings' })], invocations: [], hasOlder: false };
        },
        listMessages: async () => ({ messages: [messageFixture({ id: 'm6', seq: 6, text: 'The other branch' })], invocations: [], hasOlder: false }),
      }),
    );
    const view = render(<Sidebar />);
    await act(async () => {
      await openConversation('c1');
    });
    expect(useAppStore.getState().messageIds).toEqual(['m6']);
    await typeQuery(view, 'whale');
    fireEvent.click(view.getByTestId('search-hit'));
    await settle();
    expect(pages).toEqual([['chooseSibling']]);
    expect(useAppStore.getState().messageIds).toEqual(['m7']);
    expect(useAppStore.getState().focusedMessageId).toBe('m7');
  });

  it('moves from the search field through the results with the arrow keys', async () => {
    installApi(
      fakeApi({
        searchMessages: async () => ({ hits: [hitFixture(), hitFixture({ messageId: 'm9' })], indexing: null }),
        listConversations: async () => [],
      }),
    );
    const view = render(<Sidebar />);
    await typeQuery(view, 'whale');
    const field = view.getByTestId('conversation-search');
    const [first, second] = view.getAllByTestId('search-hit');
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second!, { key: 'ArrowUp' });
    fireEvent.keyDown(first!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(field);
  });
});
