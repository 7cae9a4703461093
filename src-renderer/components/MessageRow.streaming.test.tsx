// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDeltaBuffer } from '../state/delta-buffer';
import { handleApiEvent } from '../state/events';
import { resetAppStore, useAppStore } from '../state/store';
import { messageFixture, replyFixture } from '../state/test-fixtures';
import { loadOpenConversation, manualFrames } from '../state/test-store';
import { MessageRow } from './MessageRow';

/** The test decides when the next frame comes. */
let frames = manualFrames();
const runFrame = (): void => frames.runFrame();

function delta(textDelta: string) {
  return { type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta } as const;
}

const shownText = (view: ReturnType<typeof render>) => view.getByTestId('message-text').textContent;

const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

beforeEach(() => {
  resetAppStore();
  frames = manualFrames();
  resetDeltaBuffer(frames.schedule);
});
afterEach(() => {
  cleanup();
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
});

describe('a streaming reply', () => {
  it('renders its newest text in the background, and the next frame applies no more deltas until it has', async () => {
    loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: '', turnId: 't1' }));
    const view = render(<MessageRow messageId="m2" />);
    // React as the window runs it: nothing waits for act() to flush the work it schedules.
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    handleApiEvent(delta('First words.'));
    runFrame();
    // React runs the urgent render in a microtask, the background one in tasks of its own.
    await Promise.resolve();
    // The urgent render has run (the row knows its text) but the Markdown still shows the text before it.
    expect(shownText(view)).toBe('');
    handleApiEvent(delta(' More.'));
    runFrame();
    expect(useAppStore.getState().streamingText).toEqual({ m2: 'First words.' });

    await vi.waitFor(() => expect(shownText(view)).toBe('First words.'));
    // Caught up: the frame the held delta asked for applies it.
    runFrame();
    expect(useAppStore.getState().streamingText).toEqual({ m2: 'First words. More.' });
    await vi.waitFor(() => expect(shownText(view)).toBe('First words. More.'));
  });

  it('shows its final text at once when it ends, and holds no delta back once it is gone', async () => {
    loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: '', turnId: 't1' }));
    const view = render(<MessageRow messageId="m2" />);
    act(() => {
      handleApiEvent(delta('Partial'));
      runFrame();
    });
    expect(shownText(view)).toBe('Partial');

    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    useAppStore.setState((state) => ({
      messagesById: { ...state.messagesById, m2: replyFixture({ status: 'complete', text: 'Partial, then the end.', turnId: 't1' }) },
      streamingText: {},
    }));
    await Promise.resolve();
    // No background render: the ended reply's text is in the same render as its status.
    expect(shownText(view)).toBe('Partial, then the end.');

    // A row unmounted while it rendered in the background holds nothing back.
    useAppStore.setState((state) => ({
      messagesById: { ...state.messagesById, m3: replyFixture({ id: 'm3', status: 'streaming', text: '', turnId: 't1' }) },
      messageIds: [...state.messageIds, 'm3'],
    }));
    const streamingView = render(<MessageRow messageId="m3" />);
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm3', textDelta: 'x' });
    runFrame();
    await Promise.resolve();
    streamingView.unmount();
    handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm3', textDelta: 'y' });
    runFrame();
    expect(useAppStore.getState().streamingText).toEqual({ m3: 'xy' });
  });
});
