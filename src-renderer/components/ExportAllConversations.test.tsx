// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type ExportArchiveResult } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { handleApiEvent } from '../state/events';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi } from '../state/test-fixtures';
import { ExportAllConversations } from './ExportAllConversations';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 6; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const DONE: Omit<Extract<ExportArchiveResult, { outcome: 'done' }>, 'exportId'> = {
  outcome: 'done',
  filename: 'anybrain-conversations-md-2026-12-01.zip',
  mimeType: 'application/zip',
  bytes: 5,
  conversations: 10,
  messages: 40,
};

let saved: Array<{ filename: string; blob: Blob }> = [];

beforeEach(() => {
  resetAppStore();
  saved = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ filename: this.download, blob: blobs.get(this.href)! });
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function chooseFormat(view: ReturnType<typeof render>, format: string): void {
  fireEvent.click(view.getByTestId('export-all'));
  fireEvent.click(view.getByTestId(`export-all-format-${format}`));
  fireEvent.click(view.getByRole('button', { name: 'Export' }));
}

describe('Export all conversations', () => {
  it('shows progress from events, reads the zip in pieces and saves it under its name', async () => {
    const answer = deferred<ExportArchiveResult>();
    const exportAll = vi.fn<Api['exportAllConversations']>(() => answer.promise);
    const readExport = vi.fn<Api['readExport']>(async ({ exportId, offset }) =>
      offset === 0 ? { exportId, offset, data: btoa('PK\u0003'), nextOffset: 3 } : { exportId, offset, data: btoa('\u0004!'), nextOffset: null },
    );
    installApi(fakeApi({ exportAllConversations: exportAll, readExport }));
    const view = render(<ExportAllConversations />);

    chooseFormat(view, 'md');
    await settle();
    expect(exportAll).toHaveBeenCalledTimes(1);
    const { exportId, format } = exportAll.mock.calls[0]![0];
    expect(format).toBe('md');
    expect(view.getByTestId('export-all-progress').textContent).toContain('Preparing the export…');

    act(() => {
      handleApiEvent({ type: 'export-progress', exportId: 'someone-else', done: 9, total: 9 });
      handleApiEvent({ type: 'export-progress', exportId, done: 3, total: 10 });
    });
    expect(view.getByTestId('export-all-progress').textContent).toContain('Exported 3 of 10 conversations…');
    expect((view.getByLabelText('Export progress') as HTMLProgressElement).value).toBe(3);

    answer.resolve({ ...DONE, exportId });
    await settle();
    expect(readExport.mock.calls.map(([input]) => input)).toEqual([
      { exportId, offset: 0 },
      { exportId, offset: 3 },
    ]);
    expect(saved.map(({ filename }) => filename)).toEqual(['anybrain-conversations-md-2026-12-01.zip']);
    expect(saved[0]!.blob.type).toBe('application/zip');
    expect([...new Uint8Array(await saved[0]!.blob.arrayBuffer())]).toEqual([0x50, 0x4b, 3, 4, 0x21]);
    expect(view.queryByTestId('export-all-progress')).toBeNull();
    expect(useAppStore.getState().exportAll).toBeNull();
  });

  it('cancels: the main side is told, and nothing is saved', async () => {
    const answer = deferred<ExportArchiveResult>();
    const exportAll = vi.fn<Api['exportAllConversations']>(() => answer.promise);
    const cancelExport = vi.fn<Api['cancelExport']>(async ({ exportId }) => {
      answer.resolve({ outcome: 'cancelled', exportId });
      return { cancelled: true };
    });
    installApi(fakeApi({ exportAllConversations: exportAll, cancelExport }));
    const view = render(<ExportAllConversations />);
    chooseFormat(view, 'html');
    await settle();
    fireEvent.click(view.getByTestId('cancel-export-all'));
    await settle();
    expect(cancelExport).toHaveBeenCalledWith({ exportId: exportAll.mock.calls[0]![0].exportId });
    expect(saved).toEqual([]);
    expect(view.getByTestId('export-all')).toBeTruthy();
    expect(useAppStore.getState().notice).toBeNull();
  });

  it('sends the include options chosen in its dialog for Markdown and web pages, and only the attachments for transcripts', async () => {
    const exportAll = vi.fn<Api['exportAllConversations']>(async ({ exportId }) => ({ outcome: 'cancelled', exportId }));
    installApi(fakeApi({ exportAllConversations: exportAll }));
    const view = render(<ExportAllConversations />);
    const inputs = (): Array<Omit<Parameters<Api['exportAllConversations']>[0], 'exportId'>> =>
      exportAll.mock.calls.map(([{ exportId: _exportId, ...rest }]) => rest);

    chooseFormat(view, 'md');
    await settle();
    expect(inputs()).toEqual([{ format: 'md', includeTools: true, includeReasoning: false }]);

    fireEvent.click(view.getByRole('button', { name: 'Export all conversations…' }));
    const dialog = view.getByRole('dialog', { name: 'Export all conversations' });
    expect(dialog).toBeTruthy();
    fireEvent.click(view.getByLabelText('Web page'));
    fireEvent.click(view.getByLabelText('Include tool calls'));
    fireEvent.click(view.getByLabelText('Include reasoning'));
    fireEvent.click(view.getByLabelText('Include every branch'));
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(view.queryByRole('dialog')).toBeNull();
    expect(inputs()[1]).toEqual({ format: 'html', includeTools: false, includeReasoning: true, branches: 'all' });

    fireEvent.click(view.getByRole('button', { name: 'Export all conversations…' }));
    fireEvent.click(view.getByLabelText('Transcript'));
    expect((view.getByLabelText('Include tool calls') as HTMLInputElement).disabled).toBe(true);
    expect((view.getByLabelText('Include reasoning') as HTMLInputElement).disabled).toBe(true);
    expect((view.getByLabelText('Include attachments') as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(inputs()[2]).toEqual({ format: 'json', includeAttachments: true });
    expect(saved).toEqual([]);
  });

  it('closes its dialog on Esc without exporting, and hands focus back', () => {
    const exportAll = vi.fn<Api['exportAllConversations']>();
    installApi(fakeApi({ exportAllConversations: exportAll }));
    const view = render(<ExportAllConversations />);
    const trigger = view.getByRole('button', { name: 'Export all conversations…' });
    trigger.focus();
    fireEvent.click(trigger);
    expect(view.getByRole('dialog', { name: 'Export all conversations' })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(view.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(exportAll).not.toHaveBeenCalled();
  });

  it('says why an export failed', async () => {
    installApi(
      fakeApi({
        exportAllConversations: async () => {
          throw new ApiError('export-running', 'An export of all conversations is already running.');
        },
      }),
    );
    const view = render(<ExportAllConversations />);
    chooseFormat(view, 'json');
    await settle();
    expect(useAppStore.getState().notice).toBe('Could not export all conversations: An export of all conversations is already running.');
    expect(saved).toEqual([]);
    expect(view.getByTestId('export-all')).toBeTruthy();
  });
});
