// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as MarkdownModule from '../markdown/Markdown';
import { openConversationState } from '../state/messages-slice';
import { resetAppStore, useAppStore } from '../state/store';
import { messageFixture, replyFixture } from '../state/test-fixtures';

/** Replies holding this word fail to render anywhere in their row, past the boundaries of the markdown blocks. */
const FAILING_WORD = 'unrenderable';

vi.mock('../markdown/Markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof MarkdownModule>();
  return {
    ...actual,
    MarkdownView: ({ text }: { readonly text: string }) => {
      if (text.includes(FAILING_WORD)) throw new TypeError('Cannot read properties of undefined');
      return <actual.MarkdownView text={text} />;
    },
  };
});

const { MessageRow } = await import('./MessageRow');

beforeEach(resetAppStore);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('MessageRow when its content fails to render', () => {
  it('shows that reply as plain text under its row attributes, and the other rows as usual', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = `An ${FAILING_WORD} reply <script>alert(1)</script> with **stars**`;
    const messages = [messageFixture(), replyFixture({ text: failing }), replyFixture({ id: 'm3', seq: 3, text: 'A **fine** reply' })];
    useAppStore.setState({
      ...openConversationState('c1'),
      pageStatus: 'ready',
      messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
      messageIds: messages.map((message) => message.id),
    });
    const view = render(
      <>
        {messages.map((message) => (
          <MessageRow key={message.id} messageId={message.id} />
        ))}
      </>,
    );
    const rows = view.getAllByTestId('message');
    expect(rows.map((row) => [row.dataset.messageId, row.dataset.role, row.dataset.renderFailed])).toEqual([
      ['m1', 'user', undefined],
      ['m2', 'assistant', 'true'],
      ['m3', 'assistant', undefined],
    ]);
    const failedText = rows[1]?.querySelector('[data-testid="message-text"]');
    expect(failedText?.textContent).toBe(failing);
    expect(failedText?.children).toHaveLength(0);
    expect(view.container.querySelector('script')).toBeNull();
    expect(rows[2]?.querySelector('strong')?.textContent).toBe('fine');
  });

  it('renders the row again once its streamed text no longer fails', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reply = replyFixture({ status: 'streaming', text: '' });
    useAppStore.setState({
      ...openConversationState('c1'),
      pageStatus: 'ready',
      messagesById: { m2: reply },
      messageIds: ['m2'],
      streamingText: { m2: `Partly ${FAILING_WORD}` },
    });
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('message').dataset.renderFailed).toBe('true');
    act(() => useAppStore.setState({ streamingText: { m2: 'Partly **fine**' } }));
    expect(view.getByTestId('message').dataset.renderFailed).toBeUndefined();
    expect(view.container.querySelector('strong')?.textContent).toBe('fine');
  });
});
