/**
 * A turn that uses two memories, a built-in tool, a tool from a real MCP server (server-everything over stdio) and
 * a skill: its receipt reads "2 memories · 2 tools · 1 skill", is rebuilt from rows after a reload, and none of it is
 * in the stored reply. The next turn, on another brain, gets both calls in its own shape with their answers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { hasChrome } from '../src-main/core/transcripts/chrome';
import { command, fakeBrainRequests, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const require = createRequire(import.meta.url);
const everythingBin = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

test('a turn with memories, a built-in tool, an MCP tool and a skill shows its receipt, rebuilt from rows after a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const environment = readE2eEnvironment();
  mkdirSync(join(environment.dataDir, 'skills'), { recursive: true });
  writeFileSync(
    join(environment.dataDir, 'skills', 'whale-facts.md'),
    '---\nname: whale-facts\ndescription: Answer with whale facts.\n---\nAnswer with two short facts about whales.\n',
  );
  await command(request, 'addMemory', { text: 'Blue whales are the largest animals that ever lived.' });
  await command(request, 'addMemory', { text: 'Humpback whales sing long songs.' });
  await command(request, 'saveMcpServer', { label: 'Everything', command: process.execPath, args: [everythingBin, 'stdio'], env: {} });
  // A saved server waits, disabled, for the user's own Enable.
  await command(request, 'setMcpServerEnabled', { id: 'everything', enabled: true });
  await command(request, 'setToolPolicy', { server: 'everything', tool: 'echo', policy: 'allow' });

  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '/whale-facts [tool:current_time][tool:everything__echo {"message":"whale song"}] tell me about whales');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply.getByTestId('message-text')).toContainText('(tools answered:');

  const checkReceipt = async () => {
    const receipt = reply.getByTestId('turn-receipt');
    await expect(receipt.getByTestId('receipt-summary')).toHaveText('2 memories · 2 tools · 1 skill');
    await expect(receipt.getByTestId('receipt-chip')).toHaveCount(5);
    // A memory's chip shows its first words; the two come in the order recall ranked them.
    const labels = await receipt.getByTestId('receipt-chip').allTextContents();
    expect([labels[0], ...labels.slice(1, 3).sort(), ...labels.slice(3)]).toEqual([
      'whale-facts',
      'Blue whales are the largest animals that…',
      'Humpback whales sing long songs.',
      'current_time',
      'everything · echo',
    ]);
  };
  await checkReceipt();
  await reply.getByTestId('receipt-chip').filter({ hasText: 'everything · echo' }).click();
  await expect(reply.getByTestId('invocation-detail')).toContainText('Echo: whale song');
  await expect(reply.getByTestId('invocation-detail')).toContainText('ok');

  await page.reload();
  await checkReceipt();
  await reply.getByTestId('receipt-chip').filter({ hasText: 'current_time' }).click();
  await page.screenshot({ path: 'test-results/screenshots/turn-receipt.png' });

  const stored = await command(request, 'listMessages', { conversationId });
  const storedReply = stored.messages.at(-1)!;
  expect(hasChrome(storedReply.text)).toBe(false);
  expect(storedReply.text).not.toMatch(/2 memories|2 tools|1 skill|everything · echo|<details/);
  expect(stored.messages.at(-2)?.text).toBe('/whale-facts [tool:current_time][tool:everything__echo {"message":"whale song"}] tell me about whales');

  // The next turn, on claude, carries both calls as tool_use blocks with their tool_result answers.
  await pickBrain(page, 'claude');
  await sendMessage(page, 'Thanks, and one more?');
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');
  await expect(replies).toHaveCount(2);
  await expectReplyStatus(page, replies.nth(1), 'complete');
  const claude = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'claude').at(-1)!;
  const blocks = (claude.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages.flatMap((message) => message.content);
  const uses = blocks.filter((block) => block.type === 'tool_use');
  expect(uses.map((block) => [block.name, block.input])).toEqual([
    ['current_time', {}],
    ['everything__echo', { message: 'whale song' }],
  ]);
  const results = blocks.filter((block) => block.type === 'tool_result');
  expect(results.map((block) => block.tool_use_id)).toEqual(uses.map((block) => block.id));
  expect(results[1]?.content).toBe('Echo: whale song');
});
