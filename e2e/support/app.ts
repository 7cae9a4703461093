import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { CommandName, CommandOutput } from '../../src-shared/api';
import { bearerHeaderValue, tokenFromLaunchFragment } from '../../src-shared/web-launch';
import type { RecordedRequest } from '../fake-brains/server';
import { readE2eEnvironment } from './environment';

/** Loads the window afresh, as opening the printed address does. */
export async function openApp(page: Page): Promise<void> {
  // The launch address differs from an open window's only after `#`, which a browser treats as a move within the
  // same page: leave the page first so the window really loads again.
  if (page.url() !== 'about:blank') await page.goto('about:blank');
  await page.goto(readE2eEnvironment().launchUrl);
  // A narrow window starts with the sidebar collapsed, offering its compact New conversation instead.
  await expect(
    page.getByTestId('new-conversation').or(page.getByTestId('new-conversation-compact')).filter({ visible: true }),
  ).toHaveCount(1);
  // Counting conversation rows before the list has loaded would count none.
  await expect(
    page.locator('[data-testid="conversation-list"][aria-busy="false"], [data-testid="conversation-list-empty"]'),
  ).toHaveCount(1);
}

/** This run's web host token, from the `#token=…` fragment of the address `anybrain serve` printed. */
export function launchToken(): string {
  const { launchUrl } = readE2eEnvironment();
  const token = tokenFromLaunchFragment(new URL(launchUrl).hash);
  if (token === null) throw new Error(`The launch address carries no #token= fragment: ${launchUrl}`);
  return token;
}

/**
 * Headers for a test's own HTTP calls. A Node server closes a keep-alive connection after 5 s idle, and a request
 * sent on it at that moment ends in ECONNRESET. Browsers retry such a request; Playwright's request context does not,
 * so each call opens a connection of its own.
 */
export const OWN_CONNECTION = { Connection: 'close' } as const;

/** Calls the web host the way any bearer client would, to read what the app stored. */
export async function command<Name extends CommandName>(
  request: APIRequestContext,
  name: Name,
  input: unknown,
): Promise<CommandOutput<Name>> {
  const environment = readE2eEnvironment();
  const response = await request.post(`${environment.origin}/api/command/${name}`, {
    headers: { ...OWN_CONNECTION, Authorization: bearerHeaderValue(launchToken()) },
    data: input,
  });
  const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!result.ok) throw new Error(`${name} failed: ${result.error?.message}`);
  return result.value as CommandOutput<Name>;
}

/** Calls a host of a test's own (support/own-host.ts), with the token of its launch address. */
export async function hostCommand<Name extends CommandName>(
  request: APIRequestContext,
  host: { readonly launchUrl: string; readonly origin: string },
  name: Name,
  input: unknown,
): Promise<CommandOutput<Name>> {
  const token = tokenFromLaunchFragment(new URL(host.launchUrl).hash);
  if (token === null) throw new Error('no launch token');
  const response = await request.post(`${host.origin}/api/command/${name}`, { headers: { ...OWN_CONNECTION, Authorization: bearerHeaderValue(token) }, data: input });
  const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!result.ok) throw new Error(`${name} failed: ${result.error?.message}`);
  return result.value as CommandOutput<Name>;
}

export async function fakeBrainRequests(request: APIRequestContext): Promise<RecordedRequest[]> {
  const response = await request.get(`${readE2eEnvironment().fakeBrainsUrl}/_fake/requests`, { headers: OWN_CONNECTION });
  return (await response.json()) as RecordedRequest[];
}

/** The id of the conversation the window shows, from its address (`#/c/<id>`), or null. */
export async function shownConversationId(page: Page): Promise<string | null> {
  const hash = await page.evaluate(() => window.location.hash);
  const match = /#\/c\/(.+)$/.exec(hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * Starts a new conversation with `start` (by default the sidebar's New conversation) and returns its id, once the
 * window shows it. The sidebar is virtualized: counting its rows counts only those in view, so the new conversation
 * is known by the address the window moved to.
 */
export async function newConversation(page: Page, start?: () => Promise<void>): Promise<string> {
  const before = await shownConversationId(page);
  await (start ?? (() => page.getByTestId('new-conversation').first().click()))();
  await expect.poll(() => shownConversationId(page)).not.toBe(before);
  const id = await shownConversationId(page);
  if (id === null) throw new Error('The new conversation did not open.');
  await expect(page.getByTestId('composer-input')).toBeVisible();
  return id;
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  const composer = page.getByTestId('composer-input');
  await composer.fill(text);
  await composer.press('Enter');
}

/**
 * The reply a message just sent started, pinned by its id: the newest reply once it is not `earlierReplyId`. The list
 * renders only the rows near the view, so a reply's position among the rendered ones moves as rows above it come and
 * go with their heights.
 */
export async function replyAfter(page: Page, earlierReplyId: string | null): Promise<Locator> {
  const newest = page.locator('[data-testid="message"][data-role="assistant"]').last();
  let replyId: string | null = null;
  await expect
    .poll(async () => {
      replyId = await newest.getAttribute('data-message-id', { timeout: 1_000 }).catch(() => null);
      return replyId !== null && replyId !== earlierReplyId;
    })
    .toBe(true);
  return page.locator(`[data-testid="message"][data-message-id="${replyId}"]`);
}

/** Opens the header's brain picker (brains, model, reasoning) unless it is open already. */
export async function openBrainPicker(page: Page): Promise<void> {
  const trigger = page.getByTestId('brain-picker');
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  await expect(page.getByTestId('brain-picker-panel')).toBeVisible();
}

/** Picks a brain through the header's brain picker, then closes it with Esc. */
export async function pickBrain(page: Page, brain: string): Promise<void> {
  await openBrainPicker(page);
  await page.getByTestId(`brain-switch-${brain}`).click();
  await expect(page.getByTestId(`brain-switch-${brain}`)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('brain-picker-panel')).toBeHidden();
  await expect(page.getByTestId('brain-picker')).toHaveAttribute('data-brain', brain);
}
