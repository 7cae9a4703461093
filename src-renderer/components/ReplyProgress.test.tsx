// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleApiEvent } from '../state/events';
import { flushPendingDeltas, resetDeltaBuffer } from '../state/delta-buffer';
import { resetAppStore, useAppStore } from '../state/store';
import { messageFixture, replyFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { messageTimestamp } from './format';
import { MessageRow } from './MessageRow';

beforeEach(() => {
  resetAppStore();
  // Frames are driven by hand: deltas apply on flushPendingDeltas.
  resetDeltaBuffer(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the reasoning of a reply', () => {
  it('is collapsed under a label naming its brain and how long it thought, and expands to its plain text', () => {
    const reasoning = { text: 'Compare the <b>two</b> options.\nPick the cheaper.', durationMs: 12_300 };
    loadOpenConversation(messageFixture(), replyFixture({ reasoning }));
    const view = render(<MessageRow messageId="m2" />);
    const toggle = view.getByTestId('reasoning-toggle');
    expect(toggle.textContent).toBe('Kimi thought for 12 s');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(view.queryByTestId('reasoning-text')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const text = view.getByTestId('reasoning-text');
    // Model output is untrusted: shown as text, its markup never becomes elements.
    expect(text.textContent).toBe(reasoning.text);
    expect(text.querySelector('b')).toBeNull();
    expect(toggle.getAttribute('aria-controls')).toBe(text.id);
    fireEvent.click(toggle);
    expect(view.queryByTestId('reasoning-text')).toBeNull();
  });

  it('names the brain that thought, and says no time when none was measured', () => {
    loadOpenConversation(replyFixture({ brain: 'gemini', modelRequested: 'gemini-3-pro-preview', reasoning: { text: 'Hmm.', durationMs: null } }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('reasoning-toggle').textContent).toBe('Gemini thought');
  });

  it('shows nothing for a reply without reasoning', () => {
    loadOpenConversation(replyFixture());
    const view = render(<MessageRow messageId="m2" />);
    expect(view.queryByTestId('reasoning')).toBeNull();
  });

  it('says the brain is thinking while reasoning streams, then that it thought once its words begin', () => {
    loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: '', turnId: 't1' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.queryByTestId('reasoning')).toBeNull();
    act(() => {
      handleApiEvent({ type: 'reasoning-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'First, ' });
      handleApiEvent({ type: 'reasoning-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'the facts.' });
      flushPendingDeltas();
    });
    expect(view.getByTestId('reasoning-toggle').textContent).toBe('Kimi is thinking…');
    fireEvent.click(view.getByTestId('reasoning-toggle'));
    expect(view.getByTestId('reasoning-text').textContent).toBe('First, the facts.');
    act(() => {
      handleApiEvent({ type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm2', textDelta: 'Answer.' });
      flushPendingDeltas();
    });
    expect(view.getByTestId('reasoning-toggle').textContent).toBe('Kimi thought');
    // The stored reply brings the measured time; the streamed copy gives way to it.
    act(() => {
      const message = replyFixture({ text: 'Answer.', turnId: 't1', reasoning: { text: 'First, the facts.', durationMs: 4_000 }, updatedAt: '2026-01-01T10:00:05.000Z' });
      handleApiEvent({ type: 'turn-done', conversationId: 'c1', turnId: 't1', message });
    });
    expect(view.getByTestId('reasoning-toggle').textContent).toBe('Kimi thought for 4 s');
    expect(view.getByTestId('reasoning-text').textContent).toBe('First, the facts.');
    expect(useAppStore.getState().streamingReasoning).toEqual({});
  });
});

describe('the elapsed time of a streaming reply', () => {
  it('counts the seconds since the reply started, each second, and is gone once it ends', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T10:00:00.400Z'));
    loadOpenConversation(messageFixture(), replyFixture({ status: 'streaming', text: '', createdAt: '2026-01-01T10:00:00.000Z' }));
    const view = render(<MessageRow messageId="m2" />);
    expect(view.getByTestId('elapsed-time').textContent).toBe('0 s');
    act(() => void vi.advanceTimersByTime(1_000));
    expect(view.getByTestId('elapsed-time').textContent).toBe('1 s');
    act(() => void vi.advanceTimersByTime(11_000));
    expect(view.getByTestId('elapsed-time').textContent).toBe('12 s');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(view.getByTestId('elapsed-time').textContent).toBe('1 min 12 s');
    act(() => useAppStore.setState({ messagesById: { ...useAppStore.getState().messagesById, m2: replyFixture({ text: 'Done.' }) } }));
    expect(view.queryByTestId('elapsed-time')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the time of a message', () => {
  it('stands in the header of a reply and under a user message, the full date in its tooltip', () => {
    loadOpenConversation(messageFixture({ createdAt: '2026-01-01T10:00:00.000Z' }), replyFixture({ createdAt: '2026-01-01T10:00:07.000Z' }));
    const view = render(
      <>
        <MessageRow messageId="m1" />
        <MessageRow messageId="m2" />
      </>,
    );
    const [userTime, replyTime] = view.getAllByTestId('message-time');
    const expected = messageTimestamp('2026-01-01T10:00:07.000Z');
    expect(replyTime?.getAttribute('datetime')).toBe('2026-01-01T10:00:07.000Z');
    expect([replyTime?.textContent, replyTime?.getAttribute('title')]).toEqual([expected?.shown, expected?.full]);
    expect(replyTime?.closest('.message-meta')).not.toBeNull();
    expect(userTime?.getAttribute('datetime')).toBe('2026-01-01T10:00:00.000Z');
  });

  it('reads as the time today and as the day and time before, in the locale', () => {
    const now = new Date(2026, 0, 2, 18, 0);
    const today = messageTimestamp(new Date(2026, 0, 2, 9, 5).toISOString(), now);
    const earlier = messageTimestamp(new Date(2026, 0, 1, 9, 5).toISOString(), now);
    const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(2026, 0, 2, 9, 5));
    expect(today?.shown).toBe(time);
    expect(earlier?.shown).not.toBe(time);
    expect(earlier?.shown).toContain(new Intl.DateTimeFormat(undefined, { day: 'numeric' }).format(new Date(2026, 0, 1)));
    expect(today?.full).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' }).format(new Date(2026, 0, 2, 9, 5)));
    expect(messageTimestamp('not a time')).toBeNull();
  });
});

describe('the divider where the brain changed', () => {
  const rows = () => [
    messageFixture({ id: 'u1', seq: 1 }),
    replyFixture({ id: 'r1', seq: 2 }),
    messageFixture({ id: 'u2', seq: 3 }),
    replyFixture({ id: 'r2', seq: 4 }),
    messageFixture({ id: 'u3', seq: 5 }),
    replyFixture({ id: 'r3', seq: 6, brain: 'gemini', modelRequested: 'gemini-3-pro-preview', modelResponded: null }),
    messageFixture({ id: 'u4', seq: 7 }),
    replyFixture({ id: 'r4', seq: 8, brain: 'gemini', modelRequested: 'gemini-3-pro-preview', modelResponded: null }),
  ];

  it('stands above the first reply of another brain only', () => {
    loadOpenConversation(...rows());
    const view = render(
      <>
        {rows().map((row) => (
          <MessageRow key={row.id} messageId={row.id} />
        ))}
      </>,
    );
    const dividers = view.getAllByTestId('brain-change');
    expect(dividers.map((divider) => divider.textContent)).toEqual(['Gemini from here']);
    expect(dividers[0]?.getAttribute('role')).toBe('separator');
    expect((dividers[0]?.nextElementSibling as HTMLElement | null)?.dataset.messageId).toBe('r3');
  });

  it('does not stand above the first reply shown, nor after a reply of no known brain', () => {
    loadOpenConversation(messageFixture({ id: 'u1', seq: 1 }), replyFixture({ id: 'r1', seq: 2, brain: 'gemini' }), replyFixture({ id: 'r2', seq: 3, brain: null }), replyFixture({ id: 'r3', seq: 4, brain: 'gemini' }));
    const view = render(
      <>
        <MessageRow messageId="r1" />
        <MessageRow messageId="r2" />
        <MessageRow messageId="r3" />
      </>,
    );
    expect(view.queryByTestId('brain-change')).toBeNull();
  });
});
