/**
 * The provider is the witness of its own models: Test asks Claude's fake provider for its list, which names a model
 * the bundled catalogue has never heard of; the picker offers it, and the meter measures against the window the
 * provider gave, saying whose figure it is.
 */
import { expect, test } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { offeredModels } from '../src-shared/models/catalogue';
import { INVENTED_CLAUDE_MODEL } from './fake-brains/model-lists';
import { newConversation, openBrainPicker, pickBrain } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { startOwnHost, type OwnHost } from './support/own-host';

let host: OwnHost | null = null;
test.afterEach(async () => {
  await host?.stop();
  host = null;
});

test("Test keeps Claude's model list: a model the catalogue does not know is offered, with the provider's window in the meter", async ({ page }) => {
  const claude = BRAINS.claude;
  const claudeBaseUrl = readE2eEnvironment().baseUrlEnv[claude.baseUrlVariable];
  if (claudeBaseUrl === undefined || claude.keyVariable === null) throw new Error('no fake Claude');
  host = await startOwnHost({ env: { [claude.keyVariable]: 'sk-ant-catalogue', [claude.baseUrlVariable]: claudeBaseUrl } });
  await page.goto(host.launchUrl);
  const claudeRow = page.locator('[data-testid="first-run-brain"][data-brain="claude"]');
  await claudeRow.getByTestId('brain-test').click();
  await expect(claudeRow.getByTestId('brain-test-result')).toHaveText(`Claude answered: ${offeredModels('claude').length + 1} models available.`);

  await newConversation(page);
  await pickBrain(page, 'claude');
  await openBrainPicker(page);
  // The provider's newest model leads the list the field offers.
  await expect(page.locator('datalist option').first()).toHaveAttribute('value', INVENTED_CLAUDE_MODEL.id);
  const field = page.getByTestId('model-picker');
  await field.fill(INVENTED_CLAUDE_MODEL.id);
  await field.press('Enter');
  await expect(page.getByTestId('brain-picker')).toContainText(INVENTED_CLAUDE_MODEL.id);
  await page.keyboard.press('Escape');

  const reading = page.getByTestId('context-meter').locator('.context-meter-reading');
  await expect(reading).toHaveAttribute('title', /^\d[\d,]* of 640,000 tokens \(estimated\); window: from Anthropic, today; Claude's request holds every message$/);
  for (const [width, scheme] of [[1280, 'light'], [480, 'dark']] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/screenshots/provider-model-${width}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Settings' table of windows says the same, row by row.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-context').click();
  const row = page.locator(`[data-testid="model-window-row"][data-model="${INVENTED_CLAUDE_MODEL.id}"]`);
  await expect(row.getByTestId('model-window-size')).toHaveText('640,000');
  await expect(row.getByTestId('model-window-output')).toHaveText('96,000');
  await expect(row.getByTestId('model-window-source')).toHaveText('from Anthropic, today');
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/provider-model-settings-1280-light.png' });

  // The brain's card says whose list the picker offers.
  await page.getByTestId('settings-tab-general').click();
  const card = page.locator('[data-testid="brain-settings"][data-brain="claude"]');
  await expect(card.getByTestId('brain-models-source')).toHaveText(`The model picker offers the ${offeredModels('claude').length + 1} models Anthropic listed today.`);
  for (const [width, scheme] of [[1280, 'light'], [480, 'dark']] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/provider-model-card-${width}-${scheme}.png` });
  }
});
