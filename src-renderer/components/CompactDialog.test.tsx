// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, CompactionPreview } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { CompactDialog } from './CompactDialog';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

const folding: CompactionPreview = {
  brain: 'kimi',
  model: 'kimi-k2.6',
  summariser: 'kimi',
  summariserModel: 'kimi-k2.6',
  messages: 6,
  through: { messageId: 'm6', excerpt: 'answer 2: lorem ipsum…' },
  message:
    "Kimi will summarise 6 messages, up to “answer 2: lorem ipsum…”, for Kimi's window. They stay in the conversation, folded under the summary, and other brains keep them while their windows hold them.",
};

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi' }) }, compactDialogOpen: true });
});

afterEach(() => {
  cleanup();
});

describe('CompactDialog', () => {
  it('says what would be folded, and compacts only when the person confirms', async () => {
    const previewCompaction = vi.fn<Api['previewCompaction']>().mockResolvedValue(folding);
    const compactConversation = vi.fn<Api['compactConversation']>().mockReturnValue(new Promise(() => undefined));
    installApi(fakeApi({ previewCompaction, compactConversation }));
    const view = render(<CompactDialog conversationId="c1" />);
    expect(view.getByRole('status').textContent).toBe('Looking at what can be folded…');
    expect((view.getByTestId('confirm-compact') as HTMLButtonElement).disabled).toBe(true);
    await settle();
    expect(previewCompaction).toHaveBeenCalledWith({ conversationId: 'c1' });
    expect(view.getByTestId('compact-preview').textContent).toBe(folding.message);
    expect(compactConversation).not.toHaveBeenCalled();
    fireEvent.click(view.getByTestId('confirm-compact'));
    await settle();
    expect(compactConversation).toHaveBeenCalledWith({ conversationId: 'c1' });
    expect(useAppStore.getState().compactDialogOpen).toBe(false);
  });

  it('says in words when there is nothing to fold, and offers only Close', async () => {
    const nothing: CompactionPreview = {
      ...folding,
      messages: 0,
      through: null,
      message: 'Nothing to fold yet: Compact now keeps the newest 2 turns as they are, and there is no earlier turn.',
    };
    const compactConversation = vi.fn<Api['compactConversation']>();
    installApi(fakeApi({ previewCompaction: vi.fn<Api['previewCompaction']>().mockResolvedValue(nothing), compactConversation }));
    const view = render(<CompactDialog conversationId="c1" />);
    await settle();
    expect(view.getByTestId('compact-preview').textContent).toBe(nothing.message);
    expect(view.queryByTestId('confirm-compact')).toBeNull();
    expect(view.getByTestId('cancel-compact').textContent).toBe('Close');
    fireEvent.click(view.getByTestId('cancel-compact'));
    expect(useAppStore.getState().compactDialogOpen).toBe(false);
    expect(compactConversation).not.toHaveBeenCalled();
  });

  it('says when the preview could not be read, and keeps Compact off', async () => {
    installApi(fakeApi({ previewCompaction: vi.fn<Api['previewCompaction']>().mockRejectedValue(new Error('The app is not answering.')) }));
    const view = render(<CompactDialog conversationId="c1" />);
    await settle();
    expect(view.getByTestId('compact-preview-error').textContent).toBe('Could not tell what would be folded: The app is not answering.');
    expect((view.getByTestId('confirm-compact') as HTMLButtonElement).disabled).toBe(true);
  });
});
