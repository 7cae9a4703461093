// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApiError, type Api, type AttachmentView } from '../../src-shared/api';
import { ATTACHMENT_ACCEPT } from '../../src-shared/attachments';
import { installApi } from '../state/api-client';
import { forgetAttachmentUrls } from '../state/attachment-actions';
import { resetAppStore, useAppStore } from '../state/store';
import { installMessageQueue } from '../state/turn-actions';
import { conversationFixture, fakeApi } from '../state/test-fixtures';
import { Composer } from './Composer';

const sent = { turnId: 't1', userMessageId: 'u1', assistantMessageId: 'a1' };
const MEBIBYTE = 1024 * 1024;

function attachmentView(overrides: Partial<AttachmentView> = {}): AttachmentView {
  return {
    id: 'att-1',
    name: 'photo.png',
    mediaType: 'image/png',
    kind: 'image',
    size: 2048,
    sha256: 'a'.repeat(64),
    width: 1280,
    height: 720,
    ...overrides,
  };
}

const PHOTO = attachmentView();
const REPORT = attachmentView({ id: 'att-2', name: 'report.pdf', mediaType: 'application/pdf', kind: 'pdf', size: 120 * 1024, width: null, height: null, sha256: 'b'.repeat(64) });

/** The host stores each file by name: the views to answer with. */
function addAttachmentBy(views: readonly AttachmentView[]) {
  return vi.fn<Api['addAttachment']>(async ({ name }) => {
    const view = views.find((candidate) => candidate.name === name);
    if (view === undefined) throw new Error(`unexpected file ${name}`);
    return view;
  });
}

function file(name: string, content = 'hello', type = ''): File {
  return new File([content], name, { type });
}

function renderComposer() {
  const view = render(<Composer conversationId="c1" />);
  const input = view.getByTestId('composer-input') as HTMLTextAreaElement;
  return { view, input, sendButton: view.queryByTestId('send-button') as HTMLButtonElement };
}

/** Lets FileReader, the Api's promises and React settle. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

function pick(view: ReturnType<typeof render>, files: File[]): void {
  fireEvent.change(view.getByTestId('composer-file-input'), { target: { files } });
}

beforeEach(() => {
  resetAppStore();
  forgetAttachmentUrls();
  URL.createObjectURL = vi.fn((blob: Blob) => `blob:test/${(blob as File).name ?? 'bytes'}`);
  useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'gemini' }) } });
});
afterEach(cleanup);

describe('Composer attachments', () => {
  it('offers a labelled attach button whose picker takes several files of the accepted kinds', () => {
    const { view } = renderComposer();
    const picker = view.getByTestId('composer-file-input') as HTMLInputElement;
    expect([picker.accept, picker.multiple, picker.type]).toEqual([ATTACHMENT_ACCEPT, true, 'file']);
    const click = vi.spyOn(picker, 'click');
    fireEvent.click(view.getByRole('button', { name: 'Attach files' }));
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('stores picked files, shows a thumbnail and a chip, and sends them with the text', async () => {
    const addAttachment = addAttachmentBy([PHOTO, REPORT]);
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ addAttachment, send }));
    const { view, input, sendButton } = renderComposer();
    pick(view, [file('photo.png', 'hello'), file('report.pdf', 'world')]);
    await settle();
    expect(addAttachment.mock.calls).toEqual([[{ name: 'photo.png', dataBase64: 'aGVsbG8=' }], [{ name: 'report.pdf', dataBase64: 'd29ybGQ=' }]]);
    const tray = view.getByRole('list', { name: 'Attached files' });
    expect(within(tray).getByRole('img', { name: 'photo.png' }).getAttribute('src')).toBe('blob:test/photo.png');
    expect(within(tray).getByText('report.pdf')).toBeTruthy();
    expect(within(tray).getByText('PDF · 120 KB')).toBeTruthy();
    expect(within(tray).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Remove photo.png',
      'Remove report.pdf',
    ]);
    fireEvent.change(input, { target: { value: 'What is in these?' } });
    fireEvent.click(sendButton);
    await settle();
    expect(send.mock.calls).toEqual([[{ conversationId: 'c1', text: 'What is in these?', attachmentIds: ['att-1', 'att-2'] }]]);
    expect(view.queryByTestId('attachment-tray')).toBeNull();
    expect(input.value).toBe('');
  });

  it('sends files without words, but waits while a file is still being stored', async () => {
    let store: (view: AttachmentView) => void = () => undefined;
    const addAttachment = vi.fn<Api['addAttachment']>(() => new Promise((resolve) => (store = resolve)));
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ addAttachment, send }));
    const { view, sendButton } = renderComposer();
    pick(view, [file('photo.png')]);
    await settle();
    expect(view.getByTestId('tray-attachment').dataset.state).toBe('storing');
    expect([sendButton.disabled, sendButton.title]).toEqual([true, 'Wait until the files are attached.']);
    act(() => store(PHOTO));
    await settle();
    expect(sendButton.disabled).toBe(false);
    fireEvent.click(sendButton);
    await settle();
    expect(send.mock.calls).toEqual([[{ conversationId: 'c1', text: '', attachmentIds: ['att-1'] }]]);
  });

  it('attaches an image pasted into the message field instead of pasting its markup', async () => {
    const addAttachment = addAttachmentBy([PHOTO]);
    installApi(fakeApi({ addAttachment }));
    const { input } = renderComposer();
    const notPrevented = fireEvent.paste(input, { clipboardData: { files: [file('photo.png', 'hello', 'image/png')], types: ['Files'] } });
    await settle();
    expect(notPrevented).toBe(false);
    expect(addAttachment.mock.calls).toEqual([[{ name: 'photo.png', dataBase64: 'aGVsbG8=' }]]);
    // Pasting words is left to the field.
    expect(fireEvent.paste(input, { clipboardData: { files: [], types: ['text/plain'] } })).toBe(true);
  });

  it('attaches files dropped on the composer, marking the drop zone while they hover', async () => {
    const addAttachment = addAttachmentBy([REPORT]);
    installApi(fakeApi({ addAttachment }));
    const { view } = renderComposer();
    const box = view.getByTestId('composer-box');
    fireEvent.dragEnter(box, { dataTransfer: { types: ['Files'], files: [] } });
    expect(box.className).toBe('composer-box dropping');
    fireEvent.drop(box, { dataTransfer: { types: ['Files'], files: [file('report.pdf', 'world')] } });
    await settle();
    expect(box.className).toBe('composer-box');
    expect(addAttachment.mock.calls).toEqual([[{ name: 'report.pdf', dataBase64: 'd29ybGQ=' }]]);
    expect(view.getByTestId('tray-attachment').dataset.state).toBe('stored');
  });

  it("shows the host's refusal beside the composer, keeps nothing in the tray, and can be dismissed", async () => {
    const message = 'empty.txt is empty (0 bytes): there is nothing to attach.';
    installApi(fakeApi({ addAttachment: () => Promise.reject(new ApiError('attachment-empty', message)) }));
    const { view } = renderComposer();
    pick(view, [file('empty.txt', '')]);
    await settle();
    expect(view.getByRole('alert').textContent).toBe(message);
    expect(view.queryByTestId('attachment-tray')).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Dismiss the attachment problems' }));
    expect(view.queryByTestId('attachment-problems')).toBeNull();
  });

  it('refuses a file over every limit and files past ten without reading them', async () => {
    const addAttachment = addAttachmentBy([PHOTO]);
    installApi(fakeApi({ addAttachment }));
    const { view } = renderComposer();
    const huge = file('film.gif');
    Object.defineProperty(huge, 'size', { value: 25 * MEBIBYTE });
    pick(view, [huge]);
    await settle();
    expect(view.getAllByTestId('attachment-problem').map((problem) => problem.textContent)).toEqual([
      'film.gif is 25 MB, over the 20 MB limit for any attachment. Attach a smaller file.',
    ]);
    pick(view, Array.from({ length: 11 }, () => file('photo.png')));
    await settle();
    expect(addAttachment).toHaveBeenCalledTimes(10);
    expect(view.getAllByTestId('attachment-problem').map((problem) => problem.textContent)).toEqual([
      'photo.png was not attached: a message takes at most 10 files.',
    ]);
  });

  it('says before sending that the chosen model cannot take a file, and sends once the brain can', async () => {
    installApi(fakeApi({ addAttachment: addAttachmentBy([PHOTO, REPORT]) }));
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'glm' }) } }));
    const { view, sendButton } = renderComposer();
    pick(view, [file('photo.png'), file('report.pdf')]);
    await settle();
    const sentence = 'GLM glm-5.1 cannot see images or read PDFs here; switch to Gemini or remove them.';
    expect(view.getByTestId('attachment-refusal').textContent).toBe(sentence);
    expect([sendButton.disabled, sendButton.title]).toEqual([true, sentence]);
    expect(sendButton.getAttribute('aria-describedby')).toBe(view.getByTestId('attachment-refusal').id);
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'kimi' }) } }));
    expect(view.getByTestId('attachment-refusal').textContent).toBe('Kimi kimi-k2.6 cannot read PDFs here; switch to Gemini or remove it.');
    act(() => useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'gemini' }) } }));
    expect(view.queryByTestId('attachment-refusal')).toBeNull();
    expect(sendButton.disabled).toBe(false);
  });

  it('removes a stored file from the tray and from the host', async () => {
    const removeAttachment = vi.fn<Api['removeAttachment']>().mockResolvedValue(null);
    installApi(fakeApi({ addAttachment: addAttachmentBy([PHOTO, REPORT]), removeAttachment }));
    const { view } = renderComposer();
    pick(view, [file('photo.png'), file('report.pdf')]);
    await settle();
    fireEvent.click(view.getByRole('button', { name: 'Remove photo.png' }));
    await settle();
    expect(removeAttachment.mock.calls).toEqual([[{ id: 'att-1' }]]);
    expect(view.getAllByTestId('tray-attachment').map((entry) => entry.title)).toEqual(['report.pdf']);
  });

  it('lets the host forget a file removed while it was still being stored', async () => {
    let store: (view: AttachmentView) => void = () => undefined;
    const removeAttachment = vi.fn<Api['removeAttachment']>().mockResolvedValue(null);
    installApi(fakeApi({ addAttachment: () => new Promise((resolve) => (store = resolve)), removeAttachment }));
    const { view } = renderComposer();
    pick(view, [file('photo.png')]);
    await settle();
    fireEvent.click(view.getByRole('button', { name: 'Remove photo.png' }));
    act(() => store(PHOTO));
    await settle();
    expect(removeAttachment.mock.calls).toEqual([[{ id: 'att-1' }]]);
    expect(view.queryByTestId('attachment-tray')).toBeNull();
  });

  it('queues the files with the words while a reply runs, and cancelling puts both back', async () => {
    const send = vi.fn<Api['send']>().mockResolvedValue(sent);
    installApi(fakeApi({ addAttachment: addAttachmentBy([PHOTO]), send }));
    const uninstallQueue = installMessageQueue();
    onTestFinished(uninstallQueue);
    useAppStore.setState({ activeTurns: { c1: { turnId: 't0', assistantMessageId: 'a0' } } });
    const { view, input } = renderComposer();
    pick(view, [file('photo.png')]);
    await settle();
    fireEvent.change(input, { target: { value: 'And this one?' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.click(view.getByTestId('composer-queue'));
    expect(view.getByTestId('composer-queued').textContent).toBe('Queued: And this one? (with 1 file)Cancel');
    expect(view.queryByTestId('attachment-tray')).toBeNull();
    fireEvent.click(view.getByTestId('composer-queued-cancel'));
    expect(input.value).toBe('And this one?');
    expect(view.getAllByTestId('tray-attachment').map((entry) => entry.title)).toEqual(['photo.png']);

    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.click(view.getByTestId('composer-queue'));
    act(() => useAppStore.setState({ activeTurns: {} }));
    await settle();
    expect(send.mock.calls).toEqual([[{ conversationId: 'c1', text: 'And this one?', attachmentIds: ['att-1'] }]]);
  });
});
