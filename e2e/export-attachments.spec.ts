/**
 * Attachments through the transcripts, in real Chromium: an image pasted and sent is inside the HTML export the
 * window downloads, which shows it and loads nothing; the JSON export with "Include attachments" carries the bytes,
 * and importing it back restores the image the window then shows.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { TranscriptV1 } from '../src-shared/transcript';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { gradientPng, naturalWidth, pasteFile } from './support/attachments';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const PHOTO = gradientPng(80, 48);

/** Sets up an export in the header's dialog and saves what the window hands over. */
async function downloadExport(page: Page, format: 'html' | 'json', includeAttachments: boolean): Promise<string> {
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByTestId(`export-format-${format}`).check();
  await page.getByTestId('export-include-attachments').setChecked(includeAttachments);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('run-export').click()]);
  const path = await download.path();
  return readFileSync(path, 'utf8');
}

/** A page of its own for an exported file, recording every request it makes (data: URLs are not requests). */
async function exportPage(browser: Browser): Promise<{ page: Page; requests: string[] }> {
  const requests: string[] = [];
  const context = await browser.newContext();
  context.on('request', (sent) => {
    if (!sent.url().startsWith('data:')) requests.push(sent.url());
  });
  return { page: await context.newPage(), requests };
}

test('the HTML export shows an attached image from inside itself and loads nothing; an embedded JSON export imports it back', async ({
  page,
  browser,
  request,
}) => {
  const created: string[] = [];
  try {
    await openApp(page);
    const conversationId = await newConversation(page);
    created.push(conversationId);
    await pickBrain(page, 'gemini');
    await pasteFile(page, 'photo.png', 'image/png', PHOTO);
    await expect(page.getByTestId('attachment-tray').getByRole('img', { name: 'photo.png' })).toBeVisible();
    await sendMessage(page, 'Keep this picture.');
    await expectReplyStatus(page, page.locator('[data-testid="message"][data-role="assistant"]').first(), 'complete');

    const html = await downloadExport(page, 'html', true);
    expect(html).toContain(`<img src="data:image/png;base64,${PHOTO.toString('base64')}" alt="photo.png">`);
    const shown = await exportPage(browser);
    await shown.page.setContent(html, { waitUntil: 'load' });
    const image = shown.page.getByRole('img', { name: 'photo.png' });
    await expect(image).toBeVisible();
    await expect.poll(() => naturalWidth(image)).toBe(80);
    expect(shown.requests).toEqual([]);
    await shown.page.context().close();

    // Without its bytes, the page names the image and still loads nothing.
    const named = await downloadExport(page, 'html', false);
    expect(named).not.toContain('data:image/png');
    expect(named).toContain('<span class="attachment-name">photo.png</span>');

    const json = await downloadExport(page, 'json', true);
    const transcript = JSON.parse(json) as TranscriptV1;
    expect(transcript.messages[0]!.attachments).toEqual([
      expect.objectContaining({ name: 'photo.png', media_type: 'image/png', size: PHOTO.length, data_base64: PHOTO.toString('base64') }),
    ]);
    const imported = await command(request, 'importTranscript', { content: json });
    created.push(imported.id);
    await page.goto(`${readE2eEnvironment().launchUrl.split('#')[0]}#/c/${encodeURIComponent(imported.id)}`);
    const restored = page.locator('[data-testid="message"][data-role="user"]').first().getByRole('img', { name: 'photo.png' });
    await expect(restored).toBeVisible();
    await expect.poll(() => naturalWidth(restored)).toBe(80);
  } finally {
    for (const id of created) await command(request, 'deleteConversation', { id });
  }
});
