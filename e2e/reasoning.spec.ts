import { expect, test, type Locator, type Page } from '@playwright/test';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

function replies(page: Page): Locator {
  return page.locator('[data-testid="message"][data-role="assistant"]');
}

test('a thinking brain: "is thinking…" while it reasons, then a collapsed "thought for" that opens to its reasoning and survives a reload', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[think] [slow] Why is the sky blue?');

  const reply = replies(page).first();
  const toggle = reply.getByTestId('reasoning-toggle');
  // While it reasons: its brain named, the reply's time running.
  await expect(toggle).toHaveText('Kimi is thinking…');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(reply.getByTestId('elapsed-time')).toHaveText(/^\d+ s$/);

  await expectReplyStatus(page, reply, 'complete');
  await expect(reply.getByTestId('elapsed-time')).toHaveCount(0);
  await expect(toggle).toHaveText(/^Kimi thought for \d+ s$/);
  const label = await toggle.textContent();
  await expect(reply.getByTestId('reasoning-text')).toHaveCount(0);
  await toggle.click();
  await expect(reply.getByTestId('reasoning-text')).toHaveText('Fake Kimi thinks about: [think] [slow] Why is the sky blue?');
  await expect(reply.getByTestId('message-text')).toContainText('word60');

  // The reply's view carries the readable text and its time, nothing of the brain's own carriers.
  const stored = await command(request, 'listMessages', { conversationId });
  const storedReply = stored.messages.find((message) => message.role === 'assistant');
  expect(Object.keys(storedReply?.reasoning ?? {}).sort()).toEqual(['durationMs', 'text']);

  await page.reload();
  const reloaded = replies(page).first();
  await expect(reloaded.getByTestId('reasoning-toggle')).toHaveText(label ?? '');
  await reloaded.getByTestId('reasoning-toggle').click();
  await expect(reloaded.getByTestId('reasoning-text')).toHaveText('Fake Kimi thinks about: [think] [slow] Why is the sky blue?');
});

test('switching brain puts a divider above the new brain\u2019s first reply, and a time on each message', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, 'first question');
  await expectReplyStatus(page, replies(page).first(), 'complete');
  await expect(page.getByTestId('brain-change')).toHaveCount(0);

  await pickBrain(page, 'gemini');
  await sendMessage(page, '[think] second question');
  await expect(replies(page)).toHaveCount(2);
  await expectReplyStatus(page, replies(page).nth(1), 'complete');
  const divider = page.getByTestId('brain-change');
  await expect(divider).toHaveCount(1);
  await expect(divider).toHaveText('Gemini from here');
  await expect(divider).toHaveAttribute('role', 'separator');
  await expect(replies(page).nth(1).getByTestId('reasoning-toggle')).toHaveText(/^Gemini thought for \d+ s$/);

  // Each message's time shows on hover, the full date in its tooltip.
  const time = replies(page).nth(1).getByTestId('message-time');
  await replies(page).nth(1).hover();
  await expect(time).toHaveCSS('opacity', '1');
  await expect(time).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  expect(await time.getAttribute('title')).toMatch(/\d{4}/);

  await page.reload();
  await expect(page.getByTestId('brain-change')).toHaveText('Gemini from here');
});
