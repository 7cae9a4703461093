// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetAppStore } from '../state/store';
import { messageFixture, replyFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { MessageRow } from './MessageRow';

beforeEach(resetAppStore);
afterEach(cleanup);

// A body without dir="auto" inherits the window's left-to-right direction, which lays Arabic and Hebrew out backwards
// around punctuation and numbers and aligns them to the wrong side.
describe('MessageRow text direction', () => {
  it('lets the browser take a user message direction from its text', () => {
    loadOpenConversation(messageFixture({ text: 'مرحبا، كيف حالك؟' }));
    const view = render(<MessageRow messageId="m1" />);
    const body = view.getByTestId('message-text');
    expect([body.textContent, body.getAttribute('dir')]).toEqual(['مرحبا، كيف حالك؟', 'auto']);
  });

  it('lets the browser take a reply direction from its text', () => {
    loadOpenConversation(messageFixture(), replyFixture({ text: 'שלום, **עולם** 123' }));
    const view = render(<MessageRow messageId="m2" />);
    const body = view.getByTestId('message-text');
    expect([body.textContent?.trim(), body.getAttribute('dir')]).toEqual(['שלום, עולם 123', 'auto']);
  });

  it('lets the browser take a reply reasoning direction from its text', () => {
    loadOpenConversation(messageFixture(), replyFixture({ text: 'نعم', reasoning: { text: 'أفكر في السؤال أولا.', durationMs: 2_000 } }));
    const view = render(<MessageRow messageId="m2" />);
    fireEvent.click(view.getByTestId('reasoning-toggle'));
    const reasoning = view.getByTestId('reasoning-text');
    expect([reasoning.textContent, reasoning.getAttribute('dir')]).toEqual(['أفكر في السؤال أولا.', 'auto']);
  });

  it('lets the browser take a system line direction from its text', () => {
    loadOpenConversation(messageFixture({ id: 's1', role: 'system', kind: 'notice', text: 'تم تغيير الدماغ' }));
    const view = render(<MessageRow messageId="s1" />);
    expect(view.getByTestId('message-text').getAttribute('dir')).toBe('auto');
  });
});
