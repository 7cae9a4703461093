// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { BRAINS, BRAIN_IDS } from '../../src-shared/brains';
import { installApi } from '../state/api-client';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi, invocationFixture, messageFixture, replyFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { MessageRow } from './MessageRow';

const { getState, setState } = useAppStore;

async function settle(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

const started = { turnId: 't9', userMessageId: 'u9', assistantMessageId: 'a9' };

/** u1 → a1 → u2 → a2, where u2 is the second of three alternatives under a1. */
function loadPath(): void {
  loadOpenConversation(
    messageFixture({ id: 'u1', seq: 1, turnId: 't1', text: 'first' }),
    replyFixture({ id: 'a1', seq: 2, turnId: 't1', parentId: 'u1', text: 'A **bold** answer\n\n- one' }),
    messageFixture({ id: 'u2', seq: 5, turnId: 't2', parentId: 'a1', text: 'second', siblings: { index: 2, count: 3, previousId: 'u2a', nextId: 'u2c' } }),
    replyFixture({ id: 'a2', seq: 6, turnId: 't2', parentId: 'u2', text: 'second answer' }),
  );
}

beforeEach(resetAppStore);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('message actions', () => {
  it('copies exactly the stored Markdown of a reply, and says so', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    loadPath();
    const view = render(<MessageRow messageId="a1" />);
    fireEvent.click(view.getByRole('button', { name: 'Copy message' }));
    await settle();
    expect(writeText).toHaveBeenCalledWith('A **bold** answer\n\n- one');
    expect(view.getByTestId('copy-status').textContent).toBe('Copied');
  });

  it('opens the editor on a user message; Esc cancels it and leaves the message as it was', () => {
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    const edit = view.getByRole('button', { name: 'Edit' });
    edit.focus();
    fireEvent.click(edit);
    const input = view.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement;
    expect(input.value).toBe('second');
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'changed my mind' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(view.queryByTestId('message-editor')).toBeNull();
    expect(view.getByTestId('message-text').textContent).toBe('second');
    expect(getState().editingMessageId).toBeNull();
    expect(document.activeElement).toBe(view.getByRole('button', { name: 'Edit' }));
  });

  it('sends the edited text with Enter and with Send, keeping Shift+Enter for a new line', async () => {
    const editMessage = vi.fn<Api['editMessage']>().mockResolvedValue(started);
    installApi(fakeApi({ editMessage }));
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    fireEvent.click(view.getByRole('button', { name: 'Edit' }));
    const input = view.getByRole('textbox', { name: 'Edit message' });
    fireEvent.change(input, { target: { value: 'second, better' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(editMessage).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(editMessage).toHaveBeenCalledWith({ messageId: 'u2', text: 'second, better' });
    expect(getState().editingMessageId).toBeNull();
    expect(getState().activeTurns).toEqual({ c1: { turnId: 't9', assistantMessageId: 'a9' } });

    editMessage.mockClear();
    act(() => setState({ activeTurns: {} }));
    fireEvent.click(view.getByRole('button', { name: 'Edit' }));
    fireEvent.change(view.getByRole('textbox', { name: 'Edit message' }), { target: { value: 'by the button' } });
    fireEvent.click(view.getByRole('button', { name: 'Send' }));
    await settle();
    expect(editMessage).toHaveBeenCalledWith({ messageId: 'u2', text: 'by the button' });
  });

  it('keeps the editor and its text open with the refusal when the edit is refused', async () => {
    const editMessage = vi.fn<Api['editMessage']>().mockRejectedValue(new Error('A reply is still being written in this conversation.'));
    installApi(fakeApi({ editMessage }));
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    fireEvent.click(view.getByRole('button', { name: 'Edit' }));
    fireEvent.change(view.getByRole('textbox', { name: 'Edit message' }), { target: { value: 'kept' } });
    fireEvent.click(view.getByRole('button', { name: 'Send' }));
    await settle();
    expect(view.getByRole('alert').textContent).toBe('A reply is still being written in this conversation.');
    expect((view.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement).value).toBe('kept');
  });

  it('offers no Edit while a reply runs, nor on a message a summary covers', () => {
    loadPath();
    setState({ activeTurns: { c1: { turnId: 't3', assistantMessageId: 'a3' } } });
    const running = render(<MessageRow messageId="u2" />);
    expect(running.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(running.getByRole('button', { name: 'Copy message' })).toBeTruthy();
    cleanup();
    setState({ activeTurns: {} });
    loadOpenConversation(messageFixture({ id: 'u1', compactedInto: 's1', siblings: { index: 1, count: 2, previousId: null, nextId: 'u1b' } }), replyFixture({ id: 'a1', compactedInto: 's1' }));
    const coveredUser = render(<MessageRow messageId="u1" />);
    expect(coveredUser.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(coveredUser.queryByTestId('sibling-pager')).toBeNull();
    const coveredReply = render(<MessageRow messageId="a1" />);
    expect(coveredReply.queryByRole('button', { name: 'Regenerate' })).toBeNull();
    expect(coveredReply.queryByRole('button', { name: 'Answer with…' })).toBeNull();
  });

  it('regenerates a reply with its own id', async () => {
    const regenerate = vi.fn<Api['regenerate']>().mockResolvedValue(started);
    installApi(fakeApi({ regenerate }));
    loadPath();
    const view = render(<MessageRow messageId="a2" />);
    fireEvent.click(view.getByRole('button', { name: 'Regenerate' }));
    await settle();
    expect(regenerate).toHaveBeenCalledWith({ messageId: 'a2' });
  });

  it('answers with another brain from a menu of the seven brains, worked by the keyboard', async () => {
    const answerWith = vi.fn<Api['answerWith']>().mockResolvedValue(started);
    installApi(fakeApi({ answerWith }));
    loadPath();
    const view = render(<MessageRow messageId="a2" />);
    const button = view.getByRole('button', { name: 'Answer with…' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.click(button);
    const menu = view.getByRole('menu', { name: 'Answer with' });
    const items = view.getAllByRole('menuitem');
    expect(items.map((item) => item.querySelector('.answer-with-label')?.textContent)).toEqual(BRAIN_IDS.map((id) => BRAINS[id].label));
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[6]);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(view.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const gemini = view.getByRole('menuitem', { name: 'Gemini' });
    fireEvent.keyDown(view.getByRole('menu'), { key: 'End' });
    fireEvent.keyDown(view.getByRole('menu'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(gemini);
    fireEvent.click(gemini);
    await settle();
    expect(answerWith).toHaveBeenCalledWith({ messageId: 'a2', brain: 'gemini' });
    expect(view.queryByRole('menu')).toBeNull();
  });

  it("answers on a model of the brain's own list, reached with the right arrow", async () => {
    const answerWith = vi.fn<Api['answerWith']>().mockResolvedValue(started);
    installApi(fakeApi({ answerWith }));
    loadPath();
    const view = render(<MessageRow messageId="a2" />);
    fireEvent.click(view.getByRole('button', { name: 'Answer with…' }));
    const kimi = view.getByRole('menuitem', { name: 'Kimi' });
    kimi.focus();
    fireEvent.keyDown(view.getByRole('menu'), { key: 'ArrowRight' });
    const models = view.getByRole('menu', { name: 'Answer with Kimi on the model' });
    expect(view.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['‹ All brains', 'kimi-k3', 'kimi-k2.6default', 'kimi-k2.5']);
    expect(document.activeElement?.textContent).toBe('‹ All brains');
    fireEvent.keyDown(models, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(view.getByRole('menuitem', { name: 'Kimi' }));
    fireEvent.keyDown(view.getByRole('menu'), { key: 'ArrowRight' });
    fireEvent.click(view.getByRole('menuitem', { name: 'kimi-k2.5' }));
    await settle();
    expect(answerWith).toHaveBeenCalledWith({ messageId: 'a2', brain: 'kimi', model: 'kimi-k2.5' });
  });

  it('labels a sibling reply with its brain and served model', () => {
    loadOpenConversation(messageFixture(), replyFixture({ brain: 'gemini', modelRequested: 'gemini-3-pro', modelResponded: 'gemini-3-pro-preview', siblings: { index: 2, count: 2, previousId: 'a0', nextId: null } }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-brain-label').textContent).toBe('Gemini · gemini-3-pro-preview');
    expect(view.getByTestId('sibling-position').textContent).toBe('2 / 2');
  });
});

describe('the alternatives pager', () => {
  it('shows "2 / 3" and no pager on a message without alternatives', () => {
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    expect(view.getByTestId('sibling-position').textContent).toBe('2 / 3');
    expect(view.getByRole('group', { name: 'Alternatives' })).toBeTruthy();
    cleanup();
    expect(render(<MessageRow messageId="a2" />).queryByTestId('sibling-pager')).toBeNull();
  });

  it('shows the previous alternative: the rows from the fork down are replaced by the answer', async () => {
    const branch = {
      messages: [
        replyFixture({ id: 'a1', seq: 2, turnId: 't1', parentId: 'u1', text: 'A **bold** answer\n\n- one' }),
        messageFixture({ id: 'u2a', seq: 3, turnId: 't3', parentId: 'a1', text: 'older second', siblings: { index: 1, count: 3, previousId: null, nextId: 'u2' } }),
        replyFixture({ id: 'a2a', seq: 4, turnId: 't3', parentId: 'u2a', text: 'older answer' }),
      ],
      invocations: [invocationFixture({ id: 'i7', messageId: 'a2a', turnId: 't3' })],
      hasOlder: true,
    };
    const chooseSibling = vi.fn<Api['chooseSibling']>().mockResolvedValue(branch);
    installApi(fakeApi({ chooseSibling }));
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    fireEvent.click(view.getByRole('button', { name: 'Previous alternative' }));
    await settle();
    expect(chooseSibling).toHaveBeenCalledWith({ messageId: 'u2a' });
    expect(getState().messageIds).toEqual(['u1', 'a1', 'u2a', 'a2a']);
    expect(getState().messagesById.u2).toBeUndefined();
    expect(getState().invocationsByMessage.a2a?.map((invocation) => invocation.id)).toEqual(['i7']);
    // The rows above the fork were loaded before, and older ones are known not to exist.
    expect(getState().hasOlder).toBe(false);
  });

  it('shows the next alternative; an answer that starts above the loaded rows replaces the list', async () => {
    const newestPage = {
      messages: [
        messageFixture({ id: 'u2c', seq: 7, turnId: 't4', parentId: 'a1', text: 'third try', siblings: { index: 3, count: 3, previousId: 'u2', nextId: null } }),
        replyFixture({ id: 'a2c', seq: 8, turnId: 't4', parentId: 'u2c', text: 'third answer' }),
      ],
      invocations: [],
      hasOlder: true,
    };
    const chooseSibling = vi.fn<Api['chooseSibling']>().mockResolvedValue(newestPage);
    installApi(fakeApi({ chooseSibling }));
    loadPath();
    const view = render(<MessageRow messageId="u2" />);
    fireEvent.click(view.getByRole('button', { name: 'Next alternative' }));
    await settle();
    expect(chooseSibling).toHaveBeenCalledWith({ messageId: 'u2c' });
    expect(getState().messageIds).toEqual(['u2c', 'a2c']);
    expect(getState().hasOlder).toBe(true);
  });

  it('cannot page while a reply runs, and has no way past either end', () => {
    loadPath();
    setState({
      messagesById: { ...getState().messagesById, u2: messageFixture({ id: 'u2', siblings: { index: 3, count: 3, previousId: 'u2b', nextId: null } }) },
    });
    const view = render(<MessageRow messageId="u2" />);
    const previous = view.getByRole('button', { name: 'Previous alternative' }) as HTMLButtonElement;
    const next = view.getByRole('button', { name: 'Next alternative' }) as HTMLButtonElement;
    expect([previous.disabled, next.disabled]).toEqual([false, true]);
    act(() => setState({ activeTurns: { c1: { turnId: 't3', assistantMessageId: 'a3' } } }));
    expect(previous.disabled).toBe(true);
  });
});
