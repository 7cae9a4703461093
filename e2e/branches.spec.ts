import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { readE2eEnvironment } from './support/environment';
import { command, fakeBrainRequests, newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

interface ChatCompletionsMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly { readonly id: string; readonly function: { readonly name: string } }[];
  readonly tool_call_id?: string;
}

/** The messages of the newest request Kimi received. */
async function lastKimiMessages(request: APIRequestContext): Promise<ChatCompletionsMessage[]> {
  const kimi = (await fakeBrainRequests(request)).filter((recorded) => recorded.brain === 'kimi');
  return (kimi.at(-1)?.body as { messages: ChatCompletionsMessage[] }).messages;
}

function assistantTexts(messages: readonly ChatCompletionsMessage[]): unknown[] {
  return messages.filter((message) => message.role === 'assistant' && typeof message.content === 'string' && message.content !== '').map((message) => message.content);
}

function callIds(messages: readonly ChatCompletionsMessage[]): string[] {
  return messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
}

function rows(page: Page, role: 'user' | 'assistant'): Locator {
  return page.locator(`[data-testid="message"][data-role="${role}"]`);
}

/** The words of the user messages shown, without their actions. */
function userTexts(page: Page): Locator {
  return rows(page, 'user').getByTestId('message-text');
}

const QUESTION = '[tool:current_time {"zone":"Asia/Seoul"}] what time is it?';

test('answer with another brain: two sibling replies, the next message follows the branch shown, and the branch survives a reload', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, QUESTION);
  const replies = rows(page, 'assistant');
  await expect(replies).toHaveCount(1);
  await expectReplyStatus(page, replies.first(), 'complete');
  await expect(replies.first().getByTestId('message-text')).toContainText('Fake Kimi reply to:');
  // The call Kimi made, as its second round sent it back.
  const kimiCallIds = callIds(await lastKimiMessages(request));
  expect(kimiCallIds).toHaveLength(1);

  // The actions show on hover; Answer with… opens a menu of the brains.
  await replies.first().hover();
  await replies.first().getByRole('button', { name: 'Answer with…' }).click();
  await page.getByRole('menuitem', { name: 'Gemini' }).click();

  // Gemini's reply takes the place of Kimi's, labelled with its brain and served model.
  await expect(replies).toHaveCount(1);
  await expect(replies.first()).toHaveAttribute('data-brain', 'gemini');
  await expectReplyStatus(page, replies.first(), 'complete');
  await expect(replies.first().getByTestId('message-text')).toContainText('Fake Gemini reply to:');
  await expect(replies.first().getByTestId('message-brain-label')).toHaveText(/^Gemini · \S+/);
  await expect(replies.first().getByTestId('sibling-position')).toHaveText('2 / 2');

  // The next message goes on from the branch shown: Kimi is replayed Gemini's reply and call, and none of its own.
  await sendMessage(page, 'And in Lisbon?');
  await expect(replies).toHaveCount(2);
  await expectReplyStatus(page, replies.nth(1), 'complete');
  await expect(replies.nth(1).getByTestId('message-text')).toHaveText('Fake Kimi reply to: And in Lisbon?');
  const onGeminiBranch = await lastKimiMessages(request);
  const geminiTexts = assistantTexts(onGeminiBranch);
  expect(geminiTexts).toHaveLength(1);
  expect(geminiTexts[0]).toMatch(/^Fake Gemini reply to:/);
  const geminiCallIds = callIds(onGeminiBranch);
  expect(geminiCallIds).toHaveLength(1);
  expect(geminiCallIds).not.toContain(kimiCallIds[0]);
  expect(onGeminiBranch.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(geminiCallIds);
  expect(JSON.stringify(onGeminiBranch)).not.toContain('Fake Kimi reply to: [tool');

  // Back to Kimi's answer: the conversation below the fork goes with it.
  await replies.first().getByRole('button', { name: 'Previous alternative' }).click();
  await expect(replies).toHaveCount(1);
  await expect(replies.first()).toHaveAttribute('data-brain', 'kimi');
  await expect(replies.first().getByTestId('message-brain-label')).toHaveText('Kimi · kimi-k2.6');
  await expect(replies.first().getByTestId('sibling-position')).toHaveText('1 / 2');
  await expect(userTexts(page)).toHaveText([QUESTION]);

  await page.reload();
  await expect(replies).toHaveCount(1);
  await expect(replies.first()).toHaveAttribute('data-brain', 'kimi');
  await expect(replies.first().getByTestId('sibling-position')).toHaveText('1 / 2');
  await expect(userTexts(page)).toHaveText([QUESTION]);

  // On this branch the next request carries Kimi's reply and call, and nothing of Gemini's.
  await sendMessage(page, 'And in Oslo?');
  await expectReplyStatus(page, replies.nth(1), 'complete');
  const onKimiBranch = await lastKimiMessages(request);
  expect(callIds(onKimiBranch)).toEqual(kimiCallIds);
  const kimiTexts = assistantTexts(onKimiBranch);
  expect(kimiTexts).toHaveLength(1);
  expect(kimiTexts[0]).toMatch(/^Fake Kimi reply to:/);
  expect(JSON.stringify(onKimiBranch)).not.toContain('Fake Gemini');

  // Forward again: the Gemini branch comes back whole, with its own follow-up.
  await replies.first().getByRole('button', { name: 'Next alternative' }).click();
  await expect(userTexts(page)).toHaveText([QUESTION, 'And in Lisbon?']);
  await expect(replies.first()).toHaveAttribute('data-brain', 'gemini');
  const stored = await command(request, 'listMessages', { conversationId });
  expect(stored.messages.map((message) => [message.role, message.brain])).toEqual([
    ['user', null],
    ['assistant', 'gemini'],
    ['user', null],
    ['assistant', 'kimi'],
  ]);
});

test('editing a message in the middle starts a new branch there; the old one is a pager step away', async ({ page, request }) => {
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  for (const text of ['one', 'two', 'three']) {
    await sendMessage(page, text);
    await expect(rows(page, 'assistant').last()).toHaveText(new RegExp(`Fake Kimi reply to: ${text}`));
  }
  await expectReplyStatus(page, rows(page, 'assistant').last(), 'complete');

  const second = rows(page, 'user').nth(1);
  await second.hover();
  await second.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Edit message' });
  await expect(editor).toHaveValue('two');
  await editor.fill('two, edited');
  await editor.press('Enter');

  await expect(userTexts(page)).toHaveText(['one', 'two, edited']);
  await expectReplyStatus(page, rows(page, 'assistant').last(), 'complete');
  await expect(rows(page, 'assistant').last().getByTestId('message-text')).toHaveText('Fake Kimi reply to: two, edited');
  const edited = rows(page, 'user').nth(1);
  await expect(edited.getByTestId('sibling-position')).toHaveText('2 / 2');

  await edited.getByRole('button', { name: 'Previous alternative' }).click();
  await expect(userTexts(page)).toHaveText(['one', 'two', 'three']);
  await expect(rows(page, 'user').nth(1).getByTestId('sibling-position')).toHaveText('1 / 2');
  const stored = await command(request, 'listMessages', { conversationId });
  expect(stored.messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual(['one', 'two', 'three']);

  // Up in the empty composer edits the last message sent; Esc leaves it as it was.
  const composer = page.getByTestId('composer-input');
  await composer.focus();
  await composer.press('ArrowUp');
  await expect(page.getByRole('textbox', { name: 'Edit message' })).toHaveValue('three');
  await page.getByRole('textbox', { name: 'Edit message' }).press('Escape');
  await expect(page.getByTestId('message-editor')).toHaveCount(0);
  await expect(composer).toBeFocused();
  await expect(userTexts(page)).toHaveText(['one', 'two', 'three']);
});

test('Copy puts exactly the stored Markdown of a reply on the clipboard', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: readE2eEnvironment().origin });
  await openApp(page);
  const conversationId = await newConversation(page);
  await pickBrain(page, 'kimi');
  await sendMessage(page, '[markdown] show me');
  const reply = rows(page, 'assistant').last();
  await expectReplyStatus(page, reply, 'complete');

  // Focus alone shows the actions: Tab from the list reaches them.
  await reply.getByRole('button', { name: 'Copy message' }).focus();
  await expect(reply.getByTestId('message-toolbar').locator('.message-toolbar-actions')).toHaveCSS('opacity', '1');
  await page.keyboard.press('Enter');
  await expect(reply.getByTestId('copy-status')).toHaveText('Copied');

  const stored = await command(request, 'listMessages', { conversationId });
  const storedText = stored.messages.at(-1)?.text ?? '';
  expect(storedText).toContain('| Brain | Wire |');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(storedText);
});
