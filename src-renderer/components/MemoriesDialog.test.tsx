// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { openMemories } from '../state/memory-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi, memoryFixture } from '../state/test-fixtures';
import { MemoriesDialog } from './MemoriesDialog';

const newest = memoryFixture({ id: 'mem2', text: 'Lives in Lyon.', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z' });
const oldest = memoryFixture();

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

function rows(view: ReturnType<typeof render>) {
  return view.queryAllByTestId('memory-item').map((row) => [row.dataset.memoryId, within(row).getByTestId('memory-text').textContent]);
}

function row(view: ReturnType<typeof render>, memoryId: string) {
  const found = view.getAllByTestId('memory-item').find((item) => item.dataset.memoryId === memoryId);
  if (found === undefined) throw new Error(`no memory ${memoryId}`);
  return within(found);
}

async function openView(commands: Partial<Api>) {
  installApi(fakeApi({ listMemories: async () => [newest, oldest], ...commands }));
  act(() => openMemories());
  const view = render(<MemoriesDialog />);
  await settle();
  return view;
}

beforeEach(resetAppStore);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('MemoriesDialog', () => {
  it('lists memories newest first as the host gives them', async () => {
    const listMemories = vi.fn<Api['listMemories']>().mockResolvedValue([newest, oldest]);
    const view = await openView({ listMemories });
    expect(listMemories).toHaveBeenCalledWith({});
    expect(view.getByTestId('memories-view').getAttribute('role')).toBe('dialog');
    expect(rows(view)).toEqual([
      ['mem2', 'Lives in Lyon.'],
      ['mem1', 'Prefers metric units.'],
    ]);
  });

  it('searches through the Api after typing stops', async () => {
    const listMemories = vi.fn<Api['listMemories']>().mockResolvedValue([newest, oldest]);
    const view = await openView({ listMemories });
    vi.useFakeTimers();
    listMemories.mockResolvedValue([oldest]);
    fireEvent.change(view.getByTestId('memory-search'), { target: { value: ' metric ' } });
    fireEvent.change(view.getByTestId('memory-search'), { target: { value: ' metric units ' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(250);
    });
    expect(listMemories.mock.calls.slice(1)).toEqual([[{ query: 'metric units' }]]);
    expect(rows(view)).toEqual([['mem1', 'Prefers metric units.']]);
  });

  it('says when a search finds nothing', async () => {
    vi.useFakeTimers();
    const view = await openView({ listMemories: async ({ query }) => (query === undefined ? [newest] : []) });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    fireEvent.change(view.getByTestId('memory-search'), { target: { value: 'zebra' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(250);
    });
    expect(view.getByText('No memory matches that search.')).toBeTruthy();
  });

  it('adds a memory on Enter and shows it first', async () => {
    const added = memoryFixture({ id: 'mem3', text: 'Allergic to peanuts.' });
    const addMemory = vi.fn<Api['addMemory']>().mockResolvedValue(added);
    const view = await openView({ addMemory });
    const input = view.getByTestId('memory-new-input') as HTMLTextAreaElement;
    expect((view.getByTestId('memory-add') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  Allergic to peanuts.  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(addMemory).toHaveBeenCalledWith({ text: 'Allergic to peanuts.' });
    expect(input.value).toBe('');
    expect(rows(view)[0]).toEqual(['mem3', 'Allergic to peanuts.']);
  });

  it('adds with the button and shows a refusal beside the field', async () => {
    const addMemory = vi.fn<Api['addMemory']>().mockRejectedValue(new ApiError('invalid-input', 'A memory is at most 4000 characters.'));
    const view = await openView({ addMemory });
    fireEvent.change(view.getByTestId('memory-new-input'), { target: { value: 'Too long' } });
    fireEvent.click(view.getByTestId('memory-add'));
    await settle();
    expect(view.getByRole('alert').textContent).toBe('A memory is at most 4000 characters.');
    expect((view.getByTestId('memory-new-input') as HTMLTextAreaElement).value).toBe('Too long');
  });

  it('edits inline: Enter saves, Escape cancels without closing the view', async () => {
    const updateMemory = vi
      .fn<Api['updateMemory']>()
      .mockImplementation(async ({ id, text }) => memoryFixture({ id, text, updatedAt: '2026-01-03T10:00:00.000Z' }));
    const view = await openView({ updateMemory });
    fireEvent.click(row(view, 'mem1').getByTestId('memory-edit'));
    const editor = row(view, 'mem1').getByTestId('memory-edit-input') as HTMLTextAreaElement;
    expect(editor.value).toBe('Prefers metric units.');
    expect(document.activeElement).toBe(editor);
    fireEvent.change(editor, { target: { value: 'Prefers imperial units.' } });
    fireEvent.keyDown(editor, { key: 'Escape' });
    expect(useAppStore.getState().memoriesOpen).toBe(true);
    expect(row(view, 'mem1').getByTestId('memory-text').textContent).toBe('Prefers metric units.');
    expect(updateMemory).not.toHaveBeenCalled();

    fireEvent.click(row(view, 'mem1').getByTestId('memory-edit'));
    const again = row(view, 'mem1').getByTestId('memory-edit-input');
    fireEvent.change(again, { target: { value: 'Prefers imperial units.' } });
    fireEvent.keyDown(again, { key: 'Enter' });
    await settle();
    expect(updateMemory).toHaveBeenCalledWith({ id: 'mem1', text: 'Prefers imperial units.' });
    expect(rows(view)).toEqual([
      ['mem2', 'Lives in Lyon.'],
      ['mem1', 'Prefers imperial units.'],
    ]);
    expect(row(view, 'mem1').queryByTestId('memory-edit-input')).toBeNull();
  });

  it('keeps the editor open with the refusal when saving fails', async () => {
    const view = await openView({ updateMemory: () => Promise.reject(new ApiError('not-found', 'That memory no longer exists.')) });
    fireEvent.click(row(view, 'mem1').getByTestId('memory-edit'));
    fireEvent.change(row(view, 'mem1').getByTestId('memory-edit-input'), { target: { value: 'Changed' } });
    fireEvent.click(row(view, 'mem1').getByTestId('memory-save'));
    await settle();
    expect(row(view, 'mem1').getByRole('alert').textContent).toBe('That memory no longer exists.');
    expect((row(view, 'mem1').getByTestId('memory-edit-input') as HTMLTextAreaElement).value).toBe('Changed');
  });

  it('deletes only after confirming in place, never through the browser confirm()', async () => {
    const deleteMemory = vi.fn<Api['deleteMemory']>().mockResolvedValue({ deleted: true });
    const confirm = vi.spyOn(window, 'confirm');
    const view = await openView({ deleteMemory });
    fireEvent.click(row(view, 'mem2').getByTestId('memory-delete'));
    const question = row(view, 'mem2').getByTestId('inline-confirm');
    expect(question.textContent).toBe('Delete this memory? This cannot be undone.DeleteCancel');
    expect(row(view, 'mem2').getByTestId('memory-text').textContent).toBe('Lives in Lyon.');
    expect(document.activeElement?.textContent).toBe('Cancel');
    // Escape answers the question only: the memories view stays open.
    fireEvent.keyDown(row(view, 'mem2').getByTestId('inline-confirm-cancel'), { key: 'Escape' });
    await settle();
    expect(row(view, 'mem2').queryByTestId('inline-confirm')).toBeNull();
    expect(view.getByTestId('memories-view')).toBeTruthy();
    expect(deleteMemory).not.toHaveBeenCalled();
    fireEvent.click(row(view, 'mem2').getByTestId('memory-delete'));
    fireEvent.click(row(view, 'mem2').getByRole('button', { name: 'Delete' }));
    await settle();
    expect(confirm).not.toHaveBeenCalled();
    expect(deleteMemory).toHaveBeenCalledWith({ id: 'mem2' });
    expect(rows(view)).toEqual([['mem1', 'Prefers metric units.']]);
  });

  it('shows a load failure with a way to try again, and closes with Escape', async () => {
    const listMemories = vi.fn<Api['listMemories']>().mockRejectedValueOnce(new Error('Disk unavailable.')).mockResolvedValue([oldest]);
    const view = await openView({ listMemories });
    expect(view.getByRole('alert').textContent).toContain('Could not load memories: Disk unavailable.');
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(rows(view)).toEqual([['mem1', 'Prefers metric units.']]);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(useAppStore.getState().memoriesOpen).toBe(false);
  });

  it('shows memory text from brains as plain text', async () => {
    const view = await openView({ listMemories: async () => [memoryFixture({ text: '<img src=x onerror="alert(1)"> **bold**' })] });
    expect(row(view, 'mem1').getByTestId('memory-text').textContent).toBe('<img src=x onerror="alert(1)"> **bold**');
    expect(view.container.querySelector('img, strong')).toBeNull();
  });
});
