// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { ConversationItem } from './ConversationItem';

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({
    conversationsById: { c1: conversationFixture({ brain: 'glm' }) },
    conversationOrder: ['c1'],
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ConversationItem', () => {
  it('shows the title and marks the entry with its id', () => {
    const view = render(<ConversationItem conversationId="c1" />);
    const item = view.getByTestId('conversation-item');
    expect(item.dataset.conversationId).toBe('c1');
    expect(view.getByTestId('conversation-title').textContent).toBe('First conversation');
  });

  it('renames inline: Enter saves the trimmed title', async () => {
    const renameConversation = vi
      .fn<Api['renameConversation']>()
      .mockResolvedValue(conversationFixture({ title: 'Better title', brain: 'glm' }));
    installApi(fakeApi({ renameConversation }));
    const view = render(<ConversationItem conversationId="c1" />);
    fireEvent.click(view.getByTestId('rename-conversation'));
    const input = view.getByTestId('rename-input');
    fireEvent.change(input, { target: { value: '  Better title ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(renameConversation).toHaveBeenCalledTimes(1);
    expect(renameConversation).toHaveBeenCalledWith({ id: 'c1', title: 'Better title' });
    expect(view.queryByTestId('rename-input')).toBeNull();
    expect(view.getByTestId('conversation-title').textContent).toBe('Better title');
  });

  it('cancels a rename on Escape without saving', async () => {
    const renameConversation = vi.fn<Api['renameConversation']>();
    installApi(fakeApi({ renameConversation }));
    const view = render(<ConversationItem conversationId="c1" />);
    fireEvent.click(view.getByTestId('rename-conversation'));
    const input = view.getByTestId('rename-input');
    fireEvent.change(input, { target: { value: 'Discarded' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.blur(input);
    await settle();
    expect(renameConversation).not.toHaveBeenCalled();
    expect(view.getByTestId('conversation-title').textContent).toBe('First conversation');
  });

  it('keeps the field open with the error when a rename is refused', async () => {
    installApi(fakeApi({ renameConversation: () => Promise.reject(new ApiError('invalid', 'Title too long.')) }));
    const view = render(<ConversationItem conversationId="c1" />);
    fireEvent.click(view.getByTestId('rename-conversation'));
    fireEvent.change(view.getByTestId('rename-input'), { target: { value: 'New' } });
    fireEvent.keyDown(view.getByTestId('rename-input'), { key: 'Enter' });
    await settle();
    expect(view.getByRole('alert').textContent).toBe('Title too long.');
    expect(view.getByTestId('rename-input')).toBeTruthy();
  });

  it('hides the conversation at once on delete, without asking and without deleting it in the store yet', async () => {
    const deleteConversation = vi.fn<Api['deleteConversation']>().mockResolvedValue({ deleted: true });
    installApi(fakeApi({ deleteConversation }));
    const confirm = vi.spyOn(window, 'confirm');
    const view = render(<ConversationItem conversationId="c1" />);
    fireEvent.click(view.getByTestId('delete-conversation'));
    await settle();
    expect(confirm).not.toHaveBeenCalled();
    expect(deleteConversation).not.toHaveBeenCalled();
    expect(useAppStore.getState().conversationOrder).toEqual([]);
    expect(useAppStore.getState().pendingDeletes).toEqual([{ conversationId: 'c1', title: 'First conversation', wasOpen: false }]);
  });
});
