import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { command, fakeBrainRequests, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

test('a conversation with kimi then claude streams, survives a reload and keeps its brain labels', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);

  await pickBrain(page, 'kimi');
  await sendMessage(page, 'Hello kimi');
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies.nth(0).getByTestId('message-text')).toHaveText('Fake Kimi reply to: Hello kimi');
  await expectReplyStatus(page, replies.nth(0), 'complete');
  await expect(replies.nth(0).getByTestId('message-brain-label')).toContainText('Kimi');

  await pickBrain(page, 'claude');
  await sendMessage(page, 'Now you, claude');
  await expect(replies.nth(1).getByTestId('message-text')).toHaveText('Fake Claude reply to: Now you, claude');
  await expectReplyStatus(page, replies.nth(1), 'complete');

  await page.reload();
  await expect(replies).toHaveCount(2);
  await expect(replies.nth(0)).toHaveAttribute('data-brain', 'kimi');
  await expect(replies.nth(0).getByTestId('message-brain-label')).toHaveText('Kimi · kimi-k2.6');
  await expect(replies.nth(1)).toHaveAttribute('data-brain', 'claude');
  await expect(replies.nth(1).getByTestId('message-brain-label')).toHaveText(`Claude · ${BRAINS.claude.defaultModel}`);
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText([/Hello kimi/, /Now you, claude/]);

  // Claude was sent the whole history, kimi's reply included, as its own wire's messages.
  const claudeRequests = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'claude');
  const lastClaude = claudeRequests.at(-1)?.body as { messages: unknown[] };
  expect(lastClaude.messages).toEqual([
    // The block the previous request ended on carries a cache breakpoint, so its prompt cache is found again.
    { role: 'user', content: [{ type: 'text', text: 'Hello kimi', cache_control: { type: 'ephemeral' } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Fake Kimi reply to: Hello kimi' }] },
    { role: 'user', content: [{ type: 'text', text: 'Now you, claude', cache_control: { type: 'ephemeral' } }] },
  ]);

  const stored = await command(request, 'listMessages', { conversationId });
  expect(stored.messages.map((message) => [message.role, message.brain, message.status])).toEqual([
    ['user', null, 'complete'],
    ['assistant', 'kimi', 'complete'],
    ['user', null, 'complete'],
    ['assistant', 'claude', 'complete'],
  ]);

  mkdirSync('test-results/screenshots', { recursive: true });
  await page.getByTestId('open-settings').click();
  await page.getByTestId('theme-select').selectOption('light');
  await page.getByTestId('close-settings').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.screenshot({ path: 'test-results/screenshots/main-window-light.png' });
  await page.getByTestId('open-settings').click();
  await page.getByTestId('theme-select').selectOption('dark');
  await page.getByTestId('close-settings').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: 'test-results/screenshots/main-window-dark.png' });
});

test('stopping a reply midway keeps exactly the text shown, marked stopped', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[slow] Tell me a long story');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expect(reply.getByTestId('message-text')).toContainText('word5');
  await page.getByTestId('stop-button').click();
  await expectReplyStatus(page, reply, 'stopped');
  const shown = (await reply.getByTestId('message-text').innerText()).trim();
  expect(shown).not.toContain('word60');

  const stored = await command(request, 'listMessages', { conversationId });
  const storedReply = stored.messages.at(-1);
  expect(storedReply?.status).toBe('stopped');
  expect(storedReply?.text.trim()).toBe(shown);

  // The conversation goes on after a stop.
  await sendMessage(page, 'And now briefly');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('message-text')).toHaveText(
    'Fake Kimi reply to: And now briefly',
  );
});

test('an error shows under the reply without replacing its text, and Retry answers again', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'claude');
  await sendMessage(page, '[error-midstream] please');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'failed');
  await expect(reply.getByTestId('message-error')).toBeVisible();
  await expect(reply.getByTestId('message-text')).not.toHaveText('');
  await page.getByTestId('retry-button').click();
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies).toHaveCount(2);
  // The same message fails the same way again, and again the error sits under its own reply.
  await expectReplyStatus(page, replies.nth(1), 'failed');
  await expect(replies.nth(1).getByTestId('message-error')).toBeVisible();
});

test('a served model that differs from the requested one shows a warning', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[model:kimi-k2.5] which model are you?');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply.getByTestId('model-mismatch-warning')).toContainText('kimi-k2.5');
});

test('model Markdown renders safely: no script, raw HTML shown as typed, code highlighted with a copy button', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[markdown] show me');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply.locator('table')).toHaveCount(1);
  await expect(reply.locator('pre code')).toHaveCount(1);
  await expect(reply.getByTestId('copy-code')).toBeVisible();

  await sendMessage(page, '[reply:Safe words.\\n\\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> and <iframe src="https://example.com"></iframe>]');
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies).toHaveCount(2);
  const hostile = replies.nth(1);
  await expectReplyStatus(page, hostile, 'complete');
  // Every character the model wrote is there, as text: nothing runs, nothing loads, no word is dropped.
  await expect(hostile.getByTestId('message-text')).toHaveText(
    'Safe words.<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> and <iframe src="https://example.com"></iframe>',
  );
  await expect(hostile.locator('script, img, iframe')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // The few tags written for formatting render when bare; with an attribute they stay the characters typed.
  await sendMessage(page, '[reply:H<sub>2</sub>O, <kbd>Ctrl</kbd>, <mark>note</mark>, <sub onclick="window.__pwned = 3">x</sub>\\n\\n| a |\\n| --- |\\n| one<br>two |]');
  await expect(replies).toHaveCount(3);
  const formatted = replies.nth(2);
  await expectReplyStatus(page, formatted, 'complete');
  await expect(formatted.locator('sub')).toHaveText(['2']);
  await expect(formatted.locator('kbd')).toHaveText(['Ctrl']);
  await expect(formatted.locator('mark')).toHaveText(['note']);
  await expect(formatted.locator('td br')).toHaveCount(1);
  await expect(formatted.locator('p').first()).toHaveText('H2O, Ctrl, note, <sub onclick="window.__pwned = 3">x</sub>');
});

test('conversations can be renamed, searched and deleted', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  const item = page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);
  await item.hover();
  await item.getByTestId('rename-conversation').click();
  await page.getByTestId('rename-input').fill('Zebra facts');
  await page.getByTestId('rename-input').press('Enter');
  await expect(item).toContainText('Zebra facts');
  await page.getByTestId('conversation-search').fill('zebra');
  await expect(page.getByTestId('conversation-item')).toHaveCount(1);
  await page.getByTestId('conversation-search').fill('');
  // Deleting asks nothing: the conversation goes at once and a toast offers Undo.
  page.on('dialog', (dialog) => {
    throw new Error(`Deleting opened a ${dialog.type()} dialog: ${dialog.message()}`);
  });
  await item.hover();
  await item.getByTestId('delete-conversation').click();
  await expect(item).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'No conversation open' })).toBeVisible();
  const toast = page.locator(`[data-testid="undo-toast"][data-conversation-id="${conversationId}"]`);
  await expect(toast).toHaveText(/Deleted “Zebra facts”\./);
  await expect(toast).toHaveAttribute('role', 'status');
  // Until the toast goes, the store still holds it.
  expect((await command(request, 'getConversation', { id: conversationId })).title).toBe('Zebra facts');
  await toast.getByTestId('dismiss-undo').click();
  await expect(toast).toHaveCount(0);
  await expect
    .poll(async () => (await command(request, 'listConversations', {})).some((listed) => listed.id === conversationId))
    .toBe(false);
  await expect(command(request, 'getConversation', { id: conversationId })).rejects.toThrow();
  await page.reload();
  await expect(page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`)).toHaveCount(0);
});

test('Undo brings a deleted conversation back, after a reload too', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, 'Keep me');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]');
  await expectReplyStatus(page, reply, 'complete');
  const item = page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);
  await item.hover();
  await item.getByTestId('delete-conversation').click();
  await expect(item).toHaveCount(0);
  const toast = page.locator(`[data-testid="undo-toast"][data-conversation-id="${conversationId}"]`);
  await expect(toast).toBeVisible();
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/undo-delete-toast.png' });
  await toast.getByTestId('undo-delete').focus();
  await page.keyboard.press('Enter');
  await expect(toast).toHaveCount(0);
  await expect(item).toHaveCount(1);
  // It was open, so it opens again.
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText([/Keep me/]);

  // Ctrl+Z outside a text field undoes the newest delete as well.
  await item.hover();
  await item.getByTestId('delete-conversation').click();
  await expect(item).toHaveCount(0);
  await page.locator('body').press('Control+z');
  await expect(item).toHaveCount(1);
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);

  // Well past the toast's life the conversation is still in the store, messages and all.
  await page.waitForTimeout(9_000);
  await page.reload();
  await expect(item).toHaveCount(1);
  await item.getByRole('button').first().click();
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText([/Keep me/]);
  const stored = await command(request, 'listMessages', { conversationId });
  expect(stored.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
});
