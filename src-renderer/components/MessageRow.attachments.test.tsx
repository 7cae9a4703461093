// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, AttachmentView, MessageView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { forgetAttachmentUrls } from '../state/attachment-actions';
import { openConversationState } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi, messageFixture } from '../state/test-fixtures';
import { ImageViewer } from './ImageViewer';
import { MessageRow } from './MessageRow';

const PHOTO: AttachmentView = {
  id: 'att-1',
  name: 'photo.png',
  mediaType: 'image/png',
  kind: 'image',
  size: 2048,
  sha256: 'a'.repeat(64),
  width: 1280,
  height: 720,
};
const NOTES: AttachmentView = {
  id: 'att-2',
  name: 'notes.html',
  mediaType: 'text/html',
  kind: 'text',
  size: 300,
  sha256: 'b'.repeat(64),
  width: null,
  height: null,
};

function load(message: MessageView): void {
  useAppStore.setState({ ...openConversationState('c1'), pageStatus: 'ready', messagesById: { [message.id]: message }, messageIds: [message.id] });
}

async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

const blobs: Blob[] = [];

beforeEach(() => {
  resetAppStore();
  forgetAttachmentUrls();
  blobs.length = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:test/${blobs.length}`;
  });
});
afterEach(cleanup);

describe('a message with attachments', () => {
  it('shows each image by its name from the bytes the host returns, and each file as a chip', async () => {
    const readAttachment = vi.fn<Api['readAttachment']>().mockResolvedValue({ mediaType: 'image/png', dataBase64: 'aGVsbG8=' });
    installApi(fakeApi({ readAttachment }));
    load(messageFixture({ text: 'Look', attachments: [PHOTO, NOTES] }));
    const view = render(<MessageRow messageId="m1" />);
    await settle();
    const list = view.getByRole('list', { name: 'Attached files' });
    const image = within(list).getByRole('img', { name: 'photo.png' });
    expect([image.getAttribute('src'), image.getAttribute('width'), image.getAttribute('height')]).toEqual(['blob:test/1', '1280', '720']);
    expect(readAttachment.mock.calls).toEqual([[{ id: 'att-1' }]]);
    expect(blobs.map((blob) => [blob.type, blob.size])).toEqual([['image/png', 5]]);
    expect(within(list).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Enlarge photo.png',
      null,
    ]);
    expect(view.getByRole('button', { name: 'Open notes.html Text · 300 bytes' })).toBe(view.getByTestId('attachment-chip'));
    expect(view.getByTestId('message-text').textContent).toBe('Look');
  });

  it('decodes images off the main thread, and never reads nor decodes one stored declaring more than 50 megapixels', async () => {
    const readAttachment = vi.fn<Api['readAttachment']>().mockResolvedValue({ mediaType: 'image/png', dataBase64: 'aGVsbG8=' });
    installApi(fakeApi({ readAttachment }));
    const bomb: AttachmentView = { ...PHOTO, id: 'att-3', name: 'bomb.png', sha256: 'c'.repeat(64), width: 20_000, height: 20_000 };
    load(messageFixture({ text: 'Look', attachments: [PHOTO, bomb] }));
    const view = render(<MessageRow messageId="m1" />);
    await settle();
    expect(view.getByRole('img', { name: 'photo.png' }).getAttribute('decoding')).toBe('async');
    expect(view.getByRole('img', { name: 'bomb.png (too large to show)' }).tagName).toBe('SPAN');
    expect(readAttachment.mock.calls).toEqual([[{ id: 'att-1' }]]);
  });

  it('enlarges an image in a dialog named after it, which Escape closes', async () => {
    installApi(fakeApi({ readAttachment: async () => ({ mediaType: 'image/png', dataBase64: 'aGVsbG8=' }) }));
    load(messageFixture({ text: '', attachments: [PHOTO] }));
    const view = render(
      <>
        <MessageRow messageId="m1" />
        <ImageViewer />
      </>,
    );
    await settle();
    // Only images were sent: there is no empty bubble.
    expect(view.queryByTestId('message-text')).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Enlarge photo.png' }));
    await settle();
    const dialog = view.getByRole('dialog', { name: 'photo.png' });
    expect(within(dialog).getByRole('img', { name: 'photo.png' }).getAttribute('src')).toBe('blob:test/1');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(view.queryByRole('dialog')).toBeNull();
    expect(useAppStore.getState().enlargedAttachment).toBeNull();
  });

  it('opens a file in a browser tab as plain text, whatever markup it holds', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    installApi(fakeApi({ readAttachment: async () => ({ mediaType: 'text/html', dataBase64: 'PGI+aGk8L2I+' }) }));
    load(messageFixture({ attachments: [NOTES] }));
    const view = render(<MessageRow messageId="m1" />);
    fireEvent.click(view.getByTestId('attachment-chip'));
    await settle();
    expect(open.mock.calls).toEqual([['blob:test/1', '_blank', 'noopener']]);
    expect(blobs.map((blob) => blob.type)).toEqual(['text/plain;charset=utf-8']);
    open.mockRestore();
  });

  it("opens a file in the desktop app through the main process's attachment link", () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const readAttachment = vi.fn<Api['readAttachment']>();
    installApi(fakeApi({ readAttachment }));
    useAppStore.setState({ host: 'electron' });
    load(messageFixture({ attachments: [NOTES] }));
    const view = render(<MessageRow messageId="m1" />);
    fireEvent.click(view.getByTestId('attachment-chip'));
    expect(open.mock.calls).toEqual([[`anybrain-attachment:${'b'.repeat(64)}?name=notes.html`]]);
    expect(readAttachment).not.toHaveBeenCalled();
    open.mockRestore();
  });

  it('names an image that could not be read', async () => {
    installApi(fakeApi({ readAttachment: () => Promise.reject(new Error('gone')) }));
    load(messageFixture({ attachments: [PHOTO] }));
    const view = render(<MessageRow messageId="m1" />);
    await settle();
    expect(view.getByRole('img', { name: 'photo.png (could not be loaded)' })).toBeTruthy();
  });
});
