/**
 * The waits of the end-to-end tests for a reply to reach a status and for a conversation's title: one bound for all
 * of them, and, when it lapses, a message saying what was waited for, what the window showed last and what the host
 * had stored, so a failure on a busy machine tells a slow host from a window that missed an event.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { MessageStatus } from '../../src-shared/api';
import { command, hostCommand, shownConversationId } from './app';

/**
 * How long a test waits for a reply to end or a title to appear. The fake brains' slow streams take about 6 s, and a
 * two-core machine running the whole suite beside other work has taken several times that.
 */
export const REPLY_WAIT_MS = 90_000;

/** A host of a test's own (support/own-host.ts); without one, the run's shared host. */
export interface HostAddress {
  readonly launchUrl: string;
  readonly origin: string;
}

/** How long the reading of what was last seen may take: it may be the host that stopped answering. */
const LOOK_MS = 5_000;

function ask<Name extends Parameters<typeof command>[1]>(page: Page, host: HostAddress | undefined, name: Name, input: unknown) {
  return host === undefined ? command(page.request, name, input) : hostCommand(page.request, host, name, input);
}

async function withinLook<T>(reading: Promise<T>, fallback: (error: unknown) => string): Promise<T | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${LOOK_MS / 1000} s`), LOOK_MS);
  });
  try {
    return await Promise.race([reading.catch((error: unknown) => fallback(error)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for `reply` (a message of the window) to show `status`; past the bound, says what it saw. */
export async function expectReplyStatus(page: Page, reply: Locator, status: MessageStatus, host?: HostAddress): Promise<void> {
  try {
    await expect(reply).toHaveAttribute('data-status', status, { timeout: REPLY_WAIT_MS });
  } catch (error) {
    const shown = await withinLook(reply.getAttribute('data-status', { timeout: LOOK_MS }), () => 'no such message');
    const messageId = await withinLook(reply.getAttribute('data-message-id', { timeout: LOOK_MS }), () => 'unknown');
    const conversationId = await shownConversationId(page).catch(() => null);
    let stored: unknown = 'no conversation shown';
    if (conversationId !== null) {
      stored = await withinLook(
        ask(page, host, 'listMessages', { conversationId, limit: 500 }).then((listed) => {
          const row = (listed as { messages: readonly { id: string; status: string; text: string }[] }).messages.find((message) => message.id === messageId);
          return row === undefined ? `no message ${String(messageId)}` : `${row.status} with ${row.text.length} characters`;
        }),
        (failure) => `the host did not say (${failure instanceof Error ? failure.message : String(failure)})`,
      );
    }
    throw new Error(
      `Waited ${REPLY_WAIT_MS / 1000} s for the reply ${String(messageId)} to be ${status}: the window showed ${String(shown)}; the host had stored ${String(stored)}.`,
      { cause: error },
    );
  }
}

/** Waits for the sidebar to list a conversation titled `title`; past the bound, says what the window and the host had. */
export async function expectConversationListed(page: Page, title: string, host?: HostAddress): Promise<Locator> {
  const row = page.getByTestId('conversation-list').getByText(title, { exact: true });
  try {
    await expect(row.first()).toBeVisible({ timeout: REPLY_WAIT_MS });
    return row.first();
  } catch (error) {
    const conversationId = await shownConversationId(page).catch(() => null);
    const stored = await withinLook(
      ask(page, host, 'listConversations', {}).then((listed) => {
        const titles = (listed as readonly { id: string; title: string }[]).map((conversation) => `${conversation.id}: ${conversation.title}`);
        return titles.length === 0 ? 'no conversations' : titles.slice(0, 10).join('; ');
      }),
      (failure) => `the host did not say (${failure instanceof Error ? failure.message : String(failure)})`,
    );
    throw new Error(
      `Waited ${REPLY_WAIT_MS / 1000} s for the sidebar to list "${title}": the window showed conversation ${String(conversationId)}; the host had ${String(stored)}.`,
      { cause: error },
    );
  }
}
