// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api, MessagePage, MessageView } from '../../src-shared/api';
import { installApi } from '../state/api-client';
import { resetAppStore } from '../state/store';
import { fakeApi, messageFixture, replyFixture, summaryFixture } from '../state/test-fixtures';
import { loadOpenConversation } from '../state/test-store';
import { MessageRow } from './MessageRow';

async function settle(): Promise<void> {
  await act(async () => {
    for (let round = 0; round < 4; round += 1) await Promise.resolve();
  });
}

function pageOf(messages: MessageView[], hasOlder: boolean): MessagePage {
  return { messages, invocations: [], hasOlder };
}

beforeEach(resetAppStore);
afterEach(cleanup);

describe('a summary row', () => {
  it('shows as a card the app wrote, its text through the Markdown path, covered rows hidden', () => {
    loadOpenConversation(summaryFixture(), messageFixture({ id: 'm901', seq: 901 }));
    const view = render(<MessageRow messageId="s1" />);
    const card = view.getByTestId('message');
    expect([card.className, card.dataset.role, card.dataset.kind]).toEqual(['message summary-card', 'system', 'summary']);
    expect(view.getByTestId('summary-title').textContent).toBe('Summary of 812 earlier messages');
    expect(view.getByRole('article', { name: 'Summary of 812 earlier messages' })).toBe(card);
    expect(view.getByTestId('summary-byline').textContent).toBe(
      "Written by Anybrain for the brains' context, in place of these messages: not your words or a brain's reply.",
    );
    expect(view.getByTestId('message-text').querySelector('strong')?.textContent).toBe('garden');
    const toggle = view.getByTestId('summary-toggle');
    expect([toggle.textContent, toggle.getAttribute('aria-expanded')]).toEqual(['Show the 812 messages', 'false']);
    expect(view.queryByTestId('covered-rows')).toBeNull();
  });

  it('keeps its words as text: markup in a summary is not run', () => {
    loadOpenConversation(summaryFixture({ text: '<img src=x onerror="alert(1)"> and <script>alert(2)</script>' }));
    const view = render(<MessageRow messageId="s1" />);
    expect(view.getByTestId('message-text').querySelector('img, script')).toBeNull();
  });

  it('loads the rows it covers on expand, shows them subdued with the normal rows, and pages older ones', async () => {
    const listCoveredMessages = vi
      .fn<Api['listCoveredMessages']>()
      .mockResolvedValueOnce(pageOf([messageFixture({ id: 'm799', seq: 799, text: 'Which roses?' }), replyFixture({ id: 'm800', seq: 800, text: 'Climbing ones.' })], true))
      .mockResolvedValueOnce(pageOf([messageFixture({ id: 'm798', seq: 798, text: 'A garden plan, please.' })], false));
    installApi(fakeApi({ listCoveredMessages }));
    loadOpenConversation(summaryFixture({ coveredMessages: 3 }));
    const view = render(<MessageRow messageId="s1" />);
    const toggle = view.getByTestId('summary-toggle');
    expect(toggle.textContent).toBe('Show the 3 messages');
    fireEvent.click(toggle);
    expect(view.getByRole('status').textContent).toBe('Loading the messages…');
    await settle();
    expect(listCoveredMessages).toHaveBeenCalledWith({ summaryId: 's1', limit: 50 });
    expect([toggle.textContent, toggle.getAttribute('aria-expanded')]).toEqual(['Hide the 3 messages', 'true']);
    const covered = view.getByTestId('covered-rows');
    expect(toggle.getAttribute('aria-controls')).toBe(covered.id);
    const texts = () => within(covered).getAllByTestId('message-text').map((text) => text.textContent);
    expect(texts()).toEqual(['Which roses?', 'Climbing ones.']);
    expect(within(covered).getAllByTestId('covered-row')).toHaveLength(2);
    expect(within(covered).getByTestId('message-brain-label').textContent).toBe('Kimi · kimi-k2.6');
    fireEvent.click(view.getByTestId('covered-show-older'));
    await settle();
    expect(listCoveredMessages).toHaveBeenLastCalledWith({ summaryId: 's1', beforeSeq: 799, limit: 50 });
    expect(texts()).toEqual(['A garden plan, please.', 'Which roses?', 'Climbing ones.']);
    expect(view.queryByTestId('covered-show-older')).toBeNull();
    fireEvent.click(toggle);
    expect(view.queryByTestId('covered-rows')).toBeNull();
    fireEvent.click(toggle);
    expect(listCoveredMessages).toHaveBeenCalledTimes(2);
    expect(texts()).toEqual(['A garden plan, please.', 'Which roses?', 'Climbing ones.']);
  });

  it('lets a covered summary expand the same way', async () => {
    const older = summaryFixture({ id: 's0', seq: 400, coveredMessages: 1, text: 'An older summary.' });
    const listCoveredMessages = vi.fn<Api['listCoveredMessages']>(async ({ summaryId }) =>
      summaryId === 's1'
        ? pageOf([older, messageFixture({ id: 'm401', seq: 401, text: 'Later words.' })], false)
        : pageOf([messageFixture({ id: 'm10', seq: 10, text: 'The very first words.' })], false),
    );
    installApi(fakeApi({ listCoveredMessages }));
    loadOpenConversation(summaryFixture({ coveredMessages: 2 }));
    const view = render(<MessageRow messageId="s1" />);
    fireEvent.click(view.getByTestId('summary-toggle'));
    await settle();
    const inner = within(view.getByTestId('covered-rows'));
    expect(inner.getByTestId('summary-title').textContent).toBe('Summary of 1 earlier message');
    fireEvent.click(inner.getByRole('button', { name: 'Show the 1 message' }));
    await settle();
    expect(listCoveredMessages).toHaveBeenLastCalledWith({ summaryId: 's0', limit: 50 });
    expect(view.getAllByTestId('message-text').map((text) => text.textContent)).toEqual([
      'The user and Kimi planned a garden.',
      'An older summary.',
      'The very first words.',
      'Later words.',
    ]);
  });

  it('offers to load again after a failure', async () => {
    const listCoveredMessages = vi
      .fn<Api['listCoveredMessages']>()
      .mockRejectedValueOnce(new Error('The store is busy.'))
      .mockResolvedValueOnce(pageOf([messageFixture({ id: 'm1', text: 'Back.' })], false));
    installApi(fakeApi({ listCoveredMessages }));
    loadOpenConversation(summaryFixture({ coveredMessages: 1 }));
    const view = render(<MessageRow messageId="s1" />);
    fireEvent.click(view.getByTestId('summary-toggle'));
    await settle();
    expect(view.getByRole('alert').textContent).toBe('Could not load the messages: The store is busy.Try again');
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(within(view.getByTestId('covered-rows')).getByTestId('message-text').textContent).toBe('Back.');
  });
});
