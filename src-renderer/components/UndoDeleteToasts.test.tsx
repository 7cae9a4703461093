// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { UNDO_DELETE_MS, loadConversations } from '../state/conversation-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { ConversationItem } from './ConversationItem';
import { UndoDeleteToasts } from './UndoDeleteToasts';

const first = conversationFixture({ id: 'c1', title: 'First conversation', updatedAt: '2026-01-02T10:00:00.000Z' });
const second = conversationFixture({ id: 'c2', title: 'Second conversation', updatedAt: '2026-01-01T10:00:00.000Z' });

function Harness() {
  const conversationIds = useAppStore((state) => state.conversationOrder);
  return (
    <>
      <ul>
        {conversationIds.map((id) => (
          <ConversationItem key={id} conversationId={id} />
        ))}
      </ul>
      <UndoDeleteToasts />
    </>
  );
}

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

function listedTitles(view: ReturnType<typeof render>): string[] {
  return view.queryAllByTestId('conversation-title').map((title) => title.textContent ?? '');
}

function deleteButtonOf(view: ReturnType<typeof render>, conversationId: string): HTMLElement {
  const item = view.getAllByTestId('conversation-item').find((row) => row.dataset.conversationId === conversationId);
  if (item === undefined) throw new Error(`${conversationId} is not listed`);
  return within(item).getByTestId('delete-conversation');
}

let deleteConversation: ReturnType<typeof vi.fn<Api['deleteConversation']>>;

beforeEach(() => {
  vi.useFakeTimers();
  resetAppStore();
  useAppStore.setState({
    conversationsById: { c1: first, c2: second },
    conversationOrder: ['c1', 'c2'],
    conversationsLoaded: true,
  });
  deleteConversation = vi.fn<Api['deleteConversation']>().mockResolvedValue({ deleted: true });
  installApi(fakeApi({ deleteConversation, listConversations: () => Promise.resolve([first, second]) }));
});

afterEach(() => {
  cleanup();
  vi.clearAllTimers();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('UndoDeleteToasts', () => {
  it('shows a toast for a deleted conversation without deleting it in the store', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    expect(listedTitles(view)).toEqual(['Second conversation']);
    const toast = view.getByTestId('undo-toast');
    expect(toast.getAttribute('role')).toBe('status');
    expect(toast.textContent).toContain('Deleted “First conversation”.');
    expect(within(toast).getByTestId('undo-delete').textContent).toBe('Undo');
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS - 1));
    await settle();
    expect(deleteConversation).not.toHaveBeenCalled();
  });

  it('closes the deleted conversation when it was open, and opens it again on Undo', async () => {
    installApi(
      fakeApi({
        deleteConversation,
        getConversation: () => Promise.resolve(first),
        listMessages: () => Promise.resolve({ messages: [], invocations: [], hasOlder: false }),
      }),
    );
    useAppStore.setState({ openConversationId: 'c1' });
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    expect(useAppStore.getState().openConversationId).toBeNull();
    fireEvent.click(view.getByTestId('undo-delete'));
    await settle();
    expect(useAppStore.getState().openConversationId).toBe('c1');
    expect(deleteConversation).not.toHaveBeenCalled();
  });

  it('brings the conversation back on Undo and never deletes it in the store', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    fireEvent.click(view.getByTestId('undo-delete'));
    await settle();
    expect(listedTitles(view)).toEqual(['First conversation', 'Second conversation']);
    expect(view.queryByTestId('undo-toast')).toBeNull();
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS * 2));
    await settle();
    expect(deleteConversation).not.toHaveBeenCalled();
  });

  it('undoes the newest delete on Ctrl+Z outside a text field, and leaves Ctrl+Z in a field to the field', async () => {
    const view = render(
      <>
        <input data-testid="field" />
        <Harness />
      </>,
    );
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    fireEvent.keyDown(view.getByTestId('field'), { key: 'z', ctrlKey: true });
    expect(listedTitles(view)).toEqual(['Second conversation']);
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await settle();
    expect(listedTitles(view)).toEqual(['First conversation', 'Second conversation']);
  });

  it('deletes in the store exactly once when the toast expires', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
    expect(deleteConversation).toHaveBeenCalledWith({ id: 'c1' });
    expect(view.queryByTestId('undo-toast')).toBeNull();
    expect(useAppStore.getState().conversationsById.c1).toBeUndefined();
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS * 2));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
  });

  it('deletes in the store exactly once when the toast is dismissed, and not again when it would have expired', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await settle();
    fireEvent.click(view.getByTestId('dismiss-undo'));
    fireEvent.click(view.getByTestId('dismiss-undo'));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
    expect(view.queryByTestId('undo-toast')).toBeNull();
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS * 2));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
  });

  it('gives two deletes in a row a toast each, undone and expiring on their own', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    act(() => vi.advanceTimersByTime(1_000));
    fireEvent.click(deleteButtonOf(view, 'c2'));
    await settle();
    expect(listedTitles(view)).toEqual([]);
    const toasts = view.getAllByTestId('undo-toast');
    expect(toasts.map((toast) => toast.dataset.conversationId)).toEqual(['c1', 'c2']);
    fireEvent.click(within(toasts[1] as HTMLElement).getByTestId('undo-delete'));
    await settle();
    expect(listedTitles(view)).toEqual(['Second conversation']);
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS - 1_000));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
    expect(deleteConversation).toHaveBeenCalledWith({ id: 'c1' });
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS * 2));
    await settle();
    expect(deleteConversation).toHaveBeenCalledTimes(1);
    expect(listedTitles(view)).toEqual(['Second conversation']);
  });

  it('keeps a conversation waiting to be deleted out of a list fetched again meanwhile', async () => {
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    await act(() => loadConversations(''));
    expect(listedTitles(view)).toEqual(['Second conversation']);
  });

  it('shows the conversation again when the store refuses the delete', async () => {
    deleteConversation.mockRejectedValue(new ApiError('connection', 'Anybrain is not reachable.'));
    const view = render(<Harness />);
    fireEvent.click(deleteButtonOf(view, 'c1'));
    act(() => vi.advanceTimersByTime(UNDO_DELETE_MS));
    await settle();
    expect(listedTitles(view)).toEqual(['First conversation', 'Second conversation']);
    expect(useAppStore.getState().notice).toBe('Could not delete the conversation: Anybrain is not reachable.');
  });
});
