/**
 * Compact now as a person meets it, in the window against the fake brains: it says what it will fold (how many
 * messages, up to which, for whose window) before anything runs, folds whole turns, and the meter shows the new
 * figure the moment it finishes; on a conversation with nothing to fold it says so in words. Kimi writes its own summary
 * as a continuation of the request its next turn would send, so the provider's prompt cache can serve it.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SUMMARY_REQUEST_MARKER } from '../src-main/core/context/summary-prompt';
import { command, fakeBrainRequests, openApp, OWN_CONNECTION } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { longTranscript } from './support/long-conversation';

interface ChatBody {
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  readonly tools?: unknown;
}

async function importOnKimi(request: APIRequestContext, title: string, exchanges: number): Promise<string> {
  const conversation = await command(request, 'importTranscript', { content: longTranscript({ title, exchanges, messageTokens: 200 }) });
  await command(request, 'setConversationBrain', { id: conversation.id, brain: 'kimi' });
  return conversation.id;
}

async function openConversation(page: Page, conversationId: string, title: string): Promise<void> {
  await openApp(page);
  await page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"] .conversation-open`).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

test('Compact now previews what it folds, folds whole turns, and the meter shows what Kimi now holds', async ({ page, request }) => {
  const title = `Ordinary talk ${Date.now()}`;
  const conversationId = await importOnKimi(request, title, 5);
  await openConversation(page, conversationId, title);
  const reading = page.locator('.context-meter-reading');
  await expect(reading).toHaveAttribute('title', /; Kimi's request holds every message$/);
  const before = await command(request, 'getContextStatus', { conversationId });
  // What Kimi's next turn would send: the summary request continues it, so the provider's cache can serve its start.
  const turnBody = JSON.parse((await command(request, 'previewRequest', { conversationId, message: 'Next?' })).body) as ChatBody;
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });

  await page.getByTestId('compact-now').click();
  const dialog = page.getByTestId('compact-dialog');
  await expect(dialog.getByTestId('compact-preview')).toHaveText(
    "Kimi will summarise 6 messages, up to “Answer 2: lorem ipsum dolor lorem ipsum dolor lorem ipsum…”, for Kimi's window. " +
      'They stay in the conversation, folded under the summary, and other brains keep them while their windows hold them.',
  );
  expect((await command(request, 'listMessages', { conversationId, limit: 50 })).messages).toHaveLength(10);
  await dialog.getByTestId('confirm-compact').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('[data-testid="message"][data-kind="summary"]')).toHaveCount(1);
  const [summaryRequest, ...others] = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'kimi');
  expect(others).toEqual([]);
  const summaryBody = summaryRequest!.body as ChatBody;
  expect(summaryBody.messages.at(-1)!.content.startsWith(SUMMARY_REQUEST_MARKER)).toBe(true);
  const history = summaryBody.messages.slice(0, -1);
  expect(JSON.stringify(history)).toBe(JSON.stringify(turnBody.messages.slice(0, history.length)));
  expect(summaryBody.tools).toEqual(turnBody.tools);

  const card = page.locator('[data-testid="message"][data-kind="summary"]');
  await expect(card.getByTestId('summary-title')).toHaveText('Summary of 6 earlier messages');
  // The newest two turns stay as they were, each question with its answer.
  const shown = page.locator('[data-testid="message"]:not([data-kind="summary"]) [data-testid="message-text"]');
  await expect(shown).toHaveCount(4);
  await expect(shown.first()).toContainText('Question 3:');
  await expect(shown.nth(1)).toContainText('Answer 3:');
  await expect(reading).toHaveAttribute(
    'title',
    /; Kimi's request holds a summary written for Kimi's window in place of the older messages\nSo far: 1 provider request, about \$[\d.]+ \(an estimate\)\.$/,
  );
  const after = await command(request, 'getContextStatus', { conversationId });
  expect(after.tokens).toBeLessThan(before.tokens);
  expect(await command(request, 'getContextStatus', { conversationId, brain: 'claude' })).toMatchObject({ summary: null, outsideWindow: 0 });
});

test('Compact now says in words when there is nothing to fold, and offers only Close', async ({ page, request }) => {
  const title = `Short talk ${Date.now()}`;
  const conversationId = await importOnKimi(request, title, 2);
  await openConversation(page, conversationId, title);
  await page.getByTestId('compact-now').click();
  const dialog = page.getByTestId('compact-dialog');
  await expect(dialog.getByTestId('compact-preview')).toHaveText(
    'Nothing to fold yet: Compact now keeps the newest 2 turns as they are, and there is no earlier turn.',
  );
  await expect(dialog.getByTestId('confirm-compact')).toHaveCount(0);
  await dialog.getByTestId('cancel-compact').click();
  await expect(dialog).toHaveCount(0);
  expect((await command(request, 'listMessages', { conversationId, limit: 50 })).messages).toHaveLength(4);
});
