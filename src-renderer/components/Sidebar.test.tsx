// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
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
  it('opens a file picker for JSON transcripts from its button', () => {
    const view = render(<Sidebar />);
    const input = view.getByTestId('import-transcript-input') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.json,application/json');
    const click = vi.spyOn(input, 'click');
    fireEvent.click(view.getByTestId('import-transcript'));
    expect(click).toHaveBeenCalled();
  });

  it('imports the chosen file as text and opens the new conversation', async () => {
    const imported = conversationFixture({ id: 'imported', title: 'Trip' });
    const importTranscript = vi.fn<Api['importTranscript']>().mockResolvedValue(imported);
    installApi(
      fakeApi({
        importTranscript,
        getConversation: async () => imported,
        listMessages: async () => ({ messages: [messageFixture({ conversationId: 'imported' })], invocations: [], hasOlder: false }),
      }),
    );
    const view = render(<Sidebar />);
    chooseFile(view, '{"format":"anybrain.transcript","version":1}');
    await settle();
    expect(importTranscript).toHaveBeenCalledWith({ content: '{"format":"anybrain.transcript","version":1}' });
    expect(useAppStore.getState().openConversationId).toBe('imported');
    expect(view.getAllByTestId('conversation-item').map((item) => item.dataset.conversationId)).toEqual(['imported']);
    expect(view.queryByTestId('import-error')).toBeNull();
  });

  it('shows a refusal naming the first bad path until dismissed, and opens nothing', async () => {
    installApi(
      fakeApi({
        importTranscript: () =>
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
    fireEvent.click(view.getByRole('button', { name: 'Dismiss' }));
    expect(view.queryByTestId('import-error')).toBeNull();
  });

  it('refuses an empty file without asking the host', async () => {
    const importTranscript = vi.fn<Api['importTranscript']>();
    installApi(fakeApi({ importTranscript }));
    const view = render(<Sidebar />);
    chooseFile(view, '  \n', 'empty.json');
    await settle();
    expect(importTranscript).not.toHaveBeenCalled();
    expect(view.getByTestId('import-error').textContent).toBe('Could not import empty.json: The file is empty. Nothing was imported.');
  });
});
