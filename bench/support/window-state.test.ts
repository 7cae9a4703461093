import { describe, expect, it } from 'vitest';
import { formatDeltaArrivals, formatStoredReply, formatWindowState } from './window-state';

describe('what a lapsed browser wait reports', () => {
  it('words the window', () => {
    expect(
      formatWindowState({ conversations: 4, messages: 2, replies: 1, lastReplyStatus: 'streaming', lastReplyLength: 812, loadingOlder: false }),
    ).toBe('the window showed 4 conversations in the sidebar and 2 messages; the last reply had status streaming and 812 characters rendered');
    expect(formatWindowState({ conversations: 1, messages: 0, replies: 0, lastReplyStatus: null, lastReplyLength: 0, loadingOlder: true })).toBe(
      'the window showed 1 conversation in the sidebar and 0 messages; "Loading older messages…" was still shown',
    );
  });

  it('words the deltas the page read', () => {
    expect(formatDeltaArrivals(46, 150_240)).toBe('the page had read 46 message-delta events, the last 150.2 s before');
    expect(formatDeltaArrivals(1, 40)).toBe('the page had read 1 message-delta event, the last 0.0 s before');
    expect(formatDeltaArrivals(0, null)).toBe('the page had read no message-delta event');
  });

  it("words the store's newest reply", () => {
    expect(formatStoredReply({ status: 'complete', length: 4_096 })).toBe('the store held the newest reply with status complete and 4096 characters');
    expect(formatStoredReply(null)).toBe('the store held no reply');
  });
});
