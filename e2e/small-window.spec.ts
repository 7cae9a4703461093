import { expect, test, type Page } from '@playwright/test';
import { fakeBrainRequests, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

/** The header's height, the message list's height and the window's inner height, in CSS pixels. */
async function heights(page: Page): Promise<{ header: number; list: number; window: number }> {
  const header = await page.locator('.conversation-header').boundingBox();
  const list = await page.getByTestId('message-list').boundingBox();
  const window = await page.evaluate(() => globalThis.innerHeight);
  return { header: header?.height ?? Number.NaN, list: list?.height ?? Number.NaN, window };
}

/** Every direct part of the header row sits on the row's first line: nothing wrapped. */
async function headerPartsOnOneLine(page: Page): Promise<boolean> {
  return page.locator('.conversation-header-row').evaluate((row) => {
    const rowBox = row.getBoundingClientRect();
    return Array.from(row.children).every((child) => {
      const box = child.getBoundingClientRect();
      return box.top >= rowBox.top - 1 && box.bottom <= rowBox.bottom + 1 && box.right <= rowBox.right + 1;
    });
  });
}

async function converseInASmallWindow(page: Page, request: Parameters<typeof fakeBrainRequests>[0]): Promise<void> {
  await openApp(page);
  // The sidebar is collapsed: New conversation is the header's compact button.
  await page.getByTestId('new-conversation-compact').click();
  await expect(page.getByTestId('composer-input')).toBeVisible();

  await pickBrain(page, 'glm');
  await expect(page.getByTestId('brain-picker')).toContainText('GLM');
  const before = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'glm').length;
  await sendMessage(page, '[slow] Tell me a long story');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expect(reply.getByTestId('message-text')).toContainText('word3');
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply).toHaveAttribute('data-brain', 'glm');
  expect((await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'glm').length).toBe(before + 1);

  expect(await headerPartsOnOneLine(page)).toBe(true);
  const measured = await heights(page);
  expect(measured.header).toBeLessThanOrEqual(64);
  expect(measured.list / measured.window).toBeGreaterThanOrEqual(0.6);

  // The actions that do not fit are in "More actions".
  await expect(page.getByTestId('show-request')).toBeHidden();
  await page.getByRole('button', { name: 'More actions' }).click();
  const menu = page.getByRole('menu', { name: 'More actions' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Compact now', 'Show request', 'Export…']);
  await expect(menu.getByRole('menuitem', { name: 'Compact now' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Show request' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('request-dialog');
  await expect(dialog.getByTestId('request-brain')).toHaveText('GLM');
  await expect(menu).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('more-actions')).toBeFocused();

  // Export… keeps its dialog although the menu closes, and hands the focus back to the menu's button.
  await page.getByTestId('more-actions').click();
  await menu.getByRole('menuitem', { name: 'Export…' }).click();
  await expect(page.getByTestId('run-export')).toBeVisible();
  await page.getByTestId('cancel-export').click();
  await expect(page.getByTestId('run-export')).toHaveCount(0);
  await expect(page.getByTestId('more-actions')).toBeFocused();
}

test.describe('a 480 x 800 window', () => {
  test.use({ viewport: { width: 480, height: 800 } });

  test('keeps the header on one row and most of the height for the messages; a brain picked there answers', async ({ page, request }) => {
    await converseInASmallWindow(page, request);
  });
});

test.describe('200 % zoom (a 1280 x 800 window at twice the scale)', () => {
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });

  test('keeps the header on one row and most of the height for the messages; a brain picked there answers', async ({ page, request }) => {
    await converseInASmallWindow(page, request);
  });
});

test('a wide window shows the actions in the header and the picker switches brain, model and reasoning', async ({ page, request }) => {
  await openApp(page);
  await page.getByTestId('new-conversation').first().click();
  await expect(page.getByTestId('composer-input')).toBeVisible();
  await expect(page.getByTestId('more-actions')).toHaveCount(0);
  await expect(page.getByTestId('show-request')).toBeVisible();
  expect(await headerPartsOnOneLine(page)).toBe(true);

  const picker = page.getByTestId('brain-picker');
  await picker.click();
  const panel = page.getByRole('dialog', { name: 'Brain for the next reply' });
  await expect(panel.getByRole('button', { pressed: true })).toBeFocused();
  await page.keyboard.press('End');
  await expect(panel.getByRole('button', { name: 'Ollama' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(panel.getByRole('button', { name: 'Claude' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAttribute('data-brain', 'kimi');
  await panel.getByRole('combobox', { name: 'Model' }).fill('kimi-k2.5');
  await panel.getByRole('combobox', { name: 'Model' }).press('Enter');
  await expect(picker).toContainText('kimi-k2.5');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(picker).toBeFocused();

  await sendMessage(page, 'Which model?');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  const kimi = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'kimi').at(-1);
  expect((kimi?.body as { model: string }).model).toBe('kimi-k2.5');
});
