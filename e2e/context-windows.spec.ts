/**
 * Context windows against the fake brains: a long conversation on Claude's large window, switched to Kimi with a
 * 6,000-token window, is compacted before Kimi's turn; Kimi's request fits its window and carries the summary as a
 * labelled system line; every original row stays stored, folded under the summary.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { BRAINS } from '../src-shared/brains';
import { SUMMARY_REQUEST_MARKER } from '../src-main/core/context/summary-prompt';
import { chatCompletionsWire } from './fake-brains/chat-completions';
import { estimateTokens as fakeRequestTokens } from './fake-brains/fake-wire';
import { conversationTail, summaryOf } from './fake-brains/script';
import type { RecordedRequest } from './fake-brains/server';
import { command, fakeBrainRequests, openApp, OWN_CONNECTION, pickBrain, sendMessage } from './support/app';
import { longTranscript } from './support/long-conversation';
import { readE2eEnvironment } from './support/environment';
import { expectReplyStatus } from './support/waits';

const SMALL_WINDOW = 6_000;
const EXCHANGES = 30;
/** Each imported message holds about this many tokens of words. */
const MESSAGE_TOKENS = 200;
const SUMMARY_LINE_LABEL = "[System line, summary: neither the assistant's words nor the user's]";

type Row = Record<string, unknown>;

interface StoredConversation {
  readonly messages: Row[];
  readonly invocations: Row[];
}

/** Every column of the conversation's messages and tool calls, read straight from the web host's database file. */
function readStored(conversationId: string): StoredConversation {
  const database = new Database(join(readE2eEnvironment().dataDir, 'anybrain.db'), { readonly: true, fileMustExist: true });
  try {
    return {
      messages: database.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq').all(conversationId) as Row[],
      invocations: database
        .prepare('SELECT tool_invocations.* FROM tool_invocations JOIN messages ON messages.id = tool_invocations.message_id WHERE messages.conversation_id = ? ORDER BY tool_invocations.id')
        .all(conversationId) as Row[],
    };
  } finally {
    database.close();
  }
}

/** Imports the long conversation, on Claude, and gives Kimi's model a small window. */
async function longConversationOnClaude(request: APIRequestContext, title: string): Promise<string> {
  const conversation = await command(request, 'importTranscript', { content: longTranscript({ title, exchanges: EXCHANGES, messageTokens: MESSAGE_TOKENS }) });
  await command(request, 'setConversationBrain', { id: conversation.id, brain: 'claude' });
  await command(request, 'setModelWindow', { brain: 'kimi', model: BRAINS.kimi.defaultModel, contextWindow: SMALL_WINDOW, outputLimit: null });
  return conversation.id;
}

async function openConversation(page: Page, conversationId: string, title: string): Promise<void> {
  await openApp(page);
  await page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"] .conversation-open`).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

const chatMessages = (recorded: RecordedRequest): ChatMessage[] => (recorded.body as { messages: ChatMessage[] }).messages;

test.afterEach(async ({ request }) => {
  // The web host serves every spec of the run: Kimi's model goes back to the table's window.
  await command(request, 'setModelWindow', { brain: 'kimi', model: BRAINS.kimi.defaultModel, contextWindow: null, outputLimit: null });
});

test('a long conversation switched from Claude to a small-window Kimi compacts before the turn, and Kimi gets a request that fits', async ({ page, request }) => {
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  const title = `Long talk ${Date.now()}`;
  const conversationId = await longConversationOnClaude(request, title);
  const before = readStored(conversationId);
  expect(before.messages).toHaveLength(EXCHANGES * 2);
  expect(await command(request, 'getContextStatus', { conversationId })).toMatchObject({ brain: 'claude', level: 'ok', outsideWindow: 0 });
  expect(await command(request, 'getContextStatus', { conversationId, brain: 'kimi' })).toMatchObject({ contextWindow: SMALL_WINDOW, level: 'emergency' });

  await openConversation(page, conversationId, title);
  await pickBrain(page, 'kimi');
  await expect(page.getByTestId('brain-switch-kimi')).toHaveAttribute('aria-pressed', 'true');
  // `[window:N]`: Kimi's fake also holds the window, refusing as Moonshot does a request above it.
  const question = `[window:${SMALL_WINDOW}] And now, in one line?`;
  await sendMessage(page, question);
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  await expect(reply).toHaveAttribute('data-brain', 'kimi');
  await expect(reply.getByTestId('message-text')).toHaveText(`Fake Kimi reply to: ${question}`);

  const violations = (await (await request.get(`${readE2eEnvironment().fakeBrainsUrl}/_fake/violations`, { headers: OWN_CONNECTION })).json()) as unknown[];
  expect(violations).toEqual([]);
  const requests = await fakeBrainRequests(request);
  expect(requests.map((recorded) => recorded.brain)).toEqual(requests.map(() => 'kimi'));
  const turnRequest = requests.at(-1)!;
  const compactionRequests = requests.slice(0, -1);
  // Kimi summarises (no summarising brain is set), before its turn: one request or more, each within its window.
  expect(compactionRequests.length).toBeGreaterThan(0);
  for (const recorded of compactionRequests) {
    expect(chatMessages(recorded)[0]).toMatchObject({ role: 'system' });
    expect(chatMessages(recorded)[0]!.content.startsWith(SUMMARY_REQUEST_MARKER)).toBe(true);
    expect(fakeRequestTokens(recorded.body)).toBeLessThanOrEqual(SMALL_WINDOW);
  }
  const lastSummaryRequest = compactionRequests.at(-1)!;
  const summaryText = summaryOf(conversationTail(chatCompletionsWire.conversation(lastSummaryRequest.body as Record<string, unknown>)).userText);

  // The turn's request: within the window with room for the reply, the summary first as a labelled system line.
  const turnBody = turnRequest.body as { messages: ChatMessage[] };
  // Below the emergency line (80 %), so the reply keeps its room.
  expect(fakeRequestTokens(turnBody)).toBeLessThanOrEqual(SMALL_WINDOW * 0.8);
  expect(chatMessages(turnRequest)[0]?.role).toBe('system');
  expect(chatMessages(turnRequest)[1]).toEqual({ role: 'user', content: `${SUMMARY_LINE_LABEL}\n${summaryText}` });
  expect(chatMessages(turnRequest).at(-1)).toEqual({ role: 'user', content: question });

  // The messages the app lists start with the summary; the rows it covers are listed under it, oldest first.
  const listed = await command(request, 'listMessages', { conversationId, limit: 500 });
  const summary = listed.messages[0]!;
  expect(summary).toMatchObject({ role: 'system', kind: 'summary', brain: 'kimi', text: summaryText, compactedInto: null });
  const covered = await command(request, 'listCoveredMessages', { summaryId: summary.id, limit: 500 });
  expect(covered.hasOlder).toBe(false);
  expect(summary.coveredMessages).toBe(covered.messages.length);
  const beforeIds = before.messages.map((row) => row.id);
  expect(covered.messages.map((message) => message.id)).toEqual(beforeIds.slice(0, covered.messages.length));
  expect(listed.messages.slice(1).map((message) => message.id)).toEqual([
    ...beforeIds.slice(covered.messages.length),
    ...listed.messages.slice(-2).map((message) => message.id),
  ]);
  expect(listed.messages.slice(-2).map((message) => [message.role, message.text])).toEqual([
    ['user', question],
    ['assistant', `Fake Kimi reply to: ${question}`],
  ]);

  // Every original row is still in the database file, unchanged but for `compacted_into` and when it was set.
  const after = readStored(conversationId);
  const afterById = new Map(after.messages.map((row) => [row.id, row]));
  for (const row of before.messages) {
    const now = afterById.get(row.id as string);
    const isCovered = covered.messages.some((message) => message.id === row.id);
    expect(now).toEqual({ ...row, compacted_into: isCovered ? summary.id : null, updated_at: isCovered ? now?.updated_at : row.updated_at });
  }
  expect(after.invocations.filter((invocation) => before.invocations.some((earlier) => earlier.id === invocation.id))).toEqual(before.invocations);
  expect(after.messages.find((row) => row.id === summary.id)).toMatchObject({ role: 'system', kind: 'summary', covers_through_id: covered.messages.at(-1)!.id });
  expect(await command(request, 'getContextStatus', { conversationId })).toMatchObject({ brain: 'kimi', full: false, outsideWindow: 0 });
});

/*
 * The window after a compaction: the summary first, as a card that says what it is (how many messages it stands for,
 * written by the app, not either speaker's words); every message it covers still shows, subdued, when opened; the
 * meter reads the share of the selected brain's window and changes with the brain.
 */
test('after a compaction the summary shows as what it is, and every message it covers can be opened under it', async ({ page, request }) => {
  const title = `Compacted talk ${Date.now()}`;
  const conversationId = await longConversationOnClaude(request, title);
  await command(request, 'setConversationBrain', { id: conversationId, brain: 'kimi' });
  const result = await command(request, 'compactConversation', { conversationId });
  expect(result).toMatchObject({ outcome: 'compacted', summary: { kind: 'summary', brain: 'kimi' } });
  const summary = result.summary!;
  const listed = await command(request, 'listMessages', { conversationId, limit: 500 });
  expect(listed.messages[0]?.id).toBe(summary.id);
  const uncovered = listed.messages.slice(1);
  const covered = await command(request, 'listCoveredMessages', { summaryId: summary.id, limit: 500 });

  await openConversation(page, conversationId, title);
  const rows = page.getByTestId('message');
  await expect(rows).toHaveCount(listed.messages.length);
  // The summary comes first, as a card of its own.
  const card = rows.first();
  await expect(card).toHaveAttribute('data-message-id', summary.id);
  await expect(card).toHaveAttribute('data-kind', 'summary');
  await expect(card.getByTestId('summary-title')).toHaveText(`Summary of ${summary.coveredMessages} earlier messages`);
  await expect(card.getByTestId('summary-byline')).toHaveText(
    "Written by Anybrain for the brains' context, in place of these messages: not your words or a brain's reply.",
  );
  await expect(card.getByTestId('message-text')).toHaveText(summary.text);
  const chatRows = page.locator('[data-testid="message"]:not([data-kind="summary"])');
  expect(await chatRows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-message-id')))).toEqual(
    uncovered.map((message) => message.id),
  );
  // Every covered message is still there, under the summary, oldest first.
  await card.getByTestId('summary-toggle').click();
  const coveredRows = card.getByTestId('covered-row');
  // They come a page at a time, newest first; "Show older" brings the rest.
  await expect(coveredRows).toHaveCount(Math.min(covered.messages.length, 50));
  while ((await card.getByTestId('covered-show-older').count()) > 0) {
    const shown = await coveredRows.count();
    await card.getByTestId('covered-show-older').click();
    await expect(coveredRows).not.toHaveCount(shown);
  }
  await expect(coveredRows).toHaveCount(covered.messages.length);
  await expect(coveredRows.first()).toContainText(covered.messages[0]!.text.slice(0, 40));
  await expect(coveredRows.last()).toContainText(covered.messages.at(-1)!.text.slice(0, 40));
  await expect(card.getByTestId('summary-toggle')).toHaveText(`Hide the ${covered.messages.length} messages`);

  // The meter reads the selected brain's window, and another brain's when the brain changes.
  const kimi = await command(request, 'getContextStatus', { conversationId });
  await expect(page.getByTestId('context-meter-text')).toHaveText(kimi.description);
  await pickBrain(page, 'claude');
  const claude = await command(request, 'getContextStatus', { conversationId, brain: 'claude' });
  await expect(page.getByTestId('context-meter-text')).toHaveText(claude.description);
  expect(claude.description).toMatch(/^\d+ % of Claude's window$/);
});
