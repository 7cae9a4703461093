/**
 * What a reply cost, under the reply, against the fake brains (whose prompt caches serve the part of a request that
 * repeats the last one to the same model): the second turn to Claude reads most of its input from the cache, and its
 * strip says what it cost and how much was cached, as the stored request rows price it, after a reload too; the
 * header meter's tooltip sums the conversation, and Settings → Usage the day, per brain and model.
 */
import { expect, test } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { formatCount } from '../src-shared/format-count';
import { cachedPercent, conversationSpendWords, dollarsText } from '../src-shared/usage';
import { command, newConversation, openApp, OWN_CONNECTION, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a reply shows what it cost and how much of its input the cache served, and the Usage tab adds up the day', async ({ page, request }) => {
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  // The web host serves every spec of the run: what Claude's default model had counted today before this one.
  const today = new Date().toISOString().slice(0, 10);
  const claudeToday = async () => (await command(request, 'getUsage', { since: today })).find((day) => day.brain === 'claude' && day.model === BRAINS.claude.defaultModel && day.day === today);
  const before = (await claudeToday())?.requests ?? 0;
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'claude');
  await sendMessage(page, `A first question about the sea, long enough to be worth caching: ${'waves and tides '.repeat(40)}`);
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expectReplyStatus(page, replies.last(), 'complete');
  await sendMessage(page, 'And a second one?');
  await expectReplyStatus(page, replies.nth(1), 'complete');

  const { messages } = await command(request, 'listMessages', { conversationId, limit: 10 });
  const [first, second] = messages.filter((message) => message.role === 'assistant');
  // The first request found nothing cached; the second repeats it, so most of its input was read from the cache.
  expect(first!.spend).toMatchObject({ requests: 1, cacheReadTokens: 0 });
  const spend = second!.spend!;
  expect(spend.requests).toBe(1);
  expect(spend.costUsd).toBeGreaterThan(0);
  const share = cachedPercent(spend)!;
  expect(share).toBeGreaterThan(50);

  const secondSpend = replies.nth(1).getByTestId('reply-spend');
  await expect(secondSpend).toHaveText(`${dollarsText(spend.costUsd)} · ${share} % cached`);
  await expect(secondSpend).toHaveAttribute('title', new RegExp(`^${escapeRegExp(dollarsText(spend.costUsd))}, an estimate from the prices in Settings → Usage: 1 request, `));
  await expect(replies.first().getByTestId('reply-spend')).toHaveText(dollarsText(first!.spend!.costUsd));

  // The header meter's tooltip sums the conversation's requests.
  const total = { requests: 2, inputTokens: first!.spend!.inputTokens + spend.inputTokens, cacheReadTokens: spend.cacheReadTokens, costUsd: Math.round((first!.spend!.costUsd! + spend.costUsd!) * 1e8) / 1e8 };
  await expect(page.getByTestId('context-meter').locator('.context-meter-reading')).toHaveAttribute('title', new RegExp(`\n${escapeRegExp(conversationSpendWords(total)!)}$`));

  // After a reload the strip is read from the stored rows again.
  await page.reload();
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').nth(1).getByTestId('reply-spend')).toHaveText(
    `${dollarsText(spend.costUsd)} · ${share} % cached`,
  );

  // Settings → Usage: today's row for Claude counts the two requests, with the dollars the API sums.
  const counted = (await claudeToday())!;
  expect(counted.requests).toBe(before + 2);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-usage').click();
  const row = page.locator(`[data-testid="usage-row"][data-brain="claude"][data-model="${BRAINS.claude.defaultModel}"][data-day="${today}"]`);
  await expect(row.locator('td').nth(1)).toHaveText(formatCount(counted.requests));
  await expect(row.getByTestId('usage-cost')).toHaveText(dollarsText(counted.costUsd));
});

test('a price set in Settings → Usage prices every request of the model, the reply shown included, until it is reset', async ({ page, request }) => {
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  const model = BRAINS.kimi.defaultModel;
  try {
    await openApp(page);
    const conversationId = await newConversation(page);
    await pickBrain(page, 'kimi');
    await sendMessage(page, 'What does a tide table say?');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await expectReplyStatus(page, reply, 'complete');
    const spendOf = async () => (await command(request, 'listMessages', { conversationId, limit: 10 })).messages.find((message) => message.role === 'assistant')!.spend!;
    const listedSpend = await spendOf();
    await expect(reply.getByTestId('reply-spend')).toHaveText(dollarsText(listedSpend.costUsd));

    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-usage').click();
    const row = page.locator(`[data-testid="price-row"][data-model="${model}"]`);
    await expect(row).toHaveAttribute('data-source', 'list');
    await row.getByTestId('edit-price').click();
    await row.getByTestId('price-input-input').fill('100');
    await row.getByTestId('price-input-output').fill('200');
    await row.getByTestId('price-input-cacheRead').fill('');
    await row.getByTestId('price-input-cacheWrite').fill('');
    await page.getByTestId('save-price').click();
    await expect(row).toHaveAttribute('data-source', 'own');
    await expect(row.getByTestId('price-input-input')).toHaveCount(0);
    await expect(row.getByTestId('price-input')).toHaveText('$100');
    await expect(row.getByTestId('price-output')).toHaveText('$200');
    await expect(row.getByTestId('price-cacheRead')).toHaveText('—');

    // Input at $100 and output at $200 a million tokens, cached input charged as input.
    const ownSpend = await spendOf();
    expect(ownSpend.costUsd).toBe(Math.round(((ownSpend.inputTokens * 100 + ownSpend.outputTokens * 200) / 1_000_000) * 1e8) / 1e8);
    await page.keyboard.press('Escape');
    await expect(reply.getByTestId('reply-spend')).toHaveText(dollarsText(ownSpend.costUsd));

    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-usage').click();
    await row.getByTestId('reset-price').click();
    await expect(row).toHaveAttribute('data-source', 'list');
    expect((await spendOf()).costUsd).toBe(listedSpend.costUsd);
  } finally {
    await command(request, 'setModelPrice', { brain: 'kimi', model, price: null });
  }
});
