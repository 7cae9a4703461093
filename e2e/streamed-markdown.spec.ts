import { expect, test, type Locator } from '@playwright/test';
import { newConversation, openApp, pickBrain, sendMessage } from './support/app';
import { expectReplyStatus } from './support/waits';

/** Headings, rules, lists, quotes, code and tables: every kind of margin a block has, over more than one group. */
const REPLY = [
  ...Array.from({ length: 6 }, (_, section) => [
    `## Section ${section}`,
    `Opening paragraph of section ${section}, long enough to wrap at the narrowest width this window is ever given.`,
    '- first point\n- second point\n- third point',
    '> A quote in between.',
    '```ts\nexport const answer = 42;\n```',
    '---',
    '| brain | wire |\n| --- | --- |\n| claude | anthropic-messages |\n| kimi | chat-completions |',
  ]).flat(),
  // Long enough to stream in more than one section of rows, each starting on a row of either stripe, with rows wider
  // than the first section's (a longer name, a third digit) after it.
  [
    '| # | brain | wire |',
    '| ---: | --- | --- |',
    ...Array.from({ length: 120 }, (_, index) => `| ${index + 1} | brain ${index}${index === 80 ? ', the widest name of all' : ''} | \`wire ${index}\` |`),
  ].join('\n'),
  'Closing paragraph.\n1. and a list\n2. that interrupts it',
  '### A last heading',
  '| last | table |\n| --- | --- |\n| ends | the reply |',
].join('\n\n');

/** The background of each table body row's first cell, in order: the stripes. */
async function stripesOf(text: Locator): Promise<string[]> {
  return text.locator('tbody tr > td:first-child').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).backgroundColor));
}

/** The width of each column of each table, from its head's cells. */
async function columnsOf(text: Locator): Promise<number[][]> {
  return text
    .locator('table')
    .evaluateAll((tables) =>
      tables.map((table) => Array.from((table as HTMLTableElement).tHead?.rows[0]?.cells ?? [], (cell) => Math.round(cell.getBoundingClientRect().width * 100) / 100)),
    );
}

/** Where each block of a reply's text sits, from the text's top, and how tall the text is. */
async function layoutOf(text: Locator): Promise<number[]> {
  return text.evaluate((element) => {
    const top = element.getBoundingClientRect().top;
    const blocks = Array.from(element.querySelectorAll('h2, h3, p, ul, ol, blockquote, pre, hr, table'));
    return [element.getBoundingClientRect().height, ...blocks.map((block) => block.getBoundingClientRect().top - top)].map((value) => Math.round(value * 10) / 10);
  });
}

test('a reply that streamed in lays out exactly as the same reply read from history', async ({ page }) => {
  await openApp(page);
  await newConversation(page);
  await pickBrain(page, 'claude');
  await sendMessage(page, `Write it up [reply-base64:${Buffer.from(REPLY).toString('base64')}]`);
  const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expectReplyStatus(page, reply, 'complete');
  const text = reply.getByTestId('message-text');

  // Streamed in: its blocks each in an element of their own, in groups, the last block alone marked as last.
  await expect(text.locator('.markdown.md-grouped.md-streamed')).toHaveCount(1);
  expect(await text.locator('.md-group').count()).toBeGreaterThan(1);
  await expect(text.locator('.md-block.md-last')).toHaveCount(1);
  await expect(text.locator('.md-group').last().locator('.md-block').last()).toHaveClass('md-block md-last');
  const streamed = await layoutOf(text);
  const streamedStripes = await stripesOf(text);
  const streamedColumns = await columnsOf(text);
  // The long table held its columns' widths while it grew, and holds them still, widened for its wider rows.
  await expect(text.locator('table.md-held-columns')).toHaveCount(1);
  // The long table streamed in sections of rows, which have left their layers now that it is complete.
  expect(await text.locator('tbody.md-piece-rows').count()).toBeGreaterThan(2);
  await expect(text.locator('tbody.md-layer')).toHaveCount(0);
  // The last block keeps no margin under it, as in a run of blocks.
  expect(await text.locator('.md-block.md-last > *').evaluate((element) => getComputedStyle(element).marginBottom)).toBe('0px');

  await page.reload();
  const fromHistory = page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('message-text');
  await expect(fromHistory.locator('.markdown.md-flat')).toHaveCount(1);
  expect(await layoutOf(fromHistory)).toEqual(streamed);
  await expect(fromHistory.locator('table.md-held-columns')).toHaveCount(0);
  expect(await columnsOf(fromHistory)).toEqual(streamedColumns);
  expect(await stripesOf(fromHistory)).toEqual(streamedStripes);
  expect(new Set(streamedStripes).size).toBe(2);
});
