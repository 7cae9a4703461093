/**
 * The memories page, Settings → Tools and the approval prompt, driven through the window as a person would: a memory
 * is added, found, edited and deleted; a real MCP server (server-everything over stdio) is added through the form,
 * waits disabled until Enable, is renamed through its edit form (a new label alone keeps it enabled), its tool asks
 * before it runs, and Allow and Deny show in the reply's receipt; a tool policy set in Settings stays set.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

const require = createRequire(import.meta.url);
const everythingBin = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const SERVER_ID = 'everything';

async function openToolsSettings(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-tools').click();
  const settings = page.getByTestId('tools-settings');
  await expect(settings).toBeVisible();
  return settings;
}

async function removeServerIfPresent(request: APIRequestContext): Promise<void> {
  const servers = await command(request, 'listMcpServers', {});
  if (servers.some((server) => server.id === SERVER_ID)) await command(request, 'removeMcpServer', { id: SERVER_ID });
}

test('a memory added on the memories page is found by search, edited and deleted', async ({ page, request }) => {
  // A word no other test writes, so the search finds this memory alone.
  const marker = `narwhalmarker${Date.now()}`;
  const text = `Narwhal tusks are teeth (${marker}).`;
  try {
    await openApp(page);
    await page.getByTestId('open-memories').click();
    const view = page.getByTestId('memories-view');
    await expect(view).toBeVisible();

    await view.getByTestId('memory-new-input').fill(text);
    await view.getByTestId('memory-add').click();
    await expect(view.getByTestId('memory-item').first().getByTestId('memory-text')).toHaveText(text);
    await expect(view.getByTestId('memory-new-input')).toHaveValue('');

    await view.getByTestId('memory-search').fill(marker);
    const found = view.getByTestId('memory-item');
    await expect(found).toHaveCount(1);
    await expect(found.getByTestId('memory-text')).toHaveText(text);
    const memoryId = await found.getAttribute('data-memory-id');
    expect((await command(request, 'listMemories', { query: marker })).map((memory) => memory.id)).toEqual([memoryId]);

    await found.getByTestId('memory-edit').click();
    await found.getByTestId('memory-edit-input').fill(`Narwhal tusks are long teeth (${marker}).`);
    await found.getByTestId('memory-edit-input').press('Enter');
    await expect(found.getByTestId('memory-text')).toHaveText(`Narwhal tusks are long teeth (${marker}).`);

    // Deleting asks in place, never through a browser dialog; Escape answers the question and leaves the view open.
    page.on('dialog', (dialog) => {
      throw new Error(`Deleting a memory opened a ${dialog.type()} dialog: ${dialog.message()}`);
    });
    await found.getByTestId('memory-delete').click();
    await expect(found.getByTestId('inline-confirm')).toHaveText('Delete this memory? This cannot be undone.DeleteCancel');
    await page.keyboard.press('Escape');
    await expect(found.getByTestId('inline-confirm')).toHaveCount(0);
    await expect(view).toBeVisible();
    await found.getByTestId('memory-delete').click();
    await found.getByTestId('inline-confirm-yes').click();
    await expect(view.getByTestId('memory-item')).toHaveCount(0);
    expect(await command(request, 'listMemories', { query: marker })).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(view).toBeHidden();
  } finally {
    for (const memory of await command(request, 'listMemories', { query: marker })) {
      await command(request, 'deleteMemory', { id: memory.id });
    }
  }
});

test('an MCP server added and edited in Settings asks before its tool runs; Allow and Deny show in the receipt', async ({ page, request }) => {
  test.setTimeout(120_000);
  // Start from the defaults: another test may have added this server and allowed its echo tool.
  await removeServerIfPresent(request);
  await command(request, 'setToolPolicy', { server: SERVER_ID, tool: 'echo', policy: 'ask' });
  try {
    await openApp(page);
    const settings = await openToolsSettings(page);
    await settings.getByTestId('mcp-open-add').click();
    await settings.getByTestId('mcp-label').fill('Everything');
    await settings.getByTestId('mcp-command').fill(process.execPath);
    await settings.getByTestId('mcp-args').fill(`${everythingBin}\nstdio`);
    await settings.getByTestId('mcp-add').click();
    await expect(settings.getByTestId('mcp-error')).toHaveCount(0);

    const server = settings.locator(`[data-testid="mcp-server"][data-server-id="${SERVER_ID}"]`);
    await expect(server).toBeVisible();
    await expect(server).toContainText(process.execPath);
    await expect(server).toContainText(everythingBin);
    // Saved, but its command does not run until the user enables it.
    await expect(server.getByTestId('mcp-server-status')).toHaveAttribute('data-status', 'disabled');
    await expect(server.getByTestId('mcp-server-enabled')).not.toBeChecked();
    await server.getByTestId('mcp-server-enable').click();
    await expect(server.getByTestId('mcp-server-status')).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
    await expect(server.getByTestId('mcp-server-enabled')).toBeChecked();

    await server.getByTestId('mcp-server-edit').click();
    await expect(server.getByTestId('mcp-edit-label')).toHaveValue('Everything');
    await expect(server.getByTestId('mcp-edit-command')).toHaveValue(process.execPath);
    await expect(server.getByTestId('mcp-edit-args')).toHaveValue(`${everythingBin}\nstdio`);
    await server.getByTestId('mcp-edit-label').fill('Everything (edited)');
    await server.getByTestId('mcp-edit-save').click();
    await expect(server.getByTestId('mcp-edit-label')).toHaveCount(0);
    await expect(server.getByTestId('mcp-edit-error')).toHaveCount(0);
    await expect(server.getByTestId('mcp-server-label')).toHaveText('Everything (edited)');
    await expect(server).toContainText(everythingBin);
    await expect(server.getByTestId('mcp-server-enabled')).toBeChecked();
    const saved = (await command(request, 'listMcpServers', {})).find((entry) => entry.id === SERVER_ID);
    expect(saved).toMatchObject({ label: 'Everything (edited)', command: process.execPath, args: [everythingBin, 'stdio'], enabled: true });
    await expect(server.getByTestId('mcp-server-status')).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
    const echoRow = settings.locator('[data-testid="tool-row"][data-tool-name="everything__echo"]');
    await expect(echoRow).toContainText('everything · echo');
    await expect(echoRow.getByTestId('tool-policy')).toHaveValue('ask');
    await page.getByTestId('close-settings').click();

    await newConversation(page);
    await pickBrain(page, 'kimi');
    const replies = page.locator('[data-testid="message"][data-role="assistant"]');

    await sendMessage(page, '[tool:everything__echo {"message":"approve me"}] please');
    const allowedReply = replies.last();
    const firstPrompt = allowedReply.getByTestId('approval-prompt');
    await expect(firstPrompt).toBeVisible();
    await expectReplyStatus(page, allowedReply, 'streaming');
    await expect(firstPrompt.getByTestId('approval-tool')).toHaveText('everything · echo');
    await expect(firstPrompt.getByTestId('approval-input')).toContainText('"message": "approve me"');
    await firstPrompt.getByTestId('approval-allow').click();
    await expect(firstPrompt).toHaveCount(0);
    await expectReplyStatus(page, allowedReply, 'complete');
    const allowedChip = allowedReply.getByTestId('receipt-chip').filter({ hasText: 'everything · echo' });
    await expect(allowedChip).toHaveAttribute('data-status', 'ok');
    await expect(allowedReply.getByTestId('message-text')).toContainText('Echo: approve me');

    await sendMessage(page, '[tool:everything__echo {"message":"deny me"}] please');
    const deniedReply = replies.nth(1);
    const secondPrompt = deniedReply.getByTestId('approval-prompt');
    await expect(secondPrompt).toBeVisible();
    await secondPrompt.getByTestId('approval-deny').click();
    await expect(secondPrompt).toHaveCount(0);
    await expectReplyStatus(page, deniedReply, 'complete');
    await expect(deniedReply.getByTestId('receipt-chip').filter({ hasText: 'everything · echo' })).toHaveAttribute('data-status', 'denied');
    expect(await command(request, 'listApprovals', {})).toEqual([]);

    const reopened = await openToolsSettings(page);
    page.on('dialog', (dialog) => {
      throw new Error(`Removing a server opened a ${dialog.type()} dialog: ${dialog.message()}`);
    });
    const row = reopened.locator(`[data-testid="mcp-server"][data-server-id="${SERVER_ID}"]`);
    await row.getByTestId('mcp-server-remove').click();
    await expect(row.getByTestId('inline-confirm')).toHaveText('Remove “Everything (edited)” and its tools?RemoveCancel');
    await row.getByTestId('inline-confirm-yes').click();
    await expect(reopened.locator(`[data-testid="mcp-server"][data-server-id="${SERVER_ID}"]`)).toHaveCount(0);
    await expect(reopened.locator('[data-testid="tool-row"][data-tool-name="everything__echo"]')).toHaveCount(0);
  } finally {
    await removeServerIfPresent(request);
  }
});

test('a tool policy chosen in Settings is still set when Settings opens again', async ({ page, request }) => {
  try {
    await openApp(page);
    let settings = await openToolsSettings(page);
    const readFile = () => settings.locator('[data-testid="tool-row"][data-tool-name="read_file"]').getByTestId('tool-policy');
    await expect(readFile()).toHaveValue('allow');
    await readFile().selectOption('deny');
    await expect(readFile()).toBeEnabled();
    await page.getByTestId('close-settings').click();
    await expect(page.getByTestId('settings-dialog')).toBeHidden();

    settings = await openToolsSettings(page);
    await expect(readFile()).toHaveValue('deny');
    const stored = await command(request, 'listTools', {});
    expect(stored.find((tool) => tool.name === 'read_file')?.policy).toBe('deny');
  } finally {
    await command(request, 'setToolPolicy', { server: null, tool: 'read_file', policy: 'allow' });
  }
});
