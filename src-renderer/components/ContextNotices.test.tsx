// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { handleApiEvent } from '../state/events';
import { resetAppStore, useAppStore } from '../state/store';
import { contextStatusFixture, fakeApi } from '../state/test-fixtures';
import { Composer } from './Composer';
import { ContextNotices } from './ContextNotices';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

beforeEach(resetAppStore);
afterEach(cleanup);

describe('ContextNotices', () => {
  it('shows nothing while the window holds everything and nothing runs', () => {
    useAppStore.setState({ contextStatus: { c1: contextStatusFixture() } });
    const view = render(<ContextNotices conversationId="c1" />);
    expect(view.queryByTestId('context-notices')).toBeNull();
  });

  it('says how many older messages the window leaves out, with Compact now', async () => {
    const compactConversation = vi.fn<Api['compactConversation']>().mockReturnValue(new Promise(() => undefined));
    installApi(fakeApi({ compactConversation }));
    useAppStore.setState({ contextStatus: { c1: contextStatusFixture({ outsideWindow: 312 }) } });
    const view = render(<ContextNotices conversationId="c1" />);
    expect(view.getByTestId('outside-window').textContent).toBe(
      "312 older messages are outside Kimi's window; compact to keep them in view.Compact now",
    );
    fireEvent.click(view.getByTestId('outside-window-compact'));
    await settle();
    // Compact now asks first (CompactDialog): nothing runs until the person confirms there.
    expect(useAppStore.getState().compactDialogOpen).toBe(true);
    expect(compactConversation).not.toHaveBeenCalled();
  });

  it('says one older message in the singular', () => {
    useAppStore.setState({ contextStatus: { c1: contextStatusFixture({ outsideWindow: 1, brain: 'glm' }) } });
    const view = render(<ContextNotices conversationId="c1" />);
    expect(view.getByTestId('outside-window').textContent).toBe(
      "1 older message is outside GLM's window; compact to keep them in view.Compact now",
    );
  });

  it('shows progress as a status with Stop, while Send offers to queue until the compaction ends', async () => {
    const stop = vi.fn<Api['stop']>().mockResolvedValue({ stopped: true });
    installApi(fakeApi({ stop }));
    useAppStore.setState({ drafts: { c1: 'Next question' } });
    const view = render(
      <>
        <ContextNotices conversationId="c1" />
        <Composer conversationId="c1" />
      </>,
    );
    const send = view.getByTestId('send-button') as HTMLButtonElement;
    expect(send.disabled).toBe(false);
    act(() => {
      handleApiEvent({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 812 });
      handleApiEvent({ type: 'compaction-progress', conversationId: 'c1', summarisedMessages: 240, totalMessages: 812, characters: 900 });
    });
    expect(view.getByRole('status').textContent).toBe('Summarising 812 messages… 240 read (Kimi writes the summary)');
    // Sending stays possible: it offers to queue the message until the compaction ends.
    expect(send.disabled).toBe(false);
    expect(send.title).toBe('A compaction is running: Send offers to queue this message until it ends');
    fireEvent.click(view.getByRole('button', { name: 'Stop the compaction' }));
    await settle();
    expect(stop).toHaveBeenCalledWith({ conversationId: 'c1' });
    act(() => {
      handleApiEvent({ type: 'compaction-failed', conversationId: 'c1', reason: 'stopped', message: 'Compaction stopped; nothing changed.' });
    });
    expect(view.queryByTestId('compaction-progress')).toBeNull();
    const outcome = view.getByTestId('compaction-outcome');
    expect([outcome.className, outcome.textContent]).toEqual(['context-notice tone-calm', 'Compaction stopped; nothing changed.']);
    expect(view.getByRole('status').textContent).toBe('Compaction stopped; nothing changed.');
    expect(send.disabled).toBe(false);
  });

  it('shows a failed compaction as an alert, nothing to compact as information, and dismisses them', () => {
    const view = render(<ContextNotices conversationId="c1" />);
    act(() => {
      handleApiEvent({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 3 });
      handleApiEvent({ type: 'compaction-failed', conversationId: 'c1', reason: 'failed', message: 'Kimi did not answer: 529.' });
    });
    expect(view.getByRole('alert').textContent).toBe('Kimi did not answer: 529.');
    expect(view.getByTestId('compaction-outcome').dataset.tone).toBe('error');
    act(() => {
      handleApiEvent({ type: 'compaction-started', conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', messages: 0 });
      handleApiEvent({ type: 'compaction-failed', conversationId: 'c1', reason: 'nothing-to-compact', message: 'Nothing to compact yet.' });
    });
    expect(view.queryByRole('alert')).toBeNull();
    expect(view.getByTestId('compaction-outcome').dataset.tone).toBe('info');
    fireEvent.click(view.getByTestId('dismiss-compaction-outcome'));
    expect(view.queryByTestId('context-notices')).toBeNull();
  });

  it('says when the brain refused the conversation as too large', () => {
    useAppStore.setState({ contextStatus: { c1: contextStatusFixture({ full: true, brain: 'codex' }) } });
    const view = render(<ContextNotices conversationId="c1" />);
    expect(view.getByTestId('window-full').textContent).toBe(
      'Codex refused this conversation as too large; the next turn compacts it first.Compact now',
    );
  });
});
