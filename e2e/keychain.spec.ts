/**
 * Keys in browser mode: a key typed into Settings goes to the system keychain (a Secret Service of the test's own,
 * see support/test-keyring.ts), a turn sends it, and the key appears in no file of the data folder and in no export.
 * The keychain outlives the host: a new host on the same data folder still has the key.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { sha256Hex } from './fake-brains/server';
import { fakeBrainRequests, hostCommand, newConversation, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { startOwnHost, type OwnHost } from './support/own-host';
import { createTestKeyring, type TestKeyring } from './support/test-keyring';

const KEY = 'sk-kimi-from-the-window-7d41e0';

let keyring: TestKeyring;
let dataDir: string;
const hosts: OwnHost[] = [];

test.beforeAll(() => {
  keyring = createTestKeyring();
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-keychain-'));
});

test.afterAll(async () => {
  for (const host of hosts.splice(0).reverse()) await host.stop();
  keyring.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A host on the spec's data folder, in the test keyring's session. */
async function startKeychainHost(): Promise<OwnHost> {
  const kimiBaseUrl = readE2eEnvironment().baseUrlEnv[BRAINS.kimi.baseUrlVariable];
  if (kimiBaseUrl === undefined) throw new Error('no fake Kimi');
  const host = await startOwnHost({ env: { [BRAINS.kimi.baseUrlVariable]: kimiBaseUrl }, wrap: keyring.wrap, dataDir });
  hosts.push(host);
  return host;
}

function everyFileText(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'))
    .join('\n');
}

test('a key stored from Settings lives in the keychain, a turn sends it, and no file or export holds it', async ({ page }) => {
  const host = await startKeychainHost();
  await page.goto(host.launchUrl);
  await expect(page.getByRole('heading', { name: 'Welcome to Anybrain' })).toBeVisible();

  await page.locator('[data-testid="first-run-brain"][data-brain="kimi"]').getByTestId('set-up-brain').click();
  const card = page.locator('[data-testid="brain-settings"][data-brain="kimi"]');
  await expect(page.getByTestId('key-storage-refusal')).toHaveCount(0);
  await card.getByTestId('key-input').fill(KEY);
  await card.getByTestId('save-key').click();
  await expect(card.getByRole('status').filter({ hasText: 'Key saved.' })).toBeVisible();
  await expect(card.getByTestId('key-status')).toHaveText('A key is saved in the system keychain.');
  await expect(card.getByTestId('key-input')).toHaveValue('');
  await page.getByTestId('close-settings').click();

  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, 'Hello through the keychain');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').first();
  await expect(reply.getByTestId('message-text')).toHaveText('Fake Kimi reply to: Hello through the keychain');
  const sent = (await fakeBrainRequests(page.request)).filter(
    (request) => request.brain === 'kimi' && JSON.stringify(request.body).includes('Hello through the keychain'),
  );
  expect(sent.map((request) => request.keySha256)).toEqual([sha256Hex(KEY)]);

  const exports = await Promise.all(
    (['json', 'md', 'html'] as const).map((format) => hostCommand(page.request, host, 'exportConversation', { id: conversationId, format, includeTools: true })),
  );
  for (const exported of exports) {
    expect(exported.content).toContain('Hello through the keychain');
    expect(exported.content).not.toContain(KEY);
  }
  const settings = await hostCommand(page.request, host, 'getSettings', {});
  expect(JSON.stringify(settings)).not.toContain(KEY);
  expect(everyFileText(host.dataDir)).not.toContain(KEY);

  // The keychain, not the host, keeps the key: a host started again on the same data folder has it.
  await host.stop();
  hosts.splice(hosts.indexOf(host), 1);
  const again = await startKeychainHost();
  await page.goto(again.launchUrl);
  const kimi = (await hostCommand(page.request, again, 'getSettings', {})).brains.find((brain) => brain.brain === 'kimi');
  expect(kimi?.keySource).toBe('stored');
  expect(everyFileText(dataDir)).not.toContain(KEY);
});
