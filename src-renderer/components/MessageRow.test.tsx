// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { mergeInvocations } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { conversationFixture, fakeApi, invocationFixture, messageFixture, replyFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { MessageRow } from './MessageRow';

beforeEach(resetAppStore);
afterEach(cleanup);

describe('MessageRow', () => {
  it('marks a user row with its id, role, status and an empty brain', () => {
    loadOpenConversation(messageFixture({ text: 'Hi <b>there</b>' }));
    const view = render(<MessageRow messageId="m1" />);
    const row = view.getByTestId('message');
    expect([row.dataset.messageId, row.dataset.role, row.dataset.status, row.dataset.brain]).toEqual(['m1', 'user', 'complete', '']);
    expect(view.getByTestId('message-text').textContent).toBe('Hi <b>there</b>');
  });

  it('labels a reply with its brain and served model and renders its markdown', () => {
    loadOpenConversation(messageFixture(), replyFixture({ text: 'Some **bold** words' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message').dataset.brain).toBe('kimi');
    expect(view.getByTestId('message-brain-label').textContent).toBe('Kimi · kimi-k2.6');
    expect(view.getByTestId('message-text').querySelector('strong')?.textContent).toBe('bold');
    expect(view.queryByTestId('model-mismatch-warning')).toBeNull();
  });

  it('warns when another model served the reply', () => {
    loadOpenConversation(replyFixture({ modelRequested: 'kimi-k2.6', modelResponded: 'kimi-k2.5', modelMismatch: true }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-brain-label').textContent).toBe('Kimi · kimi-k2.5');
    expect(view.getByTestId('model-mismatch-warning').textContent).toBe('Asked for kimi-k2.6, served by kimi-k2.5');
  });

  it('does not warn about a dated snapshot of the requested model', () => {
    loadOpenConversation(replyFixture({ modelRequested: 'claude-sonnet-4-6', modelResponded: 'claude-sonnet-4-6-20260101', brain: 'claude' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-brain-label').textContent).toBe('Claude · claude-sonnet-4-6-20260101');
    expect(view.queryByTestId('model-mismatch-warning')).toBeNull();
  });

  it('labels a reply still waiting for its served model with the requested one', () => {
    loadOpenConversation(replyFixture({ status: 'streaming', text: '', modelResponded: null }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-brain-label').textContent).toBe('Kimi · kimi-k2.6');
    expect(view.getByTestId('typing-indicator')).toBeTruthy();
    expect(view.queryByTestId('model-mismatch-warning')).toBeNull();
  });

  it('shows the streamed text while the reply streams', () => {
    loadOpenConversation(replyFixture({ status: 'streaming', text: 'Hel' }));
    useAppStore.setState({ streamingText: { m2: 'Hello' } });
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-text').textContent).toBe('Hello');
  });

  it('shows one error under the reply text, keeping the text, with Retry inside it on the last reply', async () => {
    const retry = vi.fn<Api['retry']>().mockResolvedValue({ turnId: 't2', userMessageId: 'm1', assistantMessageId: 'm3' });
    installApi(fakeApi({ retry }));
    loadOpenConversation(
      messageFixture(),
      replyFixture({
        text: 'Partial answer',
        status: 'failed',
        error: { code: 'provider-error', message: 'The provider answered 529.', retryable: true, status: 529 },
      }),
    );
    const view = render(<MessageRow messageId="m2" />);
    const row = view.getByTestId('message');
    const text = view.getByTestId('message-text');
    const error = view.getByTestId('message-error');
    expect(text.textContent).toBe('Partial answer');
    expect(view.getByTestId('message-error-text').textContent).toBe('The provider answered 529.');
    expect(error.textContent).toBe('The provider answered 529.Retry');
    expect(view.queryByTestId('message-status')).toBeNull();
    expect(view.queryByText('Failed')).toBeNull();
    expect(text.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(row.dataset.status).toBe('failed');
    await act(async () => {
      fireEvent.click(within(error).getByTestId('retry-button'));
      await Promise.resolve();
    });
    expect(retry).toHaveBeenCalledWith({ conversationId: 'c1' });
  });

  it('offers Compact and retry on a reply refused as too large, which retries (the retry compacts first)', async () => {
    const retry = vi.fn<Api['retry']>().mockResolvedValue({ turnId: 't2', userMessageId: 'm1', assistantMessageId: 'm3' });
    installApi(fakeApi({ retry }));
    const message = "Kimi refused the request: this conversation is larger than Kimi's window.";
    loadOpenConversation(
      messageFixture(),
      replyFixture({ text: '', status: 'failed', error: { code: 'context-too-large', message, retryable: true, status: 400 } }),
    );
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-error-text').textContent).toBe(message);
    expect(view.queryByTestId('retry-button')).toBeNull();
    const button = within(view.getByTestId('message-error')).getByTestId('compact-retry-button') as HTMLButtonElement;
    expect([button.textContent, button.disabled]).toEqual(['Compact and retry', false]);
    act(() => useAppStore.setState({ compactions: { c1: { brain: 'kimi', model: 'kimi-k2.6', totalMessages: 9, summarisedMessages: 0, characters: 0 } } }));
    expect(button.disabled).toBe(true);
    act(() => useAppStore.setState({ compactions: {} }));
    await act(async () => {
      fireEvent.click(button);
      await Promise.resolve();
    });
    expect(retry).toHaveBeenCalledWith({ conversationId: 'c1' });
  });

  it("shows a refusal's explanation as text and offers another brain instead of Retry, which switches and asks again", async () => {
    const explanation = 'Claude declined to answer (cyber): <img src=x onerror=alert(1)> is not something I can help with.';
    const setConversationBrain = vi.fn<Api['setConversationBrain']>().mockResolvedValue(conversationFixture({ brain: 'gemini' }));
    const retry = vi.fn<Api['retry']>().mockResolvedValue({ turnId: 't2', userMessageId: 'm1', assistantMessageId: 'm3' });
    installApi(fakeApi({ setConversationBrain, retry }));
    loadOpenConversation(
      messageFixture(),
      replyFixture({ brain: 'claude', text: 'The first part', status: 'failed', error: { code: 'refusal', message: explanation, retryable: false } }),
    );
    useAppStore.setState({ conversationsById: { c1: conversationFixture({ brain: 'claude' }) } });
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-text').textContent).toBe('The first part');
    const error = view.getByTestId('message-error');
    expect(view.getByTestId('message-error-text').textContent).toBe(explanation);
    expect(error.querySelector('img')).toBeNull();
    expect(view.queryByTestId('message-status')).toBeNull();
    expect(view.queryByText('Failed')).toBeNull();
    expect(view.queryByTestId('retry-button')).toBeNull();
    const picker = within(error).getByRole('combobox', { name: 'Ask another brain' }) as HTMLSelectElement;
    const offered = [...picker.options].map((option) => option.value);
    expect(offered[0]).toBe('');
    expect(offered).toContain('gemini');
    expect(offered).not.toContain('claude');
    act(() => useAppStore.setState({ compactions: { c1: { brain: 'claude', model: 'claude-sonnet-4-6', totalMessages: 9, summarisedMessages: 0, characters: 0 } } }));
    expect(picker.disabled).toBe(true);
    act(() => useAppStore.setState({ compactions: {} }));
    fireEvent.change(picker, { target: { value: 'gemini' } });
    await waitFor(() => expect(retry).toHaveBeenCalledWith({ conversationId: 'c1' }));
    expect(setConversationBrain).toHaveBeenCalledWith({ id: 'c1', brain: 'gemini', model: null, reasoningLevel: null });
    expect(setConversationBrain.mock.invocationCallOrder[0]).toBeLessThan(retry.mock.invocationCallOrder[0] ?? 0);
    act(() => useAppStore.setState({ activeTurns: { c1: { turnId: 't2', assistantMessageId: 'm3' } } }));
    expect(view.queryByTestId('ask-another-brain')).toBeNull();
  });

  it('offers Settings for an error only a key can clear: "Add a key" for a missing one, "Check the key" for a refused one', () => {
    const missing = 'No API key for Kimi. Add one in Settings, or set MOONSHOT_API_KEY before starting Anybrain.';
    loadOpenConversation(messageFixture(), replyFixture({ text: '', status: 'failed', error: { code: 'missing-key', message: missing, retryable: false } }));
    const view = render(<MessageRow messageId="m2" />);
    const error = view.getByTestId('message-error');
    expect(error.textContent).toBe(`${missing}Add a keyRetry`);
    fireEvent.click(within(error).getByRole('button', { name: 'Add a key' }));
    expect(useAppStore.getState()).toMatchObject({ settingsOpen: true, settingsTab: 'general' });
    cleanup();
    loadOpenConversation(messageFixture(), replyFixture({ text: '', status: 'failed', error: { code: 'auth', message: 'Kimi rejected the API key.', retryable: false } }));
    expect(render(<MessageRow messageId="m2" />).getByTestId('message-error').textContent).toBe('Kimi rejected the API key.Check the keyRetry');
  });

  it("shows an earlier failed reply's error without actions, and a failed reply without an error as 'Failed' with Retry", () => {
    loadOpenConversation(
      replyFixture({ id: 'old', seq: 1, status: 'failed', error: { code: 'missing-key', message: 'No API key for Kimi.', retryable: false } }),
      messageFixture({ id: 'u2', seq: 2 }),
      replyFixture({ id: 'last', seq: 3, status: 'failed', error: null }),
    );
    const earlier = render(<MessageRow messageId="old" />);
    expect(earlier.getByTestId('message-error').textContent).toBe('No API key for Kimi.');
    expect(within(earlier.getByTestId('message-error')).queryByRole('button')).toBeNull();
    cleanup();
    const last = render(<MessageRow messageId="last" />);
    expect(last.getByTestId('message-status').textContent).toBe('Failed');
    expect(last.getByTestId('retry-button').textContent).toBe('Retry');
  });

  it('offers Retry on an interrupted last reply, and none on an earlier one or while a turn runs', () => {
    loadOpenConversation(
      replyFixture({ id: 'old', seq: 1, status: 'interrupted' }),
      messageFixture({ id: 'u2', seq: 2 }),
      replyFixture({ id: 'last', seq: 3, status: 'interrupted' }),
    );
    const earlier = render(<MessageRow messageId="old" />);
    expect(earlier.getByTestId('message-status').textContent).toBe('Interrupted: the app closed during this reply');
    expect(earlier.queryByTestId('retry-button')).toBeNull();
    cleanup();
    const last = render(<MessageRow messageId="last" />);
    expect(last.getByTestId('retry-button')).toBeTruthy();
    act(() => useAppStore.setState({ activeTurns: { c1: { turnId: 't9', assistantMessageId: 'x' } } }));
    expect(last.queryByTestId('retry-button')).toBeNull();
  });

  it('marks a stopped reply without offering Retry', () => {
    loadOpenConversation(replyFixture({ status: 'stopped', text: 'Half' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message-status').textContent).toBe('Stopped');
    expect(view.queryByTestId('retry-button')).toBeNull();
  });

  it('renders a system line as a muted centred line', () => {
    loadOpenConversation(messageFixture({ id: 's1', role: 'system', kind: 'notice', text: 'Brain switched to GLM' }));
    const view = render(<MessageRow messageId="s1" />);
    const row = view.getByTestId('message');
    expect(row.className).toBe('message system kind-notice');
    expect(row.dataset.role).toBe('system');
    expect(row.textContent).toBe('Brain switched to GLM');
  });

  it('re-renders only the row whose reply receives a delta', () => {
    loadOpenConversation(replyFixture({ id: 'a', seq: 1, text: 'One' }), replyFixture({ id: 'b', seq: 2, text: 'Two', status: 'streaming' }));
    const commits: string[] = [];
    const onRender = (id: string) => commits.push(id);
    const view = render(
      <>
        <Profiler id="a" onRender={onRender}>
          <MessageRow messageId="a" />
        </Profiler>
        <Profiler id="b" onRender={onRender}>
          <MessageRow messageId="b" />
        </Profiler>
      </>,
    );
    commits.length = 0;
    act(() => useAppStore.setState({ streamingText: { b: 'Two more' } }));
    act(() => useAppStore.setState({ streamingText: { b: 'Two more words' } }));
    // Each delta commits the streaming row twice: its urgent render, then its text rendered in the background.
    expect(commits).toEqual(['b', 'b', 'b', 'b']);
    expect(view.getAllByTestId('message-text').map((element) => element.textContent)).toEqual(['One', 'Two more words']);
  });

  it('shows the tool a streaming reply waits on, then its receipt under the text', () => {
    loadOpenConversation(replyFixture({ status: 'streaming', text: 'Let me check.' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.queryByTestId('tool-activity')).toBeNull();
    act(() => useAppStore.setState({ runningTools: { m2: { tool: 'current_time', server: null } } }));
    expect(view.getByTestId('tool-activity').textContent).toBe('Using current_time…');
    act(() =>
      useAppStore.setState((state) => ({ runningTools: {}, ...mergeInvocations(state, [invocationFixture()]) })),
    );
    expect(view.queryByTestId('tool-activity')).toBeNull();
    const text = view.getByTestId('message-text');
    const receipt = view.getByTestId('turn-receipt');
    expect(receipt.textContent).toContain('1 tool');
    expect(text.compareDocumentPosition(receipt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(text.textContent).toBe('Let me check.');
  });

  it('names the server of a running MCP tool, and shows no activity once the reply ended', () => {
    loadOpenConversation(replyFixture({ status: 'streaming' }));
    useAppStore.setState({ runningTools: { m2: { tool: 'read_file', server: 'files' } } });
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('tool-activity').textContent).toBe('Using files · read_file…');
    act(() => useAppStore.setState((state) => ({ messagesById: { m2: replyFixture({ status: 'complete' }) }, runningTools: state.runningTools })));
    expect(view.queryByTestId('tool-activity')).toBeNull();
  });

  it('updates only the row whose receipt changes, and a delta leaves the receipts alone', () => {
    loadOpenConversation(replyFixture({ id: 'a', seq: 1, text: 'One' }), replyFixture({ id: 'b', seq: 2, text: 'Two', status: 'streaming' }));
    useAppStore.setState((state) => mergeInvocations(state, [invocationFixture({ id: 'ia', messageId: 'a' })]));
    const commits: string[] = [];
    const onRender = (id: string) => commits.push(id);
    const view = render(
      <>
        <Profiler id="a" onRender={onRender}>
          <MessageRow messageId="a" />
        </Profiler>
        <Profiler id="b" onRender={onRender}>
          <MessageRow messageId="b" />
        </Profiler>
      </>,
    );
    commits.length = 0;
    act(() => useAppStore.setState((state) => mergeInvocations(state, [invocationFixture({ id: 'ib', messageId: 'b' })])));
    act(() => useAppStore.setState({ runningTools: { b: { tool: 'search', server: null } } }));
    act(() => useAppStore.setState({ streamingText: { b: 'Two more' } }));
    // The delta commits twice: the row's urgent render, then its text rendered in the background.
    expect(commits).toEqual(['b', 'b', 'b', 'b']);
    const receipt = { counts: { memory: 0, tool: 1, skill: 0 }, summary: '1 tool', chips: [] };
    act(() => useAppStore.setState((state) => ({ receiptsByMessage: { ...state.receiptsByMessage, a: receipt } })));
    expect(commits).toEqual(['b', 'b', 'b', 'b', 'a']);
    expect(view.getAllByTestId('turn-receipt')).toHaveLength(1);
  });
});
