import { expect, test } from '@playwright/test';
import { newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

test('a message sent during a reply can be queued, and goes out once the reply completes', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[slow] Tell me a long story');
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies.first().getByTestId('message-text')).toContainText('word5');

  await sendMessage(page, 'And then a short one');
  const prompt = page.getByRole('status').filter({ hasText: 'A reply is still running' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Stop and send' })).toBeVisible();
  await prompt.getByRole('button', { name: 'Queue' }).click();
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  await expect(page.getByTestId('composer-queued')).toContainText('Queued: And then a short one');
  // Nothing is sent while the first reply still streams.
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(1);

  await expectReplyStatus(page, replies.first(), 'complete');
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText([/Tell me a long story/, /And then a short one/]);
  await expect(replies.nth(1).getByTestId('message-text')).toHaveText('Fake Kimi reply to: And then a short one');
  await expect(replies).toHaveCount(2);
  await expect(page.getByTestId('composer-queued')).toHaveCount(0);
});
