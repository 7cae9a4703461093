/**
 * Screenshots of the surfaces a person lives in, kept as test artifacts in test-results/screenshots/: the first run,
 * a conversation with receipts and reasoning, a brain switch, each Settings tab, a tool approval prompt, and the
 * composer with two attachments and the message they went out in (its image enlarged too), each at
 * 1280x800 and 480x800, in the light and the dark theme. Each scene is built once per theme and shot at both sizes;
 * before each shot its key element must be in view, and each file must be a PNG of the window's size.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SETTINGS_TABS } from '../src-renderer/state/settings-slice';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { gradientPng, naturalWidth, pasteFile, SMALL_PDF } from './support/attachments';
import { ASKING_TOOL, setUpSurfaceScene } from './support/surface-scene';
import { expectReplyStatus } from './support/waits';

const SCREENSHOT_DIR = join('test-results', 'screenshots');
const THEMES = ['light', 'dark'] as const;
const SIZES = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 480, height: 800 },
] as const;

type Theme = (typeof THEMES)[number];

/** Width and height from a PNG's IHDR chunk, which follows the 8-byte signature and the chunk's length and type. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1'), `${file} is not a PNG`).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Shoots the scene at each size; `key` must be in view at each, `prepare` may bring it there after a resize. */
async function shootAtEachSize(page: Page, theme: Theme, scene: string, key: Locator, prepare?: () => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    if (prepare !== undefined) await prepare();
    await expect(key, `${scene} (${size.name}, ${theme}): key element`).toBeInViewport();
    const file = join(SCREENSHOT_DIR, `${scene}-${size.width}x${size.height}-${theme}.png`);
    await page.screenshot({ path: file, animations: 'disabled' });
    expect(statSync(file).size, `${file} is empty`).toBeGreaterThan(0);
    expect(pngSize(file)).toEqual({ width: size.width, height: size.height });
  }
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
}


function replies(page: Page): Locator {
  return page.locator('[data-testid="message"][data-role="assistant"]');
}

for (const theme of THEMES) {
  test(`screenshots of every main surface in the ${theme} theme`, async ({ page, request }) => {
    test.setTimeout(180_000);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const { marker, restore } = await setUpSurfaceScene(page, request, theme, 'shotmarker');
    try {
      await openApp(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await shootAtEachSize(page, theme, 'first-run', page.getByRole('heading', { name: 'One conversation, any brain' }));

      // A reply that recalls the memory, reasons first (Kimi streams reasoning on [think]) and calls a tool, then
      // two more turns, the last by another brain.
      await newConversation(page);
      await pickBrain(page, 'kimi');
      await sendMessage(page, `[think][tool:${ASKING_TOOL}] what is the cat called, and what time is it? ${marker}`);
      await expectReplyStatus(page, replies(page).first(), 'complete');
      await expect(replies(page).first().getByTestId('receipt-chip')).toHaveCount(2);
      await sendMessage(page, '[think] and why is the sky blue?');
      await expect(replies(page)).toHaveCount(2);
      await expectReplyStatus(page, replies(page).nth(1), 'complete');
      await pickBrain(page, 'gemini');
      await sendMessage(page, '[think] tell me more about the lighthouse');
      await expect(replies(page)).toHaveCount(3);
      await expectReplyStatus(page, replies(page).nth(2), 'complete');

      const firstReply = replies(page).first();
      await firstReply.getByTestId('reasoning-toggle').click();
      await expect(firstReply.getByTestId('reasoning-text')).toBeVisible();
      await shootAtEachSize(page, theme, 'conversation-receipts-reasoning', firstReply.getByTestId('receipt-chip').first(), () =>
        firstReply.getByTestId('receipt-chip').first().scrollIntoViewIfNeeded(),
      );

      const divider = page.getByTestId('brain-change');
      await expect(divider).toHaveText('Gemini from here');
      await shootAtEachSize(page, theme, 'brain-switch', divider, () => divider.scrollIntoViewIfNeeded());

      await command(request, 'setToolPolicy', { server: null, tool: ASKING_TOOL, policy: 'ask' });
      await sendMessage(page, `[tool:${ASKING_TOOL}] and the time now?`);
      const asking = replies(page).last();
      const prompt = asking.getByTestId('approval-prompt');
      await expect(prompt).toBeVisible();
      await shootAtEachSize(page, theme, 'approval-prompt', prompt, () => prompt.scrollIntoViewIfNeeded());
      await prompt.getByTestId('approval-allow').click();
      await expectReplyStatus(page, asking, 'complete');

      await page.getByTestId('open-settings').click();
      for (const tab of SETTINGS_TABS) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        const panel = page.locator(`#settings-panel-${tab}`);
        await expect(panel).toBeVisible();
        await shootAtEachSize(page, theme, `settings-${tab}`, page.getByTestId(`settings-tab-${tab}`));
      }
      // Settings' actions look like buttons: framed, not bare text.
      await page.getByTestId('settings-tab-context').click();
      await expect(page.getByTestId('edit-model-window').first()).not.toHaveCSS('border-top-color', 'rgba(0, 0, 0, 0)');
      await page.getByTestId('settings-tab-tools').click();
      const policies = page.locator('#tool-policies-title');
      const policyHelp = page.locator('details.learn-more', { hasText: 'Learn more about tool policies' });
      await policyHelp.locator('summary').click();
      await expect(policyHelp.getByText('Tools of MCP servers ask first until you choose otherwise.')).toBeVisible();
      const skills = page.locator('#skills-title');
      await expect(policies).toBeVisible();
      await shootAtEachSize(page, theme, 'settings-tools-policies-and-skills', skills, () => skills.scrollIntoViewIfNeeded());
      await page.getByTestId('close-settings').click();
      await expect(page.getByTestId('settings-dialog')).toBeHidden();
    } finally {
      await restore();
    }
  });
}

for (const theme of THEMES) {
  test(`screenshots of attachments in the ${theme} theme`, async ({ page, request }) => {
    test.setTimeout(120_000);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const { restore } = await setUpSurfaceScene(page, request, theme, 'attachmentshot');
    try {
      await openApp(page);
      await newConversation(page);
      await pickBrain(page, 'gemini');
      await pasteFile(page, 'lighthouse at dusk.png', 'image/png', gradientPng(640, 400));
      await pasteFile(page, 'keeper-logbook-1923.pdf', 'application/pdf', SMALL_PDF);
      await page.getByTestId('composer-input').fill('What do these two tell us about the lighthouse?');
      const tray = page.getByTestId('attachment-tray');
      await expect(tray.locator('[data-state="stored"]')).toHaveCount(2);
      await shootAtEachSize(page, theme, 'composer-attachments', tray);

      await page.getByTestId('composer-input').press('Enter');
      await expectReplyStatus(page, replies(page).first(), 'complete');
      const image = page.locator('[data-testid="message"][data-role="user"]').getByRole('img', { name: 'lighthouse at dusk.png' });
      await expect.poll(() => naturalWidth(image)).toBe(640);
      await shootAtEachSize(page, theme, 'message-attachments', image, () => image.scrollIntoViewIfNeeded());

      await page.getByRole('button', { name: 'Enlarge lighthouse at dusk.png' }).click();
      const viewer = page.getByRole('dialog', { name: 'lighthouse at dusk.png' });
      await expect.poll(() => naturalWidth(viewer.getByRole('img'))).toBe(640);
      await shootAtEachSize(page, theme, 'image-viewer', viewer);
      await page.keyboard.press('Escape');
    } finally {
      await restore();
    }
  });
}
