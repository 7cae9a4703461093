/**
 * What the untrusted-output tests share: a transcript file built from messages, and the watch on a page that records
 * every script execution (the `__pwned` tripwire's console line, any dialog) and every page error.
 */
import type { Page } from '@playwright/test';
import type { TranscriptMessage, TranscriptV1 } from '../../src-shared/transcript';

export const TRANSCRIPT_TIME = '2026-01-01T00:00:00.000Z';

export function transcriptFile(title: string, messages: TranscriptMessage[]): string {
  const document: TranscriptV1 = { format: 'anybrain.transcript', version: 1, conversation: { id: 'corpus', title, created_at: TRANSCRIPT_TIME }, messages };
  return JSON.stringify(document);
}

export function userMessage(id: string, text: string): TranscriptMessage {
  return { id, turn_id: `turn-${id}`, role: 'user', kind: 'chat', text, created_at: TRANSCRIPT_TIME };
}

export function replyMessage(id: string, text: string, extra: Partial<TranscriptMessage> = {}): TranscriptMessage {
  return {
    id,
    turn_id: `turn-${id}`,
    role: 'assistant',
    kind: 'chat',
    text,
    status: 'complete',
    brain: 'kimi',
    model_requested: 'kimi-k2.6',
    model_responded: 'kimi-k2.6',
    created_at: TRANSCRIPT_TIME,
    ...extra,
  };
}

export interface PageTripwires {
  readonly executions: string[];
  readonly pageErrors: string[];
}

/** Records a `__pwned` call (its console line), any dialog (dismissed) and any uncaught error of the page. */
export function watchPage(page: Page, tripwires: PageTripwires): void {
  page.on('console', (message) => {
    if (message.text().includes('__TRIPWIRE__')) tripwires.executions.push(message.text());
  });
  page.on('dialog', (dialog) => {
    tripwires.executions.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => tripwires.pageErrors.push(error.message));
}
