// @vitest-environment jsdom
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { openConversationState } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { fakeApi, messageFixture } from '../state/test-fixtures';
import { MessageList } from './MessageList';

function load(): void {
  const message = messageFixture();
  useAppStore.setState({
    ...openConversationState('c1'),
    pageStatus: 'ready',
    messagesById: { [message.id]: message },
    messageIds: [message.id],
  });
}

beforeEach(resetAppStore);
afterEach(cleanup);

describe('MessageList', () => {
  it('is a polite log of added messages, not busy while no reply runs', () => {
    load();
    const view = render(<MessageList conversationId="c1" />);
    const log = view.getByRole('log', { name: 'Messages' });
    expect([log.getAttribute('aria-live'), log.getAttribute('aria-relevant'), log.getAttribute('aria-busy')]).toEqual([
      'polite',
      'additions',
      'false',
    ]);
  });

  it('is busy while a reply streams, so a screen reader reads the finished reply instead of every delta', () => {
    load();
    useAppStore.setState({ activeTurns: { c1: { turnId: 't1', assistantMessageId: 'm2' } } });
    const view = render(<MessageList conversationId="c1" />);
    expect(view.getByRole('log', { name: 'Messages' }).getAttribute('aria-busy')).toBe('true');
  });

  it('offers the way back to the newest messages when the window let them go, and loads them in its place', async () => {
    load();
    useAppStore.setState({ hasNewer: true });
    const newest = messageFixture({ id: 'm90', seq: 90 });
    const listMessages = vi.fn<Api['listMessages']>().mockResolvedValue({ messages: [newest], invocations: [], hasOlder: false });
    installApi(fakeApi({ listMessages }));
    const view = render(<MessageList conversationId="c1" />);
    fireEvent.click(view.getByTestId('jump-to-latest'));
    expect(listMessages).toHaveBeenCalledWith({ conversationId: 'c1', limit: 50 });
    await waitFor(() => expect(useAppStore.getState().messageIds).toEqual(['m90']));
    expect(useAppStore.getState().hasNewer).toBe(false);
    await waitFor(() => expect(view.queryByTestId('jump-to-latest')).toBeNull());
  });
});
