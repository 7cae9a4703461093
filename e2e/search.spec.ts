/**
 * Search over every conversation's words, as a person uses it: a word that appears only in a reply finds its
 * conversation in the sidebar, with the word highlighted, and a click opens the conversation at that message, also
 * when it lies far back in a long conversation. `anybrain search` finds it in the same data folder.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { longTranscript } from './support/long-conversation';
import { command, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const cli = join(resolve(import.meta.dirname, '..'), 'bin', 'anybrain.js');

async function search(page: Page, query: string): Promise<void> {
  const box = page.getByTestId('conversation-search');
  await box.fill(query);
  await expect(box).toHaveValue(query);
}

test('a word only in a reply finds its conversation in the sidebar, and a click opens it at that message', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  // The reply's words come base64-encoded in the question, so the word is in the reply alone.
  // A word of this run alone: a data folder that already holds an earlier run's reply (a repeated run) must not
  // put that reply first in the list the keyboard walks.
  const word = `Pterodactyl${Date.now().toString(36).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
  const replyText = `${word} wingspans reached about one metre.`;
  await sendMessage(page, `Tell me about flying reptiles [reply-base64:${Buffer.from(replyText).toString('base64')}]`);
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  const replyId = await reply.getAttribute('data-message-id');

  // A long conversation whose 4th answer of 150 alone holds another word.
  const exchanges = 150;
  const transcript = JSON.parse(longTranscript({ title: 'Long conversation for search', exchanges, messageTokens: 40 })) as {
    messages: Array<{ id: string; text: string }>;
  };
  const farBack = transcript.messages.find((message) => message.id === 'a3')!;
  farBack.text = `${farBack.text} Quetzalcoatlus was larger still.`;
  const imported = await command(request, 'importTranscript', { content: JSON.stringify(transcript) });

  // Opened before the search is typed: a conversation opening late clears the search box.
  await newConversation(page);
  await search(page, word.toLowerCase());
  const hit = page.locator(`[data-testid="search-hit"][data-conversation-id="${conversationId}"]`);
  await expect(hit).toHaveCount(1);
  await expect(hit).toHaveAttribute('data-message-id', replyId ?? '');
  await expect(hit.locator('mark')).toHaveText(word);
  await expect(hit.locator('.search-hit-speaker')).toHaveText('Kimi:');
  await expect(page.getByTestId('conversation-list-empty')).toHaveText('No conversation has that title.');
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await expect(page.locator(`.message-slot.is-focused[data-message-id="${replyId}"]`)).toBeInViewport();

  await search(page, 'quetzalcoat');
  const farHit = page.locator(`[data-testid="search-hit"][data-conversation-id="${imported.id}"]`);
  await expect(farHit).toHaveCount(1);
  await expect(farHit.locator('mark')).toHaveText('Quetzalcoatlus');
  const farMessageId = await farHit.getAttribute('data-message-id');
  await farHit.click();
  await expect(page).toHaveURL(new RegExp(`#/c/${imported.id}$`));
  const target = page.locator(`.message-slot[data-message-id="${farMessageId}"]`);
  await expect(target).toBeInViewport();
  await expect(target).toHaveClass(/is-focused/);
  await expect(target.getByTestId('message-text')).toContainText('Quetzalcoatlus was larger still.');
  // The highlight is brief.
  await expect(target).not.toHaveClass(/is-focused/, { timeout: 5000 });
  await page.screenshot({ path: 'test-results/screenshots/search-opened-at-hit.png' });

  // Keyboard: from the field down to the hit, Enter opens it.
  // Opened before the search is typed: a conversation opening late clears the search box.
  await newConversation(page);
  await search(page, word.toLowerCase());
  await expect(hit).toHaveCount(1);
  await page.getByTestId('conversation-search').press('ArrowDown');
  await expect(hit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));

  // The command line finds the same reply in the same data folder.
  const environment = readE2eEnvironment();
  const result = spawnSync(process.execPath, [cli, 'search', word.toLowerCase(), '--json'], {
    env: { ...process.env, ANYBRAIN_DATA_DIR: environment.dataDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const hits = JSON.parse(result.stdout) as Array<{ conversation_id: string; message_id: string; role: string; snippet: string }>;
  expect(hits.filter((found) => found.conversation_id === conversationId)).toEqual([
    expect.objectContaining({ message_id: replyId, role: 'assistant', snippet: replyText }),
  ]);
});
