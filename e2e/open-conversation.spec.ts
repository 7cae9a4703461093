import { expect, test } from '@playwright/test';
import { openApp } from './support/app';

/** A transcript of `turns` questions and answers, more than one page of the message list. */
function longTranscript(title: string, turns: number) {
  const at = (index: number) => new Date(Date.UTC(2026, 0, 5, 9, 0, index)).toISOString();
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'long-original', title, created_at: at(0) },
    messages: Array.from({ length: turns }, (_, turn) => [
      { id: `u${turn}`, turn_id: `t${turn}`, role: 'user', kind: 'chat', text: `Question ${turn}?`, created_at: at(2 * turn) },
      {
        id: `a${turn}`,
        turn_id: `t${turn}`,
        role: 'assistant',
        kind: 'chat',
        text: `Answer ${turn}, with a **point** and a list:\n\n- one\n- two`,
        status: 'complete',
        brain: 'kimi',
        model_requested: 'kimi-k2.6',
        model_responded: 'kimi-k2.6',
        created_at: at(2 * turn + 1),
      },
    ]).flat(),
  };
}

test('a conversation longer than a page opens at its newest message, drawing none of the oldest rows of the page first', async ({ page }) => {
  await openApp(page);
  // Every row the list ever draws, by its place in the loaded messages (0: the oldest of the first page).
  await page.evaluate(() => {
    const drawn: number[] = [];
    Object.assign(window, { drawnRows: drawn });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (node instanceof HTMLElement && node.classList.contains('message-slot')) drawn.push(Number(node.dataset.index));
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const title = `A long talk ${Date.now()}`;
  const transcript = longTranscript(title, 60);
  await page.getByTestId('import-transcript-input').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(transcript)) });

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const newest = page.getByTestId('message-text').filter({ hasText: 'Answer 59,' });
  await expect(newest).toBeInViewport();
  const drawn = await page.evaluate(() => (window as unknown as { drawnRows: number[] }).drawnRows);
  // The first page holds the newest 50 messages; the view opens on its end.
  expect(drawn.length).toBeGreaterThan(0);
  expect(Math.min(...drawn)).toBeGreaterThan(25);
});
