/**
 * The first run, as a new user meets it: a web host with no key and no server named, the screen saying what to do
 * first, each brain's state, Test reporting the provider's answer, and Ollama pointed at a server from that screen.
 */
import { expect, test, type Page } from '@playwright/test';
import { BRAIN_IDS, BRAINS } from '../src-shared/brains';
import { offeredModels } from '../src-shared/models/catalogue';
import { readE2eEnvironment } from './support/environment';
import { startOwnHost, type OwnHost } from './support/own-host';

function brainRow(page: Page, brain: string) {
  return page.locator(`[data-testid="first-run-brain"][data-brain="${brain}"]`);
}

let host: OwnHost | null = null;
test.afterEach(async () => {
  await host?.stop();
  host = null;
});

test('a first run says what to do first, shows each brain not set up, and Test says why nothing was sent', async ({ page }) => {
  host = await startOwnHost({});
  await page.goto(host.launchUrl);
  await expect(page.getByRole('heading', { name: 'Welcome to Anybrain' })).toBeVisible();
  await expect(page.getByTestId('first-run-advice')).toContainText('add an API key');
  await expect(page.getByTestId('first-run-brain')).toHaveCount(BRAIN_IDS.length);
  await expect(page.locator('[data-testid="first-run-brain"][data-configured="true"]')).toHaveCount(0);
  await expect(brainRow(page, 'claude').getByTestId('brain-state')).toHaveText('Not set up: no key');
  await expect(brainRow(page, 'ollama').getByTestId('brain-state')).toHaveText('No key needed · expects a server at 127.0.0.1:11434');

  await brainRow(page, 'claude').getByTestId('brain-test').click();
  await expect(brainRow(page, 'claude').getByTestId('brain-test-result')).toHaveText(
    'No Claude key yet: add one, or set ANTHROPIC_API_KEY. Nothing was sent.',
  );

  // "Add an API key" opens Settings at a brain's card, its key field focused (or the note on where keys come from).
  await page.getByTestId('first-run-add-key').click();
  const claudeCard = page.locator('[data-testid="brain-settings"][data-brain="claude"]');
  await expect(claudeCard).toBeVisible();
  await expect(page.getByTestId('brains-not-set-up').locator('summary')).toHaveText(`Not set up (${BRAIN_IDS.length})`);
});

test('Ollama pointed at a server from the first-run screen: Test lists its models and the screen moves on', async ({ page }) => {
  host = await startOwnHost({});
  const ollamaBaseUrl = readE2eEnvironment().baseUrlEnv[BRAINS.ollama.baseUrlVariable];
  if (ollamaBaseUrl === undefined) throw new Error('no fake Ollama');
  await page.goto(host.launchUrl);
  await page.getByTestId('first-run-ollama').click();
  const card = page.locator('[data-testid="brain-settings"][data-brain="ollama"]');
  const baseUrl = card.getByTestId('base-url-input');
  await expect(baseUrl).toBeFocused();
  await baseUrl.fill(ollamaBaseUrl);
  await card.getByTestId('save-base-url').click();
  await expect(card.getByRole('status').filter({ hasText: 'Base URL saved.' })).toBeVisible();
  await card.getByTestId('brain-test').click();
  await expect(card.getByTestId('brain-test-result')).toHaveText(`Ollama answered: ${offeredModels('ollama').length} models available.`);
  await expect(card.getByTestId('brain-state')).toHaveText(`No key needed · server at ${new URL(ollamaBaseUrl).host}`);
  await page.getByTestId('close-settings').click();

  await expect(page.getByRole('heading', { name: 'One conversation, any brain' })).toBeVisible();
  await expect(brainRow(page, 'ollama')).toHaveAttribute('data-configured', 'true');
  await expect(brainRow(page, 'ollama').getByTestId('brain-state')).toHaveText(`No key needed · server at ${new URL(ollamaBaseUrl).host}`);
  // Settings opened again: Ollama's card leads, outside "Not set up".
  await brainRow(page, 'ollama').getByTestId('set-up-brain').click();
  await expect(page.getByTestId('brain-settings').first()).toHaveAttribute('data-brain', 'ollama');
  await expect(page.getByTestId('brains-not-set-up').locator('summary')).toHaveText(`Not set up (${BRAIN_IDS.length - 1})`);
});

test("a key from the environment: the brain shows where its key comes from, and Test reports the provider's answer", async ({ page }) => {
  const kimi = BRAINS.kimi;
  const kimiBaseUrl = readE2eEnvironment().baseUrlEnv[kimi.baseUrlVariable];
  if (kimiBaseUrl === undefined || kimi.keyVariable === null) throw new Error('no fake Kimi');
  host = await startOwnHost({ env: { [kimi.keyVariable]: 'sk-first-run', [kimi.baseUrlVariable]: kimiBaseUrl } });
  await page.goto(host.launchUrl);
  await expect(page.getByRole('heading', { name: 'One conversation, any brain' })).toBeVisible();
  await expect(brainRow(page, 'kimi').getByTestId('brain-state')).toHaveText(`Key from ${kimi.keyVariable}`);
  await brainRow(page, 'kimi').getByTestId('brain-test').click();
  await expect(brainRow(page, 'kimi').getByTestId('brain-test-result')).toHaveText(`Kimi answered: ${offeredModels('kimi').length} models available.`);
});
