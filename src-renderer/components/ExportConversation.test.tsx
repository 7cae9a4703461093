// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, MessageView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi, messageFixture, replyFixture } from '../state/test-fixtures';
import { ConversationHeader } from './ConversationHeader';
import { MessageRow } from './MessageRow';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const MESSAGES: readonly MessageView[] = [
  messageFixture({ id: 'u1', seq: 1, turnId: 't1', text: 'What is a monad?' }),
  replyFixture({ id: 'a1', seq: 2, turnId: 't1', text: 'A monoid in the category of endofunctors.' }),
  messageFixture({ id: 'u2', seq: 3, turnId: 't2', text: 'Say it simply.' }),
  replyFixture({ id: 'a2', seq: 4, turnId: 't2', text: 'A box with a rule for chaining.' }),
  messageFixture({ id: 'u3', seq: 5, turnId: 't3', text: 'Thanks!' }),
  replyFixture({ id: 'a3', seq: 6, turnId: 't3', text: 'You are welcome.' }),
];

let saved: Array<{ filename: string; text: string }> = [];
let blobOf: (url: string) => Blob;
let exportConversation: ReturnType<typeof vi.fn<Api['exportConversation']>>;

beforeEach(() => {
  resetAppStore();
  useAppStore.setState({
    conversationsById: { c1: conversationFixture() },
    conversationOrder: ['c1'],
    openConversationId: 'c1',
    messagesById: Object.fromEntries(MESSAGES.map((message) => [message.id, message])),
    messageIds: MESSAGES.map((message) => message.id),
    pageStatus: 'ready',
  });
  saved = [];
  const blobs = new Map<string, Blob>();
  blobOf = (url) => blobs.get(url)!;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    void blob.text().then((text) => saved.push({ filename: this.download, text }));
  });
  exportConversation = vi.fn<Api['exportConversation']>(async ({ format }) => ({
    filename: `first-conversation.${format}`,
    mimeType: 'text/plain',
    content: `exported as ${format}`,
  }));
  installApi(fakeApi({ exportConversation }));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderConversation() {
  return render(
    <>
      <ConversationHeader conversationId="c1" />
      {MESSAGES.map((message) => (
        <MessageRow key={message.id} messageId={message.id} />
      ))}
    </>,
  );
}

function openDialog(view: ReturnType<typeof render>): HTMLElement {
  fireEvent.click(view.getByRole('button', { name: 'Export…' }));
  return view.getByRole('dialog', { name: 'Export conversation' });
}

describe('Export of one conversation', () => {
  it('exports Markdown with tool calls and without reasoning by default, and hands focus back', async () => {
    const view = renderConversation();
    const trigger = view.getByRole('button', { name: 'Export…' });
    trigger.focus();
    openDialog(view);
    expect((view.getByLabelText('Markdown') as HTMLInputElement).checked).toBe(true);
    expect((view.getByLabelText('Include tool calls') as HTMLInputElement).checked).toBe(true);
    expect((view.getByLabelText('Include reasoning') as HTMLInputElement).checked).toBe(false);
    expect((view.getByLabelText('The whole conversation') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'md', includeTools: true, includeReasoning: false }]]);
    expect(saved).toEqual([{ filename: 'first-conversation.md', text: 'exported as md' }]);
    expect(view.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(useAppStore.getState().exportDraft).toBeNull();
  });

  it('exports a web page without tool calls and with reasoning', async () => {
    const view = renderConversation();
    openDialog(view);
    fireEvent.click(view.getByLabelText('Web page'));
    fireEvent.click(view.getByLabelText('Include tool calls'));
    fireEvent.click(view.getByLabelText('Include reasoning'));
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'html', includeTools: false, includeReasoning: true }]]);
  });

  it('exports every branch when asked, the branch shown by default', async () => {
    const view = renderConversation();
    openDialog(view);
    const branches = view.getByLabelText('Include every branch') as HTMLInputElement;
    expect(branches.checked).toBe(false);
    fireEvent.click(branches);
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'md', includeTools: true, includeReasoning: false, branches: 'all' }]]);
  });

  it('sends only the attachments choice with a transcript, which always carries the rest', async () => {
    const view = renderConversation();
    openDialog(view);
    fireEvent.click(view.getByLabelText('Include tool calls'));
    fireEvent.click(view.getByLabelText('Transcript'));
    const tools = view.getByLabelText('Include tool calls') as HTMLInputElement;
    const reasoning = view.getByLabelText('Include reasoning') as HTMLInputElement;
    const branches = view.getByLabelText('Include every branch') as HTMLInputElement;
    const attachments = view.getByLabelText('Include attachments') as HTMLInputElement;
    expect([tools.disabled, tools.checked, reasoning.disabled, reasoning.checked, branches.disabled, branches.checked]).toEqual([true, true, true, true, true, true]);
    expect([attachments.disabled, attachments.checked]).toEqual([false, true]);
    expect(tools.getAttribute('aria-describedby')).toBe('export-includes-hint');
    expect(attachments.getAttribute('aria-describedby')).toBeNull();
    expect(document.getElementById('export-includes-hint')?.textContent).toBe(
      'A transcript always carries every tool call and all reasoning, with their signatures, and every branch. With attachments included it carries their files too, so an import restores them.',
    );
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    fireEvent.click(view.getByRole('button', { name: 'Export…' }));
    fireEvent.click(view.getByLabelText('Transcript'));
    fireEvent.click(view.getByLabelText('Include attachments'));
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'json', includeAttachments: true }], [{ id: 'c1', format: 'json' }]]);
  });

  it('leaves the attachments out of Markdown and web pages when unticked, and saves Markdown with files as a zip of both', async () => {
    const view = renderConversation();
    openDialog(view);
    fireEvent.click(view.getByLabelText('Web page'));
    fireEvent.click(view.getByLabelText('Include attachments'));
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'html', includeTools: true, includeReasoning: false, includeAttachments: false }]]);

    exportConversation.mockImplementationOnce(async () => ({
      filename: 'first-conversation.md',
      mimeType: 'text/markdown',
      content: '![photo.png](first-conversation.attachments/photo.png)\n',
      files: [{ path: 'first-conversation.attachments/photo.png', dataBase64: 'iVBORw==' }],
    }));
    let zipped: Blob | null = null;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      zipped = blobOf(this.href);
      saved.push({ filename: this.download, text: '' });
    });
    openDialog(view);
    fireEvent.click(view.getByLabelText('Markdown'));
    expect(view.getByLabelText('Include attachments').getAttribute('aria-describedby')).toBe('export-attachments-hint');
    expect(document.getElementById('export-attachments-hint')?.textContent).toBe(
      'Attached files go in a folder beside the Markdown file, so a conversation with attachments downloads as a .zip of both.',
    );
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(saved.at(-1)!.filename).toBe('first-conversation.zip');
    const files = unzipSync(new Uint8Array(await zipped!.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['first-conversation.md', 'first-conversation.attachments/photo.png']);
    expect(strFromU8(files['first-conversation.md']!)).toBe('![photo.png](first-conversation.attachments/photo.png)\n');
    expect([...files['first-conversation.attachments/photo.png']!]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('exports the turns ticked in the message list, in conversation order', async () => {
    const view = renderConversation();
    expect(view.queryAllByTestId('turn-choice')).toEqual([]);
    openDialog(view);
    fireEvent.click(view.getByLabelText('Web page'));
    fireEvent.click(view.getByRole('button', { name: 'Choose turns…' }));

    expect(view.queryByRole('dialog')).toBeNull();
    const bar = view.getByRole('region', { name: 'Choose turns to export' });
    expect(document.activeElement).toBe(bar);
    expect(view.getByTestId('export-choosing-count').textContent).toBe('No turns chosen');
    expect((view.getByTestId('export-chosen') as HTMLButtonElement).disabled).toBe(true);
    // One checkbox per turn, on its user message, named by its words.
    expect(view.getAllByTestId('turn-choice').map((box) => box.getAttribute('aria-label'))).toEqual([
      'Export the turn “What is a monad?”',
      'Export the turn “Say it simply.”',
      'Export the turn “Thanks!”',
    ]);

    fireEvent.click(view.getByLabelText('Export the turn “Thanks!”'));
    fireEvent.click(view.getByLabelText('Export the turn “Say it simply.”'));
    fireEvent.click(view.getByLabelText('Export the turn “What is a monad?”'));
    fireEvent.click(view.getByLabelText('Export the turn “Say it simply.”'));
    expect(view.getByTestId('export-choosing-count').textContent).toBe('2 turns chosen');
    expect(document.querySelector('[data-message-id="a3"]')?.classList.contains('turn-chosen')).toBe(true);
    expect(document.querySelector('[data-message-id="a2"]')?.classList.contains('turn-chosen')).toBe(false);

    fireEvent.click(view.getByTestId('export-chosen'));
    await settle();
    expect(exportConversation.mock.calls).toEqual([
      [{ id: 'c1', format: 'html', includeTools: true, includeReasoning: false, turnIds: ['t1', 't3'] }],
    ]);
    expect(view.queryAllByTestId('turn-choice')).toEqual([]);
    expect(document.activeElement).toBe(view.getByRole('button', { name: 'Export…' }));
  });

  it('keeps the chosen turns when going back to the options, and exports none before one is chosen', async () => {
    const view = renderConversation();
    openDialog(view);
    fireEvent.click(view.getByLabelText('Chosen turns'));
    expect(view.getByTestId('export-chosen-count').textContent).toBe('No turns chosen');
    expect((view.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(view.getByRole('button', { name: 'Choose turns…' }));
    fireEvent.click(view.getByLabelText('Export the turn “Say it simply.”'));
    fireEvent.click(view.getByRole('button', { name: 'Options…' }));
    expect(view.getByTestId('export-chosen-count').textContent).toBe('1 turn chosen');
    fireEvent.click(view.getByLabelText('Transcript'));
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(exportConversation.mock.calls).toEqual([[{ id: 'c1', format: 'json', includeAttachments: true, turnIds: ['t2'] }]]);
  });

  it('closes on Esc, from the dialog and while choosing, exporting nothing and handing focus back', () => {
    const view = renderConversation();
    const trigger = view.getByRole('button', { name: 'Export…' });
    trigger.focus();
    openDialog(view);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(view.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);

    openDialog(view);
    fireEvent.click(view.getByRole('button', { name: 'Choose turns…' }));
    fireEvent.click(view.getByLabelText('Export the turn “Thanks!”'));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(view.queryByRole('region', { name: 'Choose turns to export' })).toBeNull();
    expect(view.queryAllByTestId('turn-choice')).toEqual([]);
    expect(document.activeElement).toBe(trigger);
    expect(useAppStore.getState().exportDraft).toBeNull();
    expect(exportConversation).not.toHaveBeenCalled();
  });

  it('says why an export failed', async () => {
    exportConversation.mockRejectedValueOnce(new Error('disk full'));
    const view = renderConversation();
    openDialog(view);
    fireEvent.click(view.getByRole('button', { name: 'Export' }));
    await settle();
    expect(useAppStore.getState().notice).toBe('Could not export: disk full');
    expect(saved).toEqual([]);
  });
});
