/**
 * Nothing outside the app can stop it answering. Each test hangs one thing Anybrain depends on and does not control
 * (the keychain, the disk, an MCP server, a local model server), on purpose and for the whole test, and checks that
 * in browser mode a reply streams to its end, Stop works, a second tab loads with every request it makes answered
 * within a second of host time, and the window says what is not answering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { hostCommand, newConversation, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { startOwnHost, type OwnHost, type OwnHostOptions } from './support/own-host';
import { longTranscript } from './support/long-conversation';
import { createStalledDisk } from './support/stalled-disk';
import { createTestKeyring } from './support/test-keyring';
import { expectConversationListed, expectReplyStatus } from './support/waits';

/** A loose freeze bound the issue asks for: the host answers each of a new tab's requests within a second. */
const HOST_ANSWER_BOUND_MS = 1_000;

const cleanups: (() => Promise<void> | void)[] = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host whose Kimi is the fake brain, with its key from the environment. */
async function startHost(options: OwnHostOptions = {}): Promise<OwnHost> {
  const kimiBaseUrl = readE2eEnvironment().baseUrlEnv[BRAINS.kimi.baseUrlVariable];
  if (kimiBaseUrl === undefined) throw new Error('no fake Kimi');
  const host = await startOwnHost({
    ...options,
    env: { [BRAINS.kimi.baseUrlVariable]: kimiBaseUrl, [BRAINS.kimi.keyVariable!]: 'sk-kimi-from-the-environment', ...options.env },
  });
  cleanups.push(() => host.stop());
  return host;
}

const lastReply = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]').last();

/** A reply streams to its end, and a second one stops on Stop. */
async function replyAndStop(page: Page, host: OwnHost): Promise<void> {
  await newConversation(page, () => page.getByTestId('new-conversation').or(page.getByTestId('empty-state-new-conversation')).first().click());
  await pickBrain(page, 'kimi');
  await sendMessage(page, 'The first reply, while something hangs [slow]');
  await expectReplyStatus(page, lastReply(page), 'complete', host);
  await expect(lastReply(page).getByTestId('message-text')).toHaveText(/^word1 word2 .* word60$/);
  await sendMessage(page, 'The second reply, stopped [slow]');
  await expectReplyStatus(page, lastReply(page), 'streaming', host);
  await expect(lastReply(page).getByTestId('message-text')).not.toBeEmpty();
  await page.getByTestId('stop-button').click();
  await expectReplyStatus(page, lastReply(page), 'stopped', host);
}

/**
 * Opens the host in a second tab and returns the longest time the host took to answer any request the tab made
 * (from the request sent to the first byte back), once its conversations are listed.
 */
async function secondTabSlowestAnswer(browser: Browser, host: OwnHost): Promise<{ page: Page; slowestMs: number }> {
  const context = await browser.newContext();
  cleanups.push(() => context.close());
  const page = await context.newPage();
  await page.goto(host.launchUrl);
  await expect(page.locator('[data-testid="conversation-list"][aria-busy="false"], [data-testid="conversation-list-empty"]')).toHaveCount(1);
  const slowestMs = await page.evaluate(() =>
    Math.max(
      ...[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => {
        const timing = entry as PerformanceResourceTiming;
        return timing.responseStart - timing.requestStart;
      }),
    ),
  );
  return { page, slowestMs };
}

async function expectAnsweringDespite(browser: Browser, page: Page, host: OwnHost, notAnswering: string | RegExp): Promise<void> {
  await replyAndStop(page, host);
  const second = await secondTabSlowestAnswer(browser, host);
  expect(second.slowestMs).toBeLessThan(HOST_ANSWER_BOUND_MS);
  await expect(second.page.getByTestId('not-answering')).toContainText(notAnswering);
  await expect(page.getByTestId('not-answering')).toContainText(notAnswering);
}

test.describe('with a keychain that never answers', () => {
  const KEYCHAIN_NOT_ANSWERING = 'The system keychain is not answering; using the keys from the environment.';

  test('a locked keyring whose unlock prompt nobody answers', async ({ browser, page }) => {
    test.setTimeout(120_000);
    const keyring = createTestKeyring();
    cleanups.push(() => keyring.dispose());
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-frozen-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // A key stored in a desktop session: reading it later, with the keyring locked, asks for the unlock prompt.
    const desktop = await startHost({ dataDir, wrap: (command) => keyring.wrap(command) });
    await page.goto(desktop.launchUrl);
    await hostCommand(page.request, desktop, 'setKey', { brain: 'glm', key: 'sk-glm-in-the-keychain' });
    await desktop.stop();

    const host = await startHost({ dataDir, wrap: (command) => keyring.wrap(command, 'locked') });
    await page.goto(host.launchUrl);
    await expectAnsweringDespite(browser, page, host, KEYCHAIN_NOT_ANSWERING);
    const settings = await hostCommand(page.request, host, 'getSettings', {});
    expect([settings.keyStorage.answering, settings.brains.find((brain) => brain.brain === 'kimi')?.keySource]).toEqual([false, 'environment']);
  });

  test('a Secret Service that takes every call and never replies', async ({ browser, page }) => {
    test.setTimeout(120_000);
    const keyring = createTestKeyring();
    cleanups.push(() => keyring.dispose());
    const host = await startHost({ wrap: (command) => keyring.wrap(command, 'silent') });
    await page.goto(host.launchUrl);
    await expectAnsweringDespite(browser, page, host, KEYCHAIN_NOT_ANSWERING);
  });
});

test('with a disk whose sync stalls', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const disk = createStalledDisk();
  cleanups.push(() => disk.dispose());
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-frozen-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const host = await startHost({ dataDir, env: disk.environment(dataDir) });
  // Released before the host stops, so it can close its database.
  cleanups.push(() => disk.release());
  await page.goto(host.launchUrl);
  disk.stall();
  await expectAnsweringDespite(browser, page, host, /^The disk has not confirmed Anybrain's writes for 2 s/);
  // Once the disk answers again, so does the window.
  disk.release();
  await expect(page.getByTestId('not-answering')).toHaveCount(0);
});

test('with a disk whose sync of the database file stalls, so a checkpoint waits on it', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const disk = createStalledDisk();
  cleanups.push(() => disk.dispose());
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-frozen-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The log's syncs go through; the database file's, which only a checkpoint makes, wait.
  const host = await startHost({ dataDir, env: disk.environment(dataDir, '/anybrain.db') });
  cleanups.push(() => disk.release());
  await page.goto(host.launchUrl);
  disk.stall();
  // More than 1,000 pages of log in one import: the sync after it starts a checkpoint, which copies the log into the
  // database and then waits for its sync on the checkpoint worker.
  await hostCommand(page.request, host, 'importTranscript', { content: longTranscript({ title: 'Filling the log', exchanges: 1_200, messageTokens: 500 }) });
  await expectAnsweringDespite(browser, page, host, /^The disk has not confirmed Anybrain's writes for 2 s/);
  disk.release();
  await expect(page.getByTestId('not-answering')).toHaveCount(0);
});

test('with an MCP server that never lists its tools', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const host = await startHost();
  await page.goto(host.launchUrl);
  const fakeServer = resolve(import.meta.dirname, '..', 'src-main', 'core', 'tools', 'mcp', 'testing', 'fake-server.mjs');
  const [server] = await hostCommand(page.request, host, 'saveMcpServer', { label: 'Stuck', command: process.execPath, args: [fakeServer, '--silent-list'], env: {} });
  await hostCommand(page.request, host, 'setMcpServerEnabled', { id: server!.id, enabled: true });
  await expectAnsweringDespite(browser, page, host, 'The MCP server “Stuck” has not listed its tools in 10 s; replies go on without its tools until it answers.');
});

test('with an Ollama that takes the connection and says nothing', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const sockets = new Set<Socket>();
  const silent: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolvePromise) => silent.listen(0, '127.0.0.1', resolvePromise));
  cleanups.push(
    () =>
      new Promise<void>((resolvePromise) => {
        for (const socket of sockets) socket.destroy();
        silent.close(() => resolvePromise());
      }),
  );
  const address = silent.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const ollamaUrl = `http://127.0.0.1:${address.port}`;
  const host = await startHost({ env: { [BRAINS.ollama.baseUrlVariable]: ollamaUrl } });
  await page.goto(host.launchUrl);
  await newConversation(page, () => page.getByTestId('new-conversation').or(page.getByTestId('empty-state-new-conversation')).first().click());
  await pickBrain(page, 'ollama');
  await sendMessage(page, 'Are you there?');
  await expectReplyStatus(page, lastReply(page), 'streaming', host);
  // The wait for Ollama goes on in its own conversation while another reply streams, ends and is stopped.
  await expectAnsweringDespite(browser, page, host, `Ollama (127.0.0.1:${address.port}) has taken the request but not answered in 10 s; it may still be loading the model. Stop ends the wait.`);
  // Titled by its first message once admitted: on a busy machine the sidebar may learn of it late.
  await (await expectConversationListed(page, 'Are you there?', host)).click();
  await page.getByTestId('stop-button').click();
  await expectReplyStatus(page, lastReply(page), 'stopped', host);
  await expect(page.getByTestId('not-answering')).toHaveCount(0);
});
