/**
 * A model's life cycle in the window: a deprecated model is marked beside the model field with its retirement and
 * replacement, and a model its provider has shut down is refused before anything is sent, naming the replacement.
 */
import { expect, test, type Page } from '@playwright/test';
import { fakeBrainRequests, newConversation, openApp, openBrainPicker, pickBrain, sendMessage } from './support/app';

async function typeModel(page: Page, model: string): Promise<void> {
  await openBrainPicker(page);
  const field = page.getByTestId('model-picker');
  await field.fill(model);
  await field.press('Enter');
  await expect(page.getByTestId('brain-picker')).toContainText(model);
}

test('a deprecated model is marked with its retirement, and a shut-down one is refused before anything is sent', async ({ page, request }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'claude');
  await typeModel(page, 'claude-opus-4-5');
  const mark = page.getByTestId('model-lifecycle');
  await expect(mark).toHaveText(/^Claude's model claude-opus-4-5 is deprecated and (retires|was due to retire) on 22 January 2027.*Pick claude-opus-5-5 in the model picker instead\.$/);
  for (const [width, scheme] of [[1280, 'light'], [480, 'dark']] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/screenshots/model-deprecated-${width}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');

  await pickBrain(page, 'gemini');
  await typeModel(page, 'gemini-3-pro-preview');
  await expect(mark).toHaveText("Gemini's model gemini-3-pro-preview was shut down on 9 March 2026, so Anybrain sends it nothing. Pick gemini-3.1-pro-preview in the model picker instead.");
  await page.keyboard.press('Escape');
  const before = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'gemini').length;
  await sendMessage(page, 'Hello there');
  await expect(page.getByTestId('composer-error')).toContainText(
    "Gemini's model gemini-3-pro-preview was shut down on 9 March 2026, so Anybrain sends it nothing. Pick gemini-3.1-pro-preview in the model picker instead.",
  );
  expect((await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'gemini')).toHaveLength(before);
  await page.screenshot({ path: 'test-results/screenshots/model-retired-refused.png' });
});
