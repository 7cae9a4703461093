/**
 * What the browser scenarios share: a data folder seeded straight into SQLite, the web host serving it
 * (`anybrain serve`, so `npm run build` must have built `out/`), and Chromium driven by Playwright.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DATABASE_FILE } from '../../src-main/core/app';
import { closeDatabase, openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from '../../e2e/support/chromium';
import { startOwnHost, type OwnHost } from '../../e2e/support/own-host';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export function requireBuild(): void {
  if (!existsSync(join(repoRoot, 'out', 'cli', 'anybrain.js')) || !existsSync(join(repoRoot, 'out', 'renderer', 'index.html'))) {
    throw new Error('The app is not built. Run `npm run build` before the browser benchmarks.');
  }
}

/** A fresh data folder whose database `seed` fills; removed by `removeDataFolder`. */
export function seedDataFolder<T>(seed: (db: AppDatabase) => T): { readonly dataDir: string; readonly seeded: T } {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-bench-browser-'));
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    return { dataDir, seeded: seed(db) };
  } finally {
    closeDatabase(db);
  }
}

export function removeDataFolder(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/** `count` empty conversations, one a minute apart, in one transaction (titles `Conversation N`, newest last). */
export function seedConversationList(db: AppDatabase, count: number): void {
  const insert = db.$client.prepare(
    'INSERT INTO conversations (id, title, brain, model, reasoning_level, created_at, updated_at, archived) VALUES (?, ?, ?, NULL, NULL, ?, ?, 0)',
  );
  db.$client.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
      insert.run(`bench-list-${String(index).padStart(6, '0')}`, `Conversation ${index}`, 'claude', at, at);
    }
  })();
}

/** The id of a conversation's newest message. */
export function newestMessageId(db: AppDatabase, conversationId: string): string {
  const row = db.$client.prepare('SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1').get(conversationId) as
    | { id: string }
    | undefined;
  if (row === undefined) throw new Error(`Conversation ${conversationId} has no messages.`);
  return row.id;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

export function startHostOn(dataDir: string): Promise<OwnHost> {
  return startOwnHost({ dataDir });
}

/** A page at the host's launch address, its sidebar listed. */
export async function openApp(browser: Browser, host: OwnHost): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.launchUrl);
  await page.getByTestId('conversation-item').first().waitFor();
  return page;
}

/** The JavaScript heap in use after a full collection, in MB (Chromium's own count, through the DevTools protocol). */
export async function collectedHeapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    const { usedSize } = await session.send('Runtime.getHeapUsage');
    return usedSize / (1024 * 1024);
  } finally {
    await session.detach();
  }
}
