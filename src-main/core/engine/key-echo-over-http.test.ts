/**
 * A provider that echoes the key it was sent in its error body, on every wire: the key (and anything shaped like a
 * provider's key) never reaches the stored reply, the window's events or any export.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { KEY_SHAPED_CANARY } from '../../../e2e/fake-brains/script';
import { BRAIN_IDS } from '../../../src-shared/brains';
import { listAllMessages } from '../store/messages';
import { exportConversation } from '../transcripts/export';
import { REDACTED_KEY } from '../secrets/redact';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();
// No provider's shape: only the known-key path can catch it.
const CANARY_KEY = 'canary-key-7f1c9e2b4a6d8f0e';

describe.each(BRAIN_IDS)('an error body echoing the key on %s', (brain) => {
  it('is stored, shown and exported without the key', async () => {
    const { db, events, engine } = engineOverFakeBrains(fake, brain, { connectionFor: (target) => ({ baseUrl: fake.baseUrlFor(target), apiKey: CANARY_KEY }) });
    const message = await engine.send('c1', 'hi [echo-key]').done;
    expect(message.status).toBe('failed');
    expect(message.error?.message).toContain(`Incorrect API key provided: ${REDACTED_KEY}. Keys on this project: ${REDACTED_KEY}.`);
    const stored = JSON.stringify(listAllMessages(db, 'c1'));
    const shown = JSON.stringify(events);
    const exported = (['json', 'md', 'html'] as const).map((format) => exportConversation(db, 'c1', format).content).join('\n');
    for (const place of [stored, shown, exported]) {
      expect(place).not.toContain(CANARY_KEY);
      expect(place).not.toContain(KEY_SHAPED_CANARY);
    }
    expect(exported).toContain(REDACTED_KEY);
  });
});

it('an export of a reply stored before redaction leaves out key-shaped text', async () => {
  const { db, engine } = engineOverFakeBrains(fake, 'claude');
  await engine.send('c1', 'hi [status:401]').done;
  db.$client.prepare(`UPDATE messages SET error = json_set(error, '$.message', ?) WHERE role = 'assistant'`).run(`The provider refused the API key: ${KEY_SHAPED_CANARY}`);
  const exported = exportConversation(db, 'c1', 'json').content;
  expect(exported).not.toContain(KEY_SHAPED_CANARY);
  expect(exported).toContain(`The provider refused the API key: ${REDACTED_KEY}`);
});
