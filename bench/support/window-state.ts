/**
 * What a browser benchmark can see of the window and of the host's store when a wait lapses, in one line each, for
 * the message `bounded-wait.ts` fails with. Read only then: never inside a measured section.
 */

/** What the page shows; read in the page's own world (see `WINDOW_STATE_SCRIPT`). */
export interface WindowState {
  readonly conversations: number;
  readonly messages: number;
  readonly replies: number;
  /** The last assistant row's `data-status`, null without one. */
  readonly lastReplyStatus: string | null;
  /** The last assistant row's text length in characters (as rendered, without the Markdown syntax). */
  readonly lastReplyLength: number;
  readonly loadingOlder: boolean;
}

/** Run in the page (`page.evaluate(WINDOW_STATE_SCRIPT)`): a string, so it carries nothing from this module. */
export const WINDOW_STATE_SCRIPT = `(() => {
  const replies = Array.from(document.querySelectorAll('[data-testid="message"][data-role="assistant"]'));
  const last = replies.at(-1);
  return {
    conversations: document.querySelectorAll('[data-testid="conversation-item"]').length,
    messages: document.querySelectorAll('[data-testid="message"]').length,
    replies: replies.length,
    lastReplyStatus: last ? last.getAttribute('data-status') : null,
    lastReplyLength: last ? (last.querySelector('[data-testid="message-text"]')?.textContent?.length ?? 0) : 0,
    loadingOlder: document.querySelector('.loading-older') !== null,
  };
})()`;

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

export function formatWindowState(state: WindowState): string {
  const parts = [`the window showed ${plural(state.conversations, 'conversation')} in the sidebar and ${plural(state.messages, 'message')}`];
  if (state.lastReplyStatus !== null) {
    parts.push(`the last reply had status ${state.lastReplyStatus} and ${plural(state.lastReplyLength, 'character')} rendered`);
  }
  if (state.loadingOlder) parts.push('"Loading older messages…" was still shown');
  return parts.join('; ');
}

/** The `message-delta` events the page had read, and how long before the lapse the last one came. */
export function formatDeltaArrivals(count: number, msSinceLast: number | null): string {
  if (count === 0 || msSinceLast === null) return 'the page had read no message-delta event';
  return `the page had read ${plural(count, 'message-delta event')}, the last ${(msSinceLast / 1_000).toFixed(1)} s before`;
}

/** The newest reply row in the host's store. */
export interface StoredReply {
  readonly status: string;
  readonly length: number;
}

export function formatStoredReply(reply: StoredReply | null): string {
  return reply === null ? 'the store held no reply' : `the store held the newest reply with status ${reply.status} and ${plural(reply.length, 'character')}`;
}
