/**
 * Attachments end to end: an image pasted into the composer reaches a vision brain in its wire's own shape and shows
 * in the message; a brain without vision gets the labelled stand-in; a reload keeps the image; and files the host
 * refuses (empty, misnamed, too large, damaged) each say why and leave nothing stored. The attachment surfaces pass
 * an axe scan (WCAG 2.1 A and AA, serious and critical) in both themes.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fakeBrainRequests, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { gradientPng, naturalWidth, pasteFile, SMALL_PDF } from './support/attachments';
import { setUpSurfaceScene } from './support/surface-scene';
import { expectReplyStatus } from './support/waits';

const PHOTO = gradientPng(96, 64);

function storedFiles(): string[] {
  try {
    return readdirSync(join(readE2eEnvironment().dataDir, 'attachments')).sort();
  } catch {
    return [];
  }
}

function replies(page: Page): Locator {
  return page.locator('[data-testid="message"][data-role="assistant"]');
}

test('a pasted image goes to a vision brain, shows in the message, survives a reload, and a brain without vision gets the stand-in', async ({
  page,
  request,
}) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'gemini');

  await pasteFile(page, 'photo.png', 'image/png', PHOTO);
  const thumbnail = page.getByTestId('attachment-tray').getByRole('img', { name: 'photo.png' });
  await expect(thumbnail).toBeVisible();
  expect(await naturalWidth(thumbnail)).toBe(96);
  await sendMessage(page, 'What colours are in this picture?');
  await expectReplyStatus(page, replies(page).first(), 'complete');
  await expect(page.getByTestId('attachment-tray')).toHaveCount(0);

  const userMessage = page.locator('[data-testid="message"][data-role="user"]').first();
  const shown = userMessage.getByRole('img', { name: 'photo.png' });
  await expect(shown).toBeVisible();
  await expect.poll(() => naturalWidth(shown)).toBe(96);

  // Gemini's wire carries the image as an inlineData part before the words.
  const geminiRequest = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'gemini').at(-1);
  const contents = (geminiRequest?.body as { contents: { role: string; parts: unknown[] }[] }).contents;
  expect(contents.at(-1)).toEqual({
    role: 'user',
    parts: [{ inlineData: { mimeType: 'image/png', data: PHOTO.toString('base64') } }, { text: 'What colours are in this picture?' }],
  });

  // Click to enlarge; Escape closes and hands the focus back.
  await userMessage.getByRole('button', { name: 'Enlarge photo.png' }).click();
  const viewer = page.getByRole('dialog', { name: 'photo.png' });
  await expect(viewer).toBeVisible();
  await expect.poll(() => naturalWidth(viewer.getByRole('img', { name: 'photo.png' }))).toBe(96);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(userMessage.getByRole('button', { name: 'Enlarge photo.png' })).toBeFocused();

  // GLM's default model takes no images: the composer says so before a new image is sent...
  await pickBrain(page, 'glm');
  await pasteFile(page, 'photo.png', 'image/png', PHOTO);
  await expect(page.getByTestId('attachment-refusal')).toHaveText(
    'GLM glm-5.1 cannot see images here; switch to Gemini or remove it.',
  );
  await expect(page.getByTestId('send-button')).toBeDisabled();
  await page.getByRole('button', { name: 'Remove photo.png' }).click();
  await expect(page.getByTestId('attachment-refusal')).toHaveCount(0);

  // ...and the earlier image replays to it as the labelled stand-in.
  await sendMessage(page, 'And what do you make of it?');
  await expectReplyStatus(page, replies(page).nth(1), 'complete');
  const glmRequest = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'glm').at(-1);
  expect(JSON.stringify(glmRequest?.body)).toContain(
    '[image photo.png (96x64) was shown to an earlier brain; this brain cannot see it]',
  );
  expect(JSON.stringify(glmRequest?.body)).not.toContain(PHOTO.toString('base64'));

  // A reload reads the image back from the host.
  await openApp(page);
  await page.goto(`${readE2eEnvironment().launchUrl.split('#')[0]}#/c/${encodeURIComponent(conversationId)}`);
  const reloaded = page.locator('[data-testid="message"][data-role="user"]').first().getByRole('img', { name: 'photo.png' });
  await expect(reloaded).toBeVisible();
  await expect.poll(() => naturalWidth(reloaded)).toBe(96);
});

test('an empty, misnamed, oversized or damaged file each says why and stores nothing', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  const before = storedFiles();
  const picker = page.getByTestId('composer-file-input');
  const problems = page.getByTestId('attachment-problem');
  const cases = [
    { name: 'empty.png', buffer: Buffer.alloc(0), message: 'empty.png is empty (0 bytes)' },
    { name: 'notes.png', buffer: Buffer.from('just some words\n'), message: 'notes.png cannot be attached.' },
    {
      name: 'huge.png',
      buffer: Buffer.concat([PHOTO.subarray(0, 33), Buffer.alloc(11 * 1024 * 1024)]),
      message: 'huge.png is 11 MB, over the 10 MB limit',
    },
    { name: 'broken.png', buffer: PHOTO.subarray(0, 20), message: 'broken.png looks like PNG but its header or size cannot be read' },
  ];
  for (const { name, buffer, message } of cases) {
    await picker.setInputFiles({ name, mimeType: 'image/png', buffer });
    await expect(problems).toHaveCount(1);
    await expect(problems.first()).toContainText(message);
    await expect(page.getByTestId('attachment-tray')).toHaveCount(0);
    await page.getByRole('button', { name: 'Dismiss the attachment problems' }).click();
    await expect(problems).toHaveCount(0);
  }
  expect(storedFiles()).toEqual(before);
});

/** Serious and critical WCAG 2.1 A/AA violations on the page as it stands, one line each. */
async function axeViolations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `[${where}] ${violation.id} ${node.target.join(' ')}: ${violation.help}`));
}

for (const theme of ['light', 'dark'] as const) {
  test(`the tray, a refusal, a message's files and the image viewer pass axe in the ${theme} theme`, async ({ page, request }) => {
    const { restore } = await setUpSurfaceScene(page, request, theme, 'attachmentaxe');
    try {
      await openApp(page);
      await newConversation(page);
      await pickBrain(page, 'kimi');
      await pasteFile(page, 'photo.png', 'image/png', PHOTO);
      await pasteFile(page, 'report.pdf', 'application/pdf', SMALL_PDF);
      await page.getByTestId('composer-file-input').setInputFiles({ name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) });
      await expect(page.getByTestId('attachment-problem')).toHaveCount(1);
      await expect(page.getByTestId('attachment-refusal')).toHaveText('Kimi kimi-k2.6 cannot read PDFs here; switch to Gemini or remove it.');
      const findings = await axeViolations(page, 'composer');

      await pickBrain(page, 'gemini');
      await sendMessage(page, 'Both, please.');
      await expectReplyStatus(page, replies(page).first(), 'complete');
      await expect.poll(() => naturalWidth(page.getByRole('img', { name: 'photo.png' }))).toBe(96);
      findings.push(...(await axeViolations(page, 'message')));
      await page.getByRole('button', { name: 'Enlarge photo.png' }).click();
      await expect(page.getByRole('dialog', { name: 'photo.png' })).toBeVisible();
      findings.push(...(await axeViolations(page, 'image viewer')));
      expect(findings).toEqual([]);
    } finally {
      await restore();
    }
  });
}
