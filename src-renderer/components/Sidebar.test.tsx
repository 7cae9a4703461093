// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type ImportSummaryView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { handleApiEvent } from '../state/events';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi, messageFixture } from '../state/test-fixtures';
import { Sidebar } from './Sidebar';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 6; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function chooseFile(view: ReturnType<typeof render>, content: string, name = 'trip.json'): void {
  const input = view.getByTestId('import-transcript-input') as HTMLInputElement;
  const file = new File([content], name, { type: 'application/json' });
  fireEvent.change(input, { target: { files: [file] } });
}

beforeEach(() => {
  resetAppStore();
  window.history.replaceState(null, '', '/');
});

afterEach(cleanup);

describe('Sidebar import', () => {
  const summary = (ids: string[]): ImportSummaryView => ({ source: 'anybrain', conversations: ids.length, messages: 2, skipped: [], conversationIds: ids });

  it('opens a file picker for transcripts, conversations.json and export zips from its button', () => {
    const view = render(<Sidebar />);
    const input = view.getByTestId('import-transcript-input') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.json,.zip,application/json,application/zip');
    const click = vi.spyOn(input, 'click');
    fireEvent.click(view.getByTestId('import-transcript'));
    expect(click).toHaveBeenCalled();
  });

  it('imports the chosen file as text, opens the new conversation and shows the summary', async () => {
    const imported = conversationFixture({ id: 'imported', title: 'Trip' });
    const importConversations = vi.fn<Api['importConversations']>().mockResolvedValue(summary(['imported']));
    installApi(
      fakeApi({
        importConversations,
        listConversations: async () => [imported],
        getConversation: async () => imported,
        listMessages: async () => ({ messages: [messageFixture({ conversationId: 'imported' })], invocations: [], hasOlder: false }),
      }),
    );
    const view = render(<Sidebar />);
    chooseFile(view, '{"format":"anybrain.transcript","version":1}');
    await settle();
    expect(importConversations).toHaveBeenCalledWith({ name: 'trip.json', content: '{"format":"anybrain.transcript","version":1}' });
    expect(useAppStore.getState().openConversationId).toBe('imported');
    expect(view.getAllByTestId('conversation-item').map((item) => item.dataset.conversationId)).toEqual(['imported']);
    expect(view.queryByTestId('import-error')).toBeNull();
    expect(view.getByTestId('import-summary').textContent).toBe('1 conversation, 2 messages imported.');
  });

  it('sends a zip as base64 bytes and shows the host\u2019s progress while it works', async () => {
    let finish: (value: ImportSummaryView) => void = () => {};
    const importConversations = vi.fn<Api['importConversations']>(() => new Promise((resolve) => (finish = resolve)));
    installApi(fakeApi({ importConversations, listConversations: async () => [] }));
    const view = render(<Sidebar />);
    const input = view.getByTestId('import-transcript-input') as HTMLInputElement;
    const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00]);
    fireEvent.change(input, { target: { files: [new File([zipBytes], 'chatgpt-export.zip', { type: 'application/zip' })] } });
    await settle();
    expect(importConversations).toHaveBeenCalledWith({ name: 'chatgpt-export.zip', contentBase64: 'UEsDBP8A' });
    expect(view.getByTestId('import-transcript').textContent).toBe('Importing…');
    act(() => {
      handleApiEvent({ type: 'import-progress', name: 'chatgpt-export.zip', done: 120, total: 212 });
    });
    expect(view.getByTestId('import-transcript').textContent).toBe('Importing… 120 of 212');
    finish({ source: 'chatgpt', conversations: 0, messages: 0, skipped: [{ title: 'Lost thread', reason: 'its current_node is missing' }], conversationIds: [] });
    await settle();
    expect(view.getByTestId('import-transcript').textContent).toBe('Import conversations');
    expect(view.getByTestId('import-summary').textContent).toBe(
      '0 conversations, 0 messages imported; 1 skipped: "Lost thread" (its current_node is missing).',
    );
    expect(useAppStore.getState().openConversationId).toBeNull();
  });

  it('shows a refusal naming the first bad path until dismissed, and opens nothing', async () => {
    installApi(
      fakeApi({
        importConversations: () =>
          Promise.reject(new ApiError('invalid-transcript', 'The file is not a valid Anybrain transcript: messages[1].role: Invalid option.')),
      }),
    );
    const view = render(<Sidebar />);
    chooseFile(view, '{"format":"anybrain.transcript"}', 'broken.json');
    await settle();
    const error = view.getByTestId('import-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toBe(
      'Could not import broken.json: The file is not a valid Anybrain transcript: messages[1].role: Invalid option.',
    );
    expect(useAppStore.getState().openConversationId).toBeNull();
    expect(useAppStore.getState().importProgress).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Dismiss' }));
    expect(view.queryByTestId('import-error')).toBeNull();
  });

  it('refuses an empty file without asking the host', async () => {
    const importConversations = vi.fn<Api['importConversations']>();
    installApi(fakeApi({ importConversations }));
    const view = render(<Sidebar />);
    chooseFile(view, '  \n', 'empty.json');
    await settle();
    expect(importConversations).not.toHaveBeenCalled();
    expect(view.getByTestId('import-error').textContent).toBe('Could not import empty.json: The file is empty. Nothing was imported.');
  });
});

describe('Sidebar list', () => {
  const conversations = (from: number, count: number) =>
    Array.from({ length: count }, (_, offset) => {
      const index = from + offset;
      return conversationFixture({ id: `c${index}`, title: `Conversation ${index}`, updatedAt: new Date(Date.UTC(2026, 0, 1) - index * 60_000).toISOString() });
    });

  it('renders only the entries near the view of a long list, and pages in the next as it scrolls to the end', async () => {
    const listConversations = vi
      .fn<Api['listConversations']>()
      .mockResolvedValueOnce(conversations(0, 100))
      .mockResolvedValueOnce(conversations(100, 40));
    installApi(fakeApi({ listConversations }));
    const view = render(<Sidebar />);
    await act(async () => {
      const { loadConversations } = await import('../state/conversation-actions');
      await loadConversations('');
    });
    expect(listConversations).toHaveBeenCalledWith({ limit: 100 });
    const items = view.getAllByTestId('conversation-item');
    // Only the entries around the view are on the page (jsdom lays nothing out, so which ones is not asserted).
    expect(items.length).toBeLessThan(100);
    expect(items.map((item) => [item.getAttribute('aria-setsize'), item.getAttribute('aria-posinset')])[0]).toEqual([
      '100',
      String(Number(items[0]?.dataset.conversationId?.slice(1)) + 1),
    ]);
    fireEvent.scroll(view.getByTestId('conversation-list').parentElement as HTMLElement);
    await settle();
    expect(listConversations).toHaveBeenLastCalledWith({ before: { updatedAt: '2025-12-31T22:21:00.000Z', id: 'c99' }, limit: 100 });
    expect(useAppStore.getState().conversationOrder).toHaveLength(140);
    expect(useAppStore.getState().conversationsHaveMore).toBe(false);
    fireEvent.scroll(view.getByTestId('conversation-list').parentElement as HTMLElement);
    await settle();
    expect(listConversations).toHaveBeenCalledTimes(2);
  });
});

