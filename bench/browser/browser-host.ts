/**
 * What the browser scenarios share: a data folder seeded straight into SQLite, the web host serving it
 * (`anybrain serve`, so `npm run build` must have built `out/`), and Chromium driven by Playwright.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type LaunchOptions, type Page } from '@playwright/test';
import { DATABASE_FILE } from '../../src-main/core/app';
import { closeDatabase, openDatabase, type AppDatabase } from '../../src-main/core/store/open';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, findChromium } from '../../e2e/support/chromium';
import { startOwnHost, type OwnHost } from '../../e2e/support/own-host';
import { describeHostThreads, within } from '../support/bounded-wait';
import { formatStoredReply, formatWindowState, WINDOW_STATE_SCRIPT, type StoredReply, type WindowState } from '../support/window-state';

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

/**
 * Bounds for the browser benchmarks' waits, generous for a loaded two-core machine: each names what never came when
 * it lapses (bench/support/bounded-wait.ts). Playwright's own timeouts are turned off where these apply, so one
 * bound, with its reason, decides.
 */
export const BROWSER_BOUNDS = {
  launch: 120_000,
  /** The launch address loaded and the window's first element drawn. */
  window: 90_000,
  /** A DevTools protocol call (a collection, a trace's end). */
  devtools: 120_000,
} as const;

export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error(CHROMIUM_MISSING);
  const options: LaunchOptions = { executablePath, args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 0 };
  return within(chromium.launch(options), { what: `Chromium (${executablePath}) did not start`, withinMs: BROWSER_BOUNDS.launch });
}

/** Closes Chromium, bounded: a browser that hung would otherwise hold the hook until its own timeout. */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  if (browser === undefined) return;
  await within(browser.close(), { what: 'Chromium did not close', withinMs: BROWSER_BOUNDS.launch });
}

/** What the page shows, in one line; for a lapsed wait's message. */
export async function describeWindow(page: Page): Promise<string> {
  return formatWindowState((await page.evaluate(WINDOW_STATE_SCRIPT)) as WindowState);
}

/** The newest reply in the host's store, read through a read-only connection of its own; for a lapsed wait's message. */
export function describeStoredReply(dataDir: string): string {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const reply = db
      .prepare("SELECT status, length(text) AS length FROM messages WHERE role = 'assistant' ORDER BY created_at DESC, seq DESC LIMIT 1")
      .get() as StoredReply | undefined;
    return formatStoredReply(reply ?? null);
  } finally {
    db.close();
  }
}

/** The window, the store's newest reply and the host's threads, each as far as it can be read. */
export async function describeWindowAndHost(page: Page, host: OwnHost, extra: () => Promise<string | null> = async () => null): Promise<string> {
  const parts: string[] = [];
  const attempt = async (read: () => string | null | Promise<string | null>): Promise<void> => {
    try {
      const part = await read();
      if (part !== null) parts.push(part);
    } catch (error) {
      parts.push(`(${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  };
  await attempt(() => describeWindow(page));
  await attempt(extra);
  await attempt(() => describeStoredReply(host.dataDir));
  await attempt(() => describeHostThreads(host.dataDir));
  return parts.join('; ');
}

/** Loads the host's launch address in `page`, bounded. */
export async function gotoLaunchUrl(page: Page, host: OwnHost): Promise<void> {
  await within(page.goto(host.launchUrl, { timeout: 0 }), {
    what: `the window at ${host.origin} never finished loading`,
    withinMs: BROWSER_BOUNDS.window,
    observe: () => describeHostThreads(host.dataDir),
  });
}

export function startHostOn(dataDir: string): Promise<OwnHost> {
  return startOwnHost({ dataDir });
}

/** A page at the host's launch address, its sidebar listed. */
export async function openApp(browser: Browser, host: OwnHost): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await gotoLaunchUrl(page, host);
  await within(page.getByTestId('conversation-item').first().waitFor({ timeout: 0 }), {
    what: 'the sidebar never showed a conversation',
    withinMs: BROWSER_BOUNDS.window,
    observe: () => describeWindowAndHost(page, host),
  });
  return page;
}

/** The JavaScript heap in use after a full collection, in MB (Chromium's own count, through the DevTools protocol). */
export async function collectedHeapMb(page: Page): Promise<number> {
  const measure = async (): Promise<number> => {
    const session = await page.context().newCDPSession(page);
    try {
      await session.send('HeapProfiler.collectGarbage');
      const { usedSize } = await session.send('Runtime.getHeapUsage');
      return usedSize / (1024 * 1024);
    } finally {
      await session.detach();
    }
  };
  return within(measure(), { what: 'Chromium never answered a garbage collection and a heap count (DevTools protocol)', withinMs: BROWSER_BOUNDS.devtools });
}
