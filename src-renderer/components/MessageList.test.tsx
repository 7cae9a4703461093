// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConversationState } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { messageFixture } from '../state/test-fixtures';
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
});
