/**
 * A transcript that begins with a summary of history it does not hold: every brain's request carries that summary,
 * labelled as one, at the head of the history.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationView, RequestPreview } from '../../../src-shared/api';
import { BRAIN_IDS } from '../../../src-shared/brains';
import { openCore } from '../app';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SUMMARY = 'Earlier, they chose Lisbon for the trip and booked the flights.';
const AT = '2026-11-01T09:00:00.000Z';

const transcript = JSON.stringify({
  format: 'anybrain.transcript',
  version: 1,
  conversation: { id: 'trip', title: 'Trip', created_at: AT },
  messages: [
    { id: 's', turn_id: 's', role: 'system', kind: 'summary', text: SUMMARY, created_at: AT },
    { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'Which hotel did we like?', created_at: AT },
    { id: 'a1', turn_id: 't1', role: 'assistant', kind: 'chat', text: 'The one by the river.', status: 'complete', brain: 'claude', model_requested: 'claude-sonnet-5-5', model_responded: 'claude-sonnet-5-5', created_at: AT },
  ],
});

describe('a summary that covers nothing in its conversation', () => {
  it('heads the history of every brain, labelled as a summary', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-head-summary-'));
    const core = openCore({ dataDir, env: {} });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
    const imported = await core.dispatch('importTranscript', { content: transcript });
    if (!imported.ok) throw new Error(imported.error.message);
    const conversationId = (imported.value as ConversationView).id;
    for (const brain of BRAIN_IDS) {
      const preview = await core.dispatch('previewRequest', { conversationId, brain, message: 'And the restaurant?' });
      if (!preview.ok) throw new Error(`${brain}: ${preview.error.message}`);
      const body = (preview.value as RequestPreview).body;
      const summaryAt = body.indexOf(SUMMARY);
      expect(summaryAt, brain).toBeGreaterThan(-1);
      expect(body.lastIndexOf("[System line, summary: neither the assistant's words nor the user's]", summaryAt), brain).toBeGreaterThan(-1);
      expect(summaryAt, brain).toBeLessThan(body.indexOf('Which hotel did we like?'));
    }
  });
});
