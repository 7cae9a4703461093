/**
 * The untrusted output corpus (e2e/fixtures/untrusted-output) in real Chromium, on every surface that shows model or
 * tool text: stored history, a streaming reply, conversation search results, tool chips (and the memories page) and
 * the HTML export. On each: no script runs (a `window.__pwned` tripwire, dialogs, console), no request leaves for
 * another host, nothing the audit forbids ever enters the DOM (a mutation observer watches while replies stream),
 * and the window keeps its shell and every message.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import type { MessageView } from '../src-shared/api';
import { auditRenderedMarkup } from './fixtures/untrusted-output/audit';
import { ATTACKER_ORIGIN, isCompact, PAYLOAD_CATEGORIES, UNTRUSTED_PAYLOADS, type UntrustedPayload } from './fixtures/untrusted-output/payloads';
import { command, newConversation, openApp, pickBrain, replyAfter, sendMessage } from './support/app';
import { replyMessage, transcriptFile, userMessage, watchPage } from './support/untrusted-pages';
import { expectReplyStatus } from './support/waits';

/** Payloads per imported history conversation: one page of messages each, so a few pages load while scrolling up. */
const HISTORY_BATCH = 100;
/** Tool conversations hold few replies, so every row stays rendered inside the list's overscan. */
const TOOL_REPLIES = 6;
/** Streamed through the fake brains: the first few payloads of each category, a handful per reply. */
const STREAMED_PER_CATEGORY = 3;
const STREAMED_PER_REPLY = 8;
const MEMORY_COUNT = 20;
const MEMORY_MARKER = 'corpusmemory';
const TITLE_MARKER = 'corpustitle';
/** Where model and tool text is rendered in the window (the app's own icons and ids around them are not). */
const UNTRUSTED_SURFACES = [
  '[data-testid="message-text"]',
  '[data-testid="invocation-input"]',
  '[data-testid="invocation-output"]',
  '.invocation-facts dd',
  '.receipt-chip-label',
  '[data-testid="conversation-title"]',
  '.conversation-heading',
  '[data-testid="tool-activity"]',
  '[data-testid="memory-text"]',
].join(', ');

interface Tripwires {
  readonly executions: string[];
  readonly offHostRequests: string[];
  readonly pageErrors: string[];
}

/** Installs the tripwires on a context before any page of it loads. */
async function armTripwires(context: BrowserContext, appOrigin: string): Promise<Tripwires> {
  const tripwires: Tripwires = { executions: [], offHostRequests: [], pageErrors: [] };
  await context.addInitScript((surfaces: string) => {
    const report = (what: string) => (...args: unknown[]) => console.log(`__TRIPWIRE__ ${what} ${args.map(String).join(' ')}`);
    // Own, non-writable properties: a clobbering element named __pwned cannot shadow them.
    Object.defineProperty(window, '__pwned', { value: report('__pwned'), writable: false, configurable: false });
    const transient: string[] = [];
    Object.defineProperty(window, '__transientViolations', { value: transient, writable: false, configurable: false });
    const forbidden = /^(script|iframe|frame|object|embed|img|image|svg|math|style|link|meta|base|form|video|audio|source|template|noscript)$/i;
    const inspect = (element: Element): void => {
      if (element.closest(surfaces) === null) return;
      if (forbidden.test(element.tagName)) transient.push(`<${element.tagName.toLowerCase()}>`);
      for (const name of element.getAttributeNames()) {
        if (/^on/i.test(name)) transient.push(`<${element.tagName.toLowerCase()} ${name}>`);
      }
    };
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          inspect(node);
          for (const descendant of Array.from(node.querySelectorAll('*'))) inspect(descendant);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  }, UNTRUSTED_SURFACES);
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${appOrigin}/`) && url !== appOrigin) tripwires.offHostRequests.push(url);
  });
  context.on('page', (page) => watchPage(page, tripwires));
  return tripwires;
}

async function expectNothingTripped(page: Page, tripwires: Tripwires, surface: string): Promise<void> {
  const transient = await page.evaluate(() => (window as unknown as { __transientViolations: string[] }).__transientViolations);
  expect({ surface, ...tripwires, transient }).toEqual({ surface, executions: [], offHostRequests: [], pageErrors: [], transient: [] });
}

/** The window still has its shell, and no row or block had to fall back to plain text. */
async function expectWholeWindow(page: Page): Promise<void> {
  await expect(page.getByTestId('new-conversation').first()).toBeVisible();
  await expect(page.getByTestId('conversation-search')).toBeVisible();
  expect(await page.locator('[data-render-failed], [data-testid="markdown-fallback"]').count()).toBe(0);
}

async function audit(page: Page, selector: string = UNTRUSTED_SURFACES): Promise<string[]> {
  return page.evaluate(auditRenderedMarkup, selector);
}

function chunk<Item>(items: readonly Item[], size: number): Item[][] {
  const chunks: Item[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

async function allMessages(request: APIRequestContext, conversationId: string): Promise<MessageView[]> {
  return (await command(request, 'listMessages', { conversationId, limit: 500 })).messages as MessageView[];
}

/**
 * Opens the conversation from its sidebar row when the row is in view, else through its address: the sidebar is
 * virtualized, and the imported conversations, listed at their own older times, sit below the rows it renders.
 */
async function openConversationFromSidebar(page: Page, conversationId: string): Promise<void> {
  const row = page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);
  if ((await row.count()) > 0) await row.first().click();
  else await page.evaluate((id) => (window.location.hash = `#/c/${encodeURIComponent(id)}`), conversationId);
  await expect(page.getByTestId('message-list')).toBeVisible();
}

async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The rendered rows' ids, and the top offsets of the highest and the lowest rendered row. */
async function renderedRows(page: Page): Promise<{ ids: string[]; highestTop: number; lowestTop: number; scrollTop: number }> {
  return page.evaluate(() => {
    const slots = Array.from(document.querySelectorAll<HTMLElement>('.message-slot'));
    const tops = slots.map((slot) => slot.offsetTop);
    const ids = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="message"]')).map((row) => row.dataset.messageId ?? '');
    const scrollTop = document.querySelector<HTMLElement>('[data-testid="message-list"]')?.scrollTop ?? 0;
    return { ids, highestTop: Math.min(...tops), lowestTop: Math.max(...tops), scrollTop };
  });
}

async function scrollListTo(page: Page, scrollTop: number): Promise<void> {
  await page.evaluate((target) => {
    const list = document.querySelector<HTMLElement>('[data-testid="message-list"]');
    if (list !== null) list.scrollTop = Math.max(0, target);
  }, scrollTop);
}

/**
 * Brings every row of the virtualized list on screen at least once, auditing the rendered rows at every step: up from
 * the newest row until every older page has loaded, then down again a stretch of rendered rows at a time. Returns the
 * ids seen and the audit problems.
 */
async function renderEveryRow(page: Page, expectedIds: readonly string[]): Promise<{ seen: Set<string>; problems: string[] }> {
  const seen = new Set<string>();
  const problems: string[] = [];
  const firstId = expectedIds[0];
  const deadline = Date.now() + 90_000;
  const look = async () => {
    await nextFrames(page);
    const rows = await renderedRows(page);
    for (const id of rows.ids) seen.add(id);
    problems.push(...(await audit(page)));
    const fallbacks = await page.locator('[data-render-failed], [data-testid="markdown-fallback"]').count();
    if (fallbacks > 0) problems.push(`${fallbacks} rows or blocks fell back to plain text`);
    return rows;
  };
  // Up: the highest rendered row's top goes to the bottom of the view, until the oldest message is on screen.
  for (let rows = await look(); Date.now() < deadline; rows = await look()) {
    if (rows.scrollTop === 0 && rows.ids[0] === firstId) break;
    const clientHeight = await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="message-list"]')?.clientHeight ?? 0);
    await scrollListTo(page, rows.highestTop - clientHeight + 1);
  }
  // Down: the lowest rendered row's top goes to the top of the view, until every row has been seen.
  for (let rows = await look(); Date.now() < deadline; rows = await look()) {
    if (expectedIds.every((id) => seen.has(id))) break;
    await scrollListTo(page, rows.lowestTop);
  }
  return { seen, problems };
}

function streamedSubset(): UntrustedPayload[] {
  return PAYLOAD_CATEGORIES.flatMap((category) =>
    UNTRUSTED_PAYLOADS.filter((payload) => payload.category === category && isCompact(payload, 4000)).slice(0, STREAMED_PER_CATEGORY),
  );
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

test('the untrusted output corpus runs nothing, fetches nothing and blanks nothing on any surface', async ({ page, context, request }) => {
  // About 80 s on an idle two-core machine; the margin is for a machine shared with other work.
  test.setTimeout(360_000);
  const createdConversations: string[] = [];
  const createdMemories: string[] = [];
  try {
    // Import everything first: the window then opens onto its final conversation list.
    const historyBatches = chunk(UNTRUSTED_PAYLOADS, HISTORY_BATCH);
    const historyIds: string[] = [];
    for (const [batchIndex, batch] of historyBatches.entries()) {
      const compactBatch = batch.filter((payload) => isCompact(payload));
      const messages = [
        // The user's own words render as plain text: the same payloads, in a bubble.
        userMessage(`u${batchIndex}`, compactBatch.map((payload) => payload.text).join('\n\n')),
        ...batch.map((payload) => replyMessage(payload.id, payload.text)),
      ];
      const conversation = await command(request, 'importTranscript', {
        content: transcriptFile(`Corpus history ${batchIndex + 1} of ${historyBatches.length}`, messages),
      });
      createdConversations.push(conversation.id);
      historyIds.push(conversation.id);
    }

    const compactPayloads = UNTRUSTED_PAYLOADS.filter((payload) => isCompact(payload));
    const toolGroups = chunk(compactPayloads, Math.ceil(compactPayloads.length / TOOL_REPLIES));
    const singleLine = compactPayloads.filter((payload) => !payload.text.includes('\n') && payload.text.length <= 120);
    const toolReplies = toolGroups.map((group, index) => {
      const texts = group.map((payload) => payload.text);
      const labelPayloads = [singleLine[(index * 2) % singleLine.length], singleLine[(index * 2 + 1) % singleLine.length]];
      return replyMessage(`tools${index}`, `Tool results, part ${index + 1}.`, {
        model_responded: labelPayloads[0]?.text ?? 'kimi-k2.6',
        tool_invocations: [
          { id: `read${index}`, kind: 'tool', server: null, tool: 'read_file', provider_call_id: `call-read${index}`, input: { path: 'payloads.md', lines: texts }, output: texts.join('\n\n'), status: 'ok' },
          { id: `memory${index}`, kind: 'memory', server: null, tool: 'memory_search', provider_call_id: null, input: { query: texts[0] ?? '' }, output: texts.slice().reverse().join('\n'), status: 'ok' },
          { id: `label${index}`, kind: 'tool', server: labelPayloads[0]?.text ?? 's', tool: labelPayloads[1]?.text ?? 't', provider_call_id: `call-label${index}`, input: {}, output: null, status: 'error' },
        ],
      });
    });
    const toolConversation = await command(request, 'importTranscript', {
      content: transcriptFile('Corpus tool chips', [userMessage('tools-user', 'Read the payload files.'), ...toolReplies]),
    });
    createdConversations.push(toolConversation.id);

    const titled = compactPayloads;
    for (const payload of titled) {
      const conversation = await command(request, 'importTranscript', {
        content: transcriptFile(`${TITLE_MARKER} ${payload.text}`, [userMessage('title-user', 'A conversation whose title is a payload.')]),
      });
      createdConversations.push(conversation.id);
    }

    // The app's origin is known once it has loaded; the tripwires arm then, and the page loads again under them.
    await openApp(page);
    const origin = new URL(page.url()).origin;
    const tripwires = await armTripwires(context, origin);
    watchPage(page, tripwires);
    await openApp(page);

    // (a) History: every stored payload, one reply each, every row rendered at least once.
    let historyRows = 0;
    for (const conversationId of historyIds) {
      await openConversationFromSidebar(page, conversationId);
      const stored = await allMessages(request, conversationId);
      const { seen, problems } = await renderEveryRow(page, stored.map((message) => message.id));
      expect(problems).toEqual([]);
      expect(stored.filter((message) => !seen.has(message.id)).map((message) => message.text.slice(0, 80))).toEqual([]);
      historyRows += stored.length;
      await expectWholeWindow(page);
      await expectNothingTripped(page, tripwires, `history ${conversationId}`);
    }
    expect(historyRows).toBe(UNTRUSTED_PAYLOADS.length + historyIds.length);
    // Reopening the window on a conversation that held the deep-nesting payloads shows it again.
    const nestingConversation = historyIds[Math.floor(UNTRUSTED_PAYLOADS.findIndex((payload) => payload.category === 'deep-nesting') / HISTORY_BATCH)];
    if (nestingConversation === undefined) throw new Error('No conversation holds the deep-nesting payloads.');
    await openApp(page);
    await openConversationFromSidebar(page, nestingConversation);
    await expect(page.getByTestId('message').first()).toBeVisible();
    await expectWholeWindow(page);

    // (d) Tool chips: every chip of every reply opened, its input and output shown exactly, as text.
    await openConversationFromSidebar(page, toolConversation.id);
    // Shown exactly as stored (storage turns a lone surrogate into U+FFFD, so the file's text is not the measure).
    const storedTools = await command(request, 'listMessages', { conversationId: toolConversation.id, limit: 500 });
    const storedToolReplies = storedTools.messages.filter((message) => message.role === 'assistant');
    expect(storedToolReplies).toHaveLength(TOOL_REPLIES);
    for (const stored of storedToolReplies) {
      const row = page.locator(`[data-testid="message"][data-message-id="${stored.id}"]`);
      const invocations = storedTools.invocations.filter((invocation) => invocation.messageId === stored.id);
      const chips = row.getByTestId('receipt-chip');
      await expect(chips).toHaveCount(invocations.length);
      for (const [chipIndex, invocation] of invocations.entries()) {
        await chips.nth(chipIndex).click();
        const detail = row.getByTestId('invocation-detail');
        await expect(detail).toBeVisible();
        expect(await detail.getByTestId('invocation-input').evaluate((element) => [element.childElementCount, element.textContent])).toEqual([
          0,
          JSON.stringify(invocation.input, null, 2),
        ]);
        const expectedOutput = invocation.output === null ? 'No output.' : invocation.output === '' ? 'Empty output.' : invocation.output;
        expect(await detail.getByTestId('invocation-output').evaluate((element) => [element.childElementCount, element.textContent])).toEqual([
          0,
          expectedOutput,
        ]);
        expect(await audit(page)).toEqual([]);
      }
      await expect(row.getByTestId('message-brain-label')).toHaveText(`Kimi · ${stored.modelResponded ?? ''}`);
    }
    await expectWholeWindow(page);
    await expectNothingTripped(page, tripwires, 'stored tool chips');

    // (b) Streaming: a representative subset streamed through the fake brains, watched by the mutation observer.
    const streamConversation = await newConversation(page);
    createdConversations.push(streamConversation);
    await pickBrain(page, 'kimi');
    const streamed = chunk(streamedSubset(), STREAMED_PER_REPLY);
    let lastReplyId: string | null = null;
    for (const group of streamed) {
      await sendMessage(page, `[reply-base64:${base64(group.map((payload) => payload.text).join('\n\n'))}]`);
      const reply = await replyAfter(page, lastReplyId);
      await expectReplyStatus(page, reply, 'complete');
      lastReplyId = await reply.getAttribute('data-message-id');
      expect(await audit(page)).toEqual([]);
    }
    const storedStream = await allMessages(request, streamConversation);
    expect(storedStream.filter((message) => message.role === 'assistant').map((message) => message.text)).toEqual(
      streamed.map((group) => group.map((payload) => payload.text).join('\n\n')),
    );
    await expectWholeWindow(page);
    await expectNothingTripped(page, tripwires, 'streaming');

    // (d, live) memory_search finds memories that hold payloads; its chip and the reply quoting it stay inert.
    const memoryPayloads = PAYLOAD_CATEGORIES.flatMap((category) =>
      compactPayloads.filter((payload) => payload.category === category).slice(0, 2),
    ).slice(0, MEMORY_COUNT);
    for (const payload of memoryPayloads) {
      const memory = await command(request, 'addMemory', { text: `${MEMORY_MARKER} ${payload.text}` });
      createdMemories.push(memory.id);
    }
    await sendMessage(page, `[tool:memory_search {"query":"${MEMORY_MARKER}","limit":${MEMORY_COUNT}}] look these up`);
    const toolReply = await replyAfter(page, lastReplyId);
    await expectReplyStatus(page, toolReply, 'complete');
    expect(await audit(page)).toEqual([]);
    await expectNothingTripped(page, tripwires, 'live tool reply');
    // A live turn's chips know only the host's receipt; the calls' inputs and outputs load with the conversation.
    const toolReplyId = await toolReply.getAttribute('data-message-id');
    await openApp(page);
    await openConversationFromSidebar(page, streamConversation);
    const reloadedToolReply = page.locator(`[data-testid="message"][data-message-id="${toolReplyId}"]`);
    // The brain's own call, not the memories the app retrieved for the turn by itself.
    await reloadedToolReply.locator('[data-testid="receipt-chip"][data-kind="tool"]').filter({ hasText: 'memory_search' }).click();
    const searchOutput = reloadedToolReply.getByTestId('invocation-output');
    expect(await searchOutput.evaluate((element) => element.childElementCount)).toBe(0);
    const shownOutput = (await searchOutput.textContent()) ?? '';
    expect(memoryPayloads.filter((payload) => !shownOutput.includes(payload.text.trim().split('\n')[0] ?? ''))).toEqual([]);
    expect(await audit(page)).toEqual([]);
    await expectWholeWindow(page);
    await expectNothingTripped(page, tripwires, 'live tool chips');

    // The memories page lists the same payloads as text.
    await page.getByTestId('open-memories').click();
    const memoriesView = page.getByTestId('memories-view');
    await memoriesView.getByTestId('memory-search').fill(MEMORY_MARKER);
    await expect(memoriesView.getByTestId('memory-item')).toHaveCount(memoryPayloads.length);
    const shownMemories = await memoriesView.getByTestId('memory-text').evaluateAll((elements) => elements.map((element) => [element.childElementCount, element.textContent]));
    const storedMemories = await command(request, 'listMemories', { query: MEMORY_MARKER });
    expect(shownMemories.sort()).toEqual(storedMemories.map((memory) => [0, memory.text]).sort());
    expect(await audit(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(memoriesView).toBeHidden();
    await expectWholeWindow(page);
    await expectNothingTripped(page, tripwires, 'memories page');

    // (c) Search: titles that are payloads, listed as plain text; hostile queries answered without breaking the list.
    await page.getByTestId('conversation-search').fill(TITLE_MARKER);
    const titleItems = page.getByTestId('conversation-title');
    await expect(titleItems).toHaveCount(titled.length);
    const shownTitles = await titleItems.evaluateAll((elements) => elements.map((element) => [element.childElementCount, element.textContent]));
    expect(shownTitles.filter(([children]) => children !== 0)).toEqual([]);
    const storedTitles = (await command(request, 'listConversations', { query: TITLE_MARKER })).map((conversation) => conversation.title);
    expect(storedTitles).toHaveLength(titled.length);
    expect(shownTitles.map(([, text]) => text)).toEqual(storedTitles);
    expect(await audit(page)).toEqual([]);
    // Opened, a payload title heads the conversation as text.
    await page.getByTestId('conversation-item').first().click();
    await expect(page.locator('.conversation-heading')).toHaveText(storedTitles[0] ?? '');
    expect(await page.locator('.conversation-heading').evaluate((element) => element.childElementCount)).toBe(0);
    expect(await audit(page)).toEqual([]);
    await expectWholeWindow(page);
    for (const query of ['<script>', 'javascript:', '%', '_', '"', "') OR 1=1 --", '*', '\u202E', '[', 'NEAR(', '\\']) {
      await page.getByTestId('conversation-search').fill(query);
      await nextFrames(page);
      await expectWholeWindow(page);
    }
    await page.getByTestId('conversation-search').fill('');
    await expectNothingTripped(page, tripwires, 'search');

    // (e) HTML export: every conversation above, loaded as a page, with and without its own CSP.
    // The context's page listener watches this page too.
    const exportPage = await context.newPage();
    // The tripwires themselves work here: a handler that runs and an image that loads are both caught.
    await exportPage.setContent(`<img src="${ATTACKER_ORIGIN}/control.png" onerror="__pwned(/control/)">`);
    await expect.poll(() => [tripwires.executions.length, tripwires.offHostRequests.length]).toEqual([1, 1]);
    expect([tripwires.executions[0], tripwires.offHostRequests[0]]).toEqual(['__TRIPWIRE__ __pwned /control/', `${ATTACKER_ORIGIN}/control.png`]);
    tripwires.executions.length = 0;
    tripwires.offHostRequests.length = 0;
    for (const conversationId of [...historyIds, toolConversation.id, streamConversation]) {
      const exported = await command(request, 'exportConversation', { id: conversationId, format: 'html' });
      const cspTag = /<meta http-equiv="Content-Security-Policy"[^>]*>/;
      expect(exported.content).toMatch(cspTag);
      // Without the CSP, only the escaping stands between a payload and the page.
      for (const content of [exported.content, exported.content.replace(cspTag, '')]) {
        await exportPage.setContent(content, { waitUntil: 'load' });
        await exportPage.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
        // The export's own checks are in export-html.spec.ts; here, every stored row is on the page and inert.
        expect(await exportPage.evaluate(auditRenderedMarkup, '.markdown, .plain, .receipt, details, .speaker, h1')).toEqual([]);
        const stored = await allMessages(request, conversationId);
        expect(await exportPage.locator('main > article.message, main > aside.system').count()).toBe(stored.length);
        expect(await exportPage.locator('article.user > .plain').evaluateAll((elements) => elements.map((element) => element.textContent))).toEqual(
          stored.filter((message) => message.role === 'user').map((message) => message.text),
        );
      }
    }
    await exportPage.close();
    await expectNothingTripped(page, tripwires, 'html export');
  } finally {
    for (const id of createdConversations) await command(request, 'deleteConversation', { id });
    for (const id of createdMemories) await command(request, 'deleteMemory', { id });
  }
});
