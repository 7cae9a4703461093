import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { longReply } from './fake-brains/script';
import { newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

/**
 * The longest the page may go without running a timer while the block streams. Far above any frame budget, so a
 * loaded machine never trips it; a page that re-renders the whole block per delta froze for tens of seconds.
 */
const LONGEST_UNANSWERED_MS = 2_000;

// A Playwright trace snapshots the whole DOM in the page at every step and poll: with 32 KB of highlighted code that
// alone keeps the page from answering for seconds, which is what this test measures.
test.use({ trace: 'off' });

test('a 32 KB code block streams into an open conversation whole, and the page keeps answering while it does', async ({ page }) => {
  test.setTimeout(120_000);
  const code = longReply({ kind: 'code', bytes: 32_768 });
  // The fence's lines, without its opening and closing lines.
  const codeLines = code.split('\n').slice(1, -1);

  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'claude');

  // A timer that notes the longest time between two of its own runs: a long task on the page delays it.
  await page.evaluate(() => {
    const probe = { longestGapMs: 0, last: performance.now(), running: true };
    Object.assign(window, { responsivenessProbe: probe });
    const tick = () => {
      const now = performance.now();
      probe.longestGapMs = Math.max(probe.longestGapMs, now - probe.last);
      probe.last = now;
      if (probe.running) setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  });

  await sendMessage(page, 'Show me the whole file [long:code:32768]');
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'streaming');
  await expectReplyStatus(page, reply, 'complete');

  const longestGapMs = await page.evaluate(() => {
    const probe = (window as unknown as { responsivenessProbe: { longestGapMs: number; running: boolean } }).responsivenessProbe;
    probe.running = false;
    return probe.longestGapMs;
  });

  const block = reply.locator('pre');
  await expect(block).toHaveCount(1);
  await expect(reply.locator('code.hljs.language-ts')).toHaveCount(1);
  const shown = await block.evaluate((element) => element.textContent ?? '');
  expect(shown.split('\n').slice(0, -1)).toHaveLength(codeLines.length);
  expect(shown.split('\n').at(-2)).toBe(codeLines.at(-1));
  expect(shown).toBe(`${codeLines.join('\n')}\n`);
  expect(longestGapMs).toBeLessThan(LONGEST_UNANSWERED_MS);
});

test('a long list and a long table stream in whole, read as one list and one table by assistive technology', async ({ page }) => {
  test.setTimeout(120_000);
  const listItems = longReply({ kind: 'list', bytes: 16_384 }).split('\n');
  const tableRows = longReply({ kind: 'table', bytes: 8_192 }).split('\n').slice(2);

  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'claude');
  const replies = page.locator('[data-testid="message"][data-role="assistant"]');

  await sendMessage(page, 'List them all [long:list:16384]');
  await expectReplyStatus(page, replies.last(), 'complete');
  // Streamed in, the list is a list per piece of about 1 KB, each contained, all of its items there.
  const listReply = replies.first();
  const listPieces = listReply.locator('.md-list-pieces > ul.md-piece');
  expect(await listPieces.count()).toBeGreaterThan(10);
  // Receipts under a reply may hold list items of their own: the reply's text is what counts here.
  const listText = listReply.getByTestId('message-text');
  await expect(listText.locator('li')).toHaveCount(listItems.length);
  await expect(listText.locator('li').last()).toContainText(`item ${listItems.length}:`);

  await sendMessage(page, 'And the table [long:table:8192]');
  await expectReplyStatus(page, replies.last(), 'complete');
  await expect(replies.last().getByTestId('message-text').locator('table tbody tr')).toHaveCount(tableRows.length);

  // Out of view, the pieces are skipped by the browser, not gone: scrolled back to, they show their items.
  await listPieces.first().scrollIntoViewIfNeeded();
  await expect(listPieces.first().locator('li').first()).toBeVisible();
  await expect(listPieces.first().locator('li').first()).toContainText('item 1:');

  const axe = await new AxeBuilder({ page }).include('[data-testid="message"][data-role="assistant"]').withRules(['list', 'listitem', 'td-headers-attr', 'th-has-data-cells']).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  // Read from history, the same list is one list.
  await page.reload();
  await expect(replies.first().getByTestId('message-text').locator('ul')).toHaveCount(1);
  await expect(replies.first().getByTestId('message-text').locator('li')).toHaveCount(listItems.length);
});
