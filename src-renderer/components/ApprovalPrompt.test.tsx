// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { flushPendingDeltas } from '../state/delta-buffer';
import { handleApiEvent } from '../state/events';
import { resetAppStore, useAppStore } from '../state/store';
import { approvalFixture, conversationFixture, fakeApi, messageFixture, replyFixture, toolFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { UnplacedApprovals } from './ApprovalPrompt';
import { ConversationItem } from './ConversationItem';
import { MessageRow } from './MessageRow';

function push(...events: Parameters<typeof handleApiEvent>[0][]): void {
  act(() => {
    for (const event of events) handleApiEvent(event);
  });
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

function renderStreamingReply() {
  loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: 'Let me check' }));
  return render(<MessageRow messageId="m2" />);
}

beforeEach(resetAppStore);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ApprovalPrompt', () => {
  it('appears under the streaming reply when asked and goes away when resolved', () => {
    const view = renderStreamingReply();
    expect(view.queryByTestId('approval-prompt')).toBeNull();
    push({ type: 'approval-requested', approval: approvalFixture() });
    const prompt = view.getByTestId('approval-prompt');
    expect(prompt.dataset.approvalId).toBe('ap1');
    expect(within(prompt).getByTestId('approval-tool').textContent).toBe('everything · echo');
    expect(within(prompt).getByTestId('approval-input').textContent).toBe('{\n  "message": "approve me"\n}');
    push({ type: 'approval-resolved', approvalId: 'ap1', conversationId: 'c1', outcome: 'cancelled' });
    expect(view.queryByTestId('approval-prompt')).toBeNull();
  });

  it('names a built-in tool without a server, and ignores questions of other turns', () => {
    const view = renderStreamingReply();
    push(
      { type: 'approval-requested', approval: approvalFixture({ server: null, tool: 'read_file' }) },
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'other', turnId: 't9' }) },
    );
    expect(view.getAllByTestId('approval-prompt').map((prompt) => prompt.dataset.approvalId)).toEqual(['ap1']);
    expect(view.getByTestId('approval-tool').textContent).toBe('read_file');
  });

  it('shows an untrusted input as plain text', () => {
    const view = renderStreamingReply();
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    push({ type: 'approval-requested', approval: approvalFixture({ input: { html: hostile } }) });
    const input = view.getByTestId('approval-input');
    expect(input.textContent).toContain(hostile.replaceAll('"', '\\"'));
    expect(view.container.querySelector('img, script')).toBeNull();
  });

  it('answers with Allow and with Deny through the Api, disabling the buttons meanwhile', async () => {
    const answerApproval = vi.fn<Api['answerApproval']>().mockResolvedValue({ answered: true });
    installApi(fakeApi({ answerApproval }));
    const view = renderStreamingReply();
    push(
      { type: 'approval-requested', approval: approvalFixture() },
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'ap2' }) },
    );
    const [first, second] = view.getAllByTestId('approval-prompt');
    const allow = within(first as HTMLElement).getByTestId('approval-allow') as HTMLButtonElement;
    expect(allow.tagName).toBe('BUTTON');
    fireEvent.click(allow);
    expect(allow.disabled).toBe(true);
    expect((within(first as HTMLElement).getByTestId('approval-deny') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(second as HTMLElement).getByTestId('approval-deny'));
    await settle();
    expect(answerApproval.mock.calls).toEqual([[{ approvalId: 'ap1', decision: 'allow' }], [{ approvalId: 'ap2', decision: 'deny' }]]);
    push({ type: 'approval-resolved', approvalId: 'ap1', conversationId: 'c1', outcome: 'allow' });
    expect(view.getAllByTestId('approval-prompt').map((prompt) => prompt.dataset.approvalId)).toEqual(['ap2']);
  });

  it('sets the policy to allow before allowing with "Always allow this tool"', async () => {
    const calls: string[] = [];
    const setToolPolicy = vi.fn<Api['setToolPolicy']>(async () => {
      calls.push('setToolPolicy');
      return [toolFixture({ name: 'everything__echo', tool: 'echo', server: 'everything', policy: 'allow' })];
    });
    const answerApproval = vi.fn<Api['answerApproval']>(async () => {
      calls.push('answerApproval');
      return { answered: true };
    });
    installApi(fakeApi({ setToolPolicy, answerApproval }));
    const view = renderStreamingReply();
    push({ type: 'approval-requested', approval: approvalFixture() });
    fireEvent.click(view.getByTestId('approval-always-allow'));
    await settle();
    expect(setToolPolicy).toHaveBeenCalledWith({ server: 'everything', tool: 'echo', policy: 'allow' });
    expect(answerApproval).toHaveBeenCalledWith({ approvalId: 'ap1', decision: 'allow' });
    expect(calls).toEqual(['setToolPolicy', 'answerApproval']);
    expect(useAppStore.getState().tools?.[0]?.policy).toBe('allow');
  });

  it('shows a refused answer and lets the person try again', async () => {
    const answerApproval = vi.fn<Api['answerApproval']>().mockRejectedValueOnce(new ApiError('connection', 'Anybrain is not reachable.'));
    installApi(fakeApi({ answerApproval }));
    const view = renderStreamingReply();
    push({ type: 'approval-requested', approval: approvalFixture() });
    fireEvent.click(view.getByTestId('approval-allow'));
    await settle();
    expect(view.getByTestId('approval-error').textContent).toBe('Anybrain is not reachable.');
    expect((view.getByTestId('approval-allow') as HTMLButtonElement).disabled).toBe(false);
  });

  it('drops a question the host says is no longer waiting', async () => {
    installApi(fakeApi({ answerApproval: async () => ({ answered: false }) }));
    const view = renderStreamingReply();
    push({ type: 'approval-requested', approval: approvalFixture() });
    fireEvent.click(view.getByTestId('approval-deny'));
    await settle();
    expect(view.queryByTestId('approval-prompt')).toBeNull();
  });

  it('keeps the badge and the composer strip still while a reply streams', () => {
    useAppStore.setState({ conversationsById: { c2: conversationFixture({ id: 'c2' }) }, conversationOrder: ['c2'] });
    loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: '' }));
    const stillRenders = vi.fn();
    render(
      <>
        <MessageRow messageId="m2" />
        <Profiler id="still" onRender={stillRenders}>
          <ul>
            <ConversationItem conversationId="c2" />
          </ul>
          <UnplacedApprovals conversationId="c1" />
        </Profiler>
      </>,
    );
    push(
      { type: 'approval-requested', approval: approvalFixture() },
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'ap2', conversationId: 'c2', turnId: 't2' }) },
    );
    const before = stillRenders.mock.calls.length;
    push({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'more' });
    act(flushPendingDeltas);
    expect(useAppStore.getState().streamingText).toEqual({ m2: 'more' });
    expect(stillRenders.mock.calls.length).toBe(before);
  });
});

describe('approvals elsewhere', () => {
  it('shows a question above the composer when its reply is not loaded', () => {
    loadOpenConversation(messageFixture());
    const view = render(<UnplacedApprovals conversationId="c1" />);
    push({ type: 'approval-requested', approval: approvalFixture() });
    expect(view.getByTestId('approval-prompt').dataset.approvalId).toBe('ap1');
    push({ type: 'approval-requested', approval: approvalFixture({ approvalId: 'other', conversationId: 'c2' }) });
    expect(view.getAllByTestId('approval-prompt')).toHaveLength(1);
  });

  it('badges a conversation that waits for an answer unless it is the open one', () => {
    useAppStore.setState({
      conversationsById: { c1: conversationFixture(), c2: conversationFixture({ id: 'c2', title: 'Second' }) },
      conversationOrder: ['c1', 'c2'],
    });
    loadOpenConversation();
    const view = render(
      <ul>
        <ConversationItem conversationId="c1" />
        <ConversationItem conversationId="c2" />
      </ul>,
    );
    push(
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'a1', conversationId: 'c1' }) },
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'a2', conversationId: 'c2' }) },
      { type: 'approval-requested', approval: approvalFixture({ approvalId: 'a3', conversationId: 'c2' }) },
    );
    const badges = view.getAllByTestId('approval-badge');
    expect(badges).toHaveLength(1);
    expect(badges[0]?.closest('li')?.dataset.conversationId).toBe('c2');
    expect(badges[0]?.textContent).toBe('2');
    expect(badges[0]?.getAttribute('aria-label')).toBe('2 tool calls wait for approval');
    push({ type: 'approval-resolved', approvalId: 'a2', conversationId: 'c2', outcome: 'deny' });
    push({ type: 'approval-resolved', approvalId: 'a3', conversationId: 'c2', outcome: 'deny' });
    expect(view.queryByTestId('approval-badge')).toBeNull();
  });
});
