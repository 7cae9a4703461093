import { expect, test, type Page } from '@playwright/test';
import { newConversation, openApp, openBrainPicker } from './support/app';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });

test('Ctrl+N, Ctrl+K, Ctrl+Shift+S and Ctrl+/ work in the web host, from the composer too', async ({ page }) => {
  await openApp(page);

  // Chromium delivers Ctrl+N to the page, which keeps it from opening a window.
  const first = await newConversation(page, () => page.keyboard.press('Control+n'));
  const second = await newConversation(page, () => page.getByTestId('composer-input').press('Control+n'));
  expect(second).not.toBe(first);

  await page.getByTestId('composer-input').press('Control+k');
  await expect(page.getByTestId('conversation-search')).toBeFocused();

  await page.getByTestId('composer-input').press('Control+Shift+S');
  await expect(sidebar(page)).toBeHidden();
  const show = page.getByRole('button', { name: 'Show sidebar' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('new-conversation-compact')).toBeVisible();
  // The conversation takes the sidebar's column: the composer (attach button first) starts where the sidebar was.
  const composerBox = await page.locator('.composer').first().boundingBox();
  expect(composerBox?.x ?? 1280).toBeLessThan(280);
  await page.keyboard.press('Control+Shift+S');
  await expect(sidebar(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide sidebar' })).toHaveAttribute('aria-expanded', 'true');

  // Ctrl+K opens a hidden sidebar to reach its search box.
  await page.getByRole('button', { name: 'Hide sidebar' }).click();
  await expect(sidebar(page)).toBeHidden();
  await page.getByTestId('composer-input').press('Control+k');
  await expect(sidebar(page)).toBeVisible();
  await expect(page.getByTestId('conversation-search')).toBeFocused();

  await page.getByTestId('composer-input').press('Control+/');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByTestId('shortcut-row').filter({ hasText: 'Show or hide the sidebar' })).toContainText('CtrlShiftS');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  // Focus goes back where it was.
  await expect(page.getByTestId('composer-input')).toBeFocused();

  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Control+/');
  await expect(sheet).toBeHidden();
});

test('the hidden sidebar stays hidden after a reload of a wide window', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Hide sidebar' }).click();
  await openApp(page);
  await expect(sidebar(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
});

test('Escape closes every dialog', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  const dialogs = [
    { open: 'open-settings', dialog: 'settings-dialog' },
    { open: 'open-memories', dialog: 'memories-view' },
    { open: 'show-request', dialog: 'request-dialog' },
    { open: 'export-conversation', dialog: 'export-dialog' },
    { open: 'export-all', dialog: 'export-all-dialog' },
    { open: 'open-shortcuts', dialog: 'shortcuts-sheet' },
  ];
  for (const { open, dialog } of dialogs) {
    await page.getByTestId(open).click();
    await expect(page.getByTestId(dialog)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(dialog), `${dialog} closes on Escape`).toHaveCount(0);
  }
});

test('every control shows a strong focus ring, the brain picker and its pressed brain too', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  const picker = page.getByTestId('brain-picker');
  await picker.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();
  expect(await picker.evaluate((element) => getComputedStyle(element).outlineWidth)).toBe('2px');
  await openBrainPicker(page);
  const pressed = page.locator('.brain-switch-button[aria-pressed="true"]');
  await pressed.focus();
  // A focus() from script shows the ring only after keyboard use, as Tab would give.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(pressed).toBeFocused();
  const ring = await pressed.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: style.outlineWidth, offset: style.outlineOffset };
  });
  expect(ring).toEqual({ style: 'solid', width: '2px', offset: '2px' });
  const select = page.getByTestId('reasoning-picker');
  await select.focus();
  await expect(select).toBeFocused();
  expect(await select.evaluate((element) => getComputedStyle(element).outlineWidth)).toBe('2px');
});

test.describe('a 480 px window', () => {
  test.use({ viewport: { width: 480, height: 800 } });

  test('starts with the sidebar collapsed; its toggle opens it over the conversation, and choosing closes it', async ({ page }) => {
    await openApp(page);
    await expect(sidebar(page)).toBeHidden();
    const compactNew = page.getByTestId('new-conversation-compact');
    await compactNew.click();
    await expect(page.getByTestId('composer-input')).toBeVisible();
    await page.getByTestId('composer-input').fill('Hello from a small window');
    await page.getByTestId('composer-input').press('Enter');
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').first()).toBeVisible();

    // The message list and the composer sit inside the window.
    const composer = await page.getByTestId('composer-input').boundingBox();
    expect(composer).not.toBeNull();
    expect((composer?.x ?? -1) >= 0 && (composer?.x ?? 0) + (composer?.width ?? 0) <= 480).toBe(true);

    const show = page.getByRole('button', { name: 'Show sidebar' });
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await show.click();
    await expect(sidebar(page)).toBeVisible();
    await expect(page.getByTestId('sidebar-scrim')).toBeVisible();
    const newButton = await page.getByTestId('new-conversation').boundingBox();
    expect(newButton).not.toBeNull();
    if (newButton !== null) {
      expect(newButton.x).toBeGreaterThanOrEqual(0);
      expect(newButton.x + newButton.width).toBeLessThanOrEqual(480);
      expect(newButton.y + newButton.height).toBeLessThanOrEqual(800);
    }
    const sidebarBox = await sidebar(page).boundingBox();
    expect(sidebarBox?.width ?? 0).toBeLessThan(480);

    await page.keyboard.press('Escape');
    await expect(sidebar(page)).toBeHidden();
    await expect(show).toBeFocused();

    await show.click();
    await page.getByTestId('sidebar-scrim').click({ position: { x: 460, y: 400 } });
    await expect(sidebar(page)).toBeHidden();

    await show.click();
    await page.getByTestId('conversation-item').first().getByTestId('conversation-title').click();
    await expect(sidebar(page)).toBeHidden();
    await expect(page.getByTestId('composer-input')).toBeVisible();
  });

  test('Ctrl+K opens the collapsed sidebar over the conversation and focuses its search box', async ({ page }) => {
    // Shown when the window was last wide: a narrow window collapses it all the same.
    await page.addInitScript(() => localStorage.setItem('anybrain.sidebarHidden', 'false'));
    await openApp(page);
    await expect(sidebar(page)).toBeHidden();
    await page.keyboard.press('Control+k');
    await expect(sidebar(page)).toBeVisible();
    await expect(page.getByTestId('conversation-search')).toBeFocused();
  });
});
