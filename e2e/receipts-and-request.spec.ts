import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { BRAINS } from '../src-shared/brains';
import { command, newConversation, openApp, openBrainPicker, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

function transcriptFile(name: string, document: unknown) {
  return { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document, null, 2)) };
}

function tripTranscript(title: string) {
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'original-conversation', title, created_at: '2026-01-05T09:00:00.000Z' },
    messages: [
      { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'What is in my trip notes?', created_at: '2026-01-05T09:00:00.000Z' },
      {
        id: 'a1',
        turn_id: 't1',
        role: 'assistant',
        kind: 'chat',
        text: 'Your notes plan two days in Kyoto.',
        status: 'complete',
        brain: 'kimi',
        model_requested: 'kimi-k2.6',
        model_responded: 'kimi-k2.6',
        created_at: '2026-01-05T09:00:02.000Z',
        tool_invocations: [
          { id: 'm1', kind: 'memory', server: null, tool: 'recall', input: { query: 'trip' }, output: 'Likes temples', status: 'ok' },
          {
            id: 'c1',
            kind: 'tool',
            server: 'files',
            tool: 'read_file',
            provider_call_id: 'call_1',
            input: { path: 'notes/kyoto.md' },
            output: '<script>window.__pwned = 1</script>Day one: Fushimi Inari',
            status: 'ok',
          },
          { id: 'c2', kind: 'tool', server: 'shell', tool: 'run', input: { command: 'rm -rf /' }, output: null, status: 'denied' },
        ],
      },
    ],
  };
}

async function activeBrain(page: Page): Promise<string | null> {
  return page.locator('[data-testid^="brain-switch-"][aria-pressed="true"]').getAttribute('data-testid');
}

test('the brain switches with one click and with the keyboard, and the next reply comes from it', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  const composer = page.getByTestId('composer-input');

  await pickBrain(page, 'kimi');
  await expect(page.getByTestId('brain-switch-kimi')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('brain-picker')).toHaveAttribute('data-brain', 'kimi');
  await expect(composer).toHaveAttribute('placeholder', 'Message Kimi…');
  await expect(page.getByTestId('brain-switch-kimi')).toHaveAttribute('title', /Ctrl\+3|⌘3/);
  expect((await command(request, 'getConversation', { id: conversationId })).brain).toBe('kimi');

  await composer.press('ControlOrMeta+5');
  await expect(page.getByTestId('brain-switch-glm')).toHaveAttribute('aria-pressed', 'true');
  await expect(composer).toHaveAttribute('placeholder', 'Message GLM…');
  expect(await activeBrain(page)).toBe('brain-switch-glm');

  await composer.press('ControlOrMeta+Shift+B');
  await expect(page.getByTestId('brain-switch-gemini')).toHaveAttribute('aria-pressed', 'true');
  await composer.press('ControlOrMeta+Shift+B');
  await expect(page.getByTestId('brain-switch-ollama')).toHaveAttribute('aria-pressed', 'true');
  await composer.press('ControlOrMeta+Shift+B');
  await expect(page.getByTestId('brain-switch-claude')).toHaveAttribute('aria-pressed', 'true');
  expect((await command(request, 'getConversation', { id: conversationId })).brain).toBe('claude');

  await openBrainPicker(page);
  await page.getByTestId('reasoning-picker').selectOption('high');
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await command(request, 'getConversation', { id: conversationId })).reasoningLevel).toBe('high');
  await expect(page.getByTestId('brain-switch-claude')).toHaveAttribute('aria-pressed', 'true');

  await sendMessage(page, 'Which brain are you?');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply).toHaveAttribute('data-brain', 'claude');
  await expect(reply.getByTestId('message-text')).toHaveText('Fake Claude reply to: Which brain are you?');
  // A reply that used nothing carries no receipt at all.
  await expect(reply.getByTestId('turn-receipt')).toHaveCount(0);
});

test('show request displays the exact body for the picked brain, follows a switch and copies the exact bytes', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'claude');
  await expect(page.getByTestId('brain-switch-claude')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('composer-input').fill('A drafted question');

  await page.getByTestId('show-request').click();
  const dialog = page.getByTestId('request-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('request-brain')).toHaveText('Claude');
  await expect(dialog.getByTestId('request-model')).toHaveText(BRAINS.claude.defaultModel);
  await expect(dialog.getByTestId('request-wire')).toHaveText('anthropic-messages');
  await expect(dialog).toContainText('anybrain request');
  const claudeBody = JSON.parse(await dialog.getByTestId('request-body').innerText()) as { model: string; messages: unknown[] };
  expect(claudeBody.model).toBe(BRAINS.claude.defaultModel);
  expect(JSON.stringify(claudeBody.messages)).toContain('A drafted question');

  // The shortcut works while the dialog is open, and the dialog follows the new brain.
  await page.keyboard.press('ControlOrMeta+3');
  await expect(dialog.getByTestId('request-model')).toHaveText(BRAINS.kimi.defaultModel);
  await expect
    .poll(async () => (JSON.parse(await dialog.getByTestId('request-body').innerText()) as { model: string }).model)
    .toBe(BRAINS.kimi.defaultModel);

  const expected = await command(request, 'previewRequest', { conversationId, message: 'A drafted question' });
  await dialog.getByTestId('copy-request').click();
  await expect(dialog.getByTestId('copy-request')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected.body);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('brain-switch-kimi')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('composer-input')).toHaveValue('A drafted question');
});

test('a transcript file imports through the sidebar, opens with its messages and shows its receipts', async ({ page }) => {
  await openApp(page);
  const title = `Imported Kyoto trip ${Date.now()}`;
  await page.getByTestId('import-transcript-input').setInputFiles(transcriptFile('kyoto.json', tripTranscript(title)));

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByTestId('message-text')).toHaveText(['What is in my trip notes?', 'Your notes plan two days in Kyoto.']);
  // Listed by its own (older) time, so found in the sidebar by its title.
  await page.getByTestId('conversation-search').fill(title);
  await expect(page.locator('[data-testid="conversation-item"]').filter({ hasText: title })).toHaveCount(1);
  await page.getByTestId('conversation-search').fill('');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(reply).toHaveAttribute('data-brain', 'kimi');

  const receipt = reply.getByTestId('turn-receipt');
  await expect(receipt.getByTestId('receipt-summary')).toHaveText('1 memory · 2 tools');
  const chips = receipt.getByTestId('receipt-chip');
  await expect(chips).toHaveText(['recall', 'files · read_file', 'shell · run']);
  await expect(chips.nth(2)).toHaveAttribute('data-status', 'denied');
  await expect(chips.nth(0)).toHaveAttribute('data-kind', 'memory');

  await chips.nth(1).click();
  const detail = receipt.getByTestId('invocation-detail');
  await expect(detail.getByTestId('invocation-input')).toHaveText(JSON.stringify({ path: 'notes/kyoto.md' }, null, 2));
  await expect(detail.getByTestId('invocation-output')).toHaveText('<script>window.__pwned = 1</script>Day one: Fushimi Inari');
  await expect(detail.locator('script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // The receipt lives in the window only: the stored reply holds its words alone.
  await expect(reply.getByTestId('message-text')).toHaveText('Your notes plan two days in Kyoto.');
});

test("ChatGPT's export zip imports through the sidebar: a summary, every branch with the one last seen shown, the code run as a receipt chip", async ({ page }) => {
  await openApp(page);
  const conversations = readFileSync(join(import.meta.dirname, 'fixtures/chatgpt-export/conversations.json'));
  const zip = zipSync({ 'chat.html': strToU8('<html></html>'), 'conversations.json': conversations });
  await page.getByTestId('import-transcript-input').setInputFiles({ name: 'chatgpt-export.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });

  await expect(page.getByTestId('import-summary')).toHaveText(
    '2 conversations, 8 messages imported; 1 skipped: "Lost thread" (its current_node "gone" is not in its mapping).',
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Counting primes');
  await expect(page.getByTestId('message-text')).toHaveText([
    'How many primes are below 1000? Please compute it.',
    /There are 168 primes below 1000\./,
    /\[image: primes-chart\.png, not included in the export\]\s*What does this chart show\?/,
    'It plots how many primes lie below each bound: the curve flattens as the bound grows.',
  ]);
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').first();
  await expect(reply).toHaveAttribute('data-brain', 'codex');
  await expect(reply.getByTestId('receipt-chip')).toHaveText(['chatgpt · python']);
});

test('a malformed transcript is refused whole, naming its first bad path', async ({ page, request }) => {
  await openApp(page);
  const before = (await command(request, 'listConversations', {})).length;
  const broken = tripTranscript(`Broken import ${Date.now()}`);
  (broken.messages[1] as { role: string }).role = 'robot';

  const chooserOpened = page.waitForEvent('filechooser');
  await page.getByTestId('import-transcript').click();
  const chooser = await chooserOpened;
  await chooser.setFiles(transcriptFile('broken.json', broken));

  const error = page.getByTestId('import-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('broken.json');
  await expect(error).toContainText('messages[1].role');
  expect((await command(request, 'listConversations', {})).length).toBe(before);
  await expect(page.getByTestId('empty-state-new-conversation')).toBeVisible();
});

test('a reply that called a tool carries its receipt, live and after a reload, and none of it is stored', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await expect(page.getByTestId('brain-switch-kimi')).toHaveAttribute('aria-pressed', 'true');
  await sendMessage(page, '[tool:current_time {"zone":"Asia/Seoul"}] what time is it?');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');

  const checkReceipt = async () => {
    await expect(reply.getByTestId('receipt-summary')).toHaveText('1 tool');
    await expect(reply.getByTestId('receipt-chip')).toHaveText(['current_time']);
    await expect(reply.getByTestId('receipt-chip')).toHaveAttribute('data-status', 'ok');
  };
  await checkReceipt();
  await reply.getByTestId('receipt-chip').click();
  await expect(reply.getByTestId('invocation-input')).toHaveText(JSON.stringify({ zone: 'Asia/Seoul' }, null, 2));
  await expect(reply.getByTestId('invocation-duration')).toHaveText(/\d/);

  await page.reload();
  await checkReceipt();
  const stored = await command(request, 'listMessages', { conversationId });
  const storedText = stored.messages.at(-1)?.text ?? '';
  expect(storedText.trim()).toBe((await reply.getByTestId('message-text').innerText()).trim());
  expect(storedText).not.toContain('1 tool');
});
