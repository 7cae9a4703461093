/**
 * Refusals end to end: the turn engine with the real adapters against the fake brains over 127.0.0.1, on every wire
 * that has a refusal. The reply is stored as failed with code `refusal`, naming the brain and quoting the provider's
 * explanation, never retryable, and the words streamed before the refusal stay the reply's words.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { DEFAULT_REFUSAL_WORDS } from '../../../e2e/fake-brains/script';
import type { BrainId } from '../../../src-shared/brains';
import { listAllMessages } from '../store/messages';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();

const engineFor = (brain: BrainId) => engineOverFakeBrains(fake, brain);

describe.each([
  // Anthropic: `stop_reason: "refusal"` with `stop_details.explanation` (none when the fake is given no words).
  { brain: 'claude', explained: 'Claude declined to answer: Not this one.', unexplained: 'Claude declined to answer.' },
  { brain: 'glm', explained: 'GLM declined to answer: Not this one.', unexplained: 'GLM declined to answer.' },
  // Responses and Chat Completions: a refusal is always words (`refusal` content part, `delta.refusal`).
  { brain: 'codex', explained: 'Codex declined to answer: Not this one.', unexplained: `Codex declined to answer: ${DEFAULT_REFUSAL_WORDS}` },
  { brain: 'grok', explained: 'Grok declined to answer: Not this one.', unexplained: `Grok declined to answer: ${DEFAULT_REFUSAL_WORDS}` },
  { brain: 'kimi', explained: 'Kimi declined to answer: Not this one.', unexplained: `Kimi declined to answer: ${DEFAULT_REFUSAL_WORDS}` },
  // Gemini: `finishReason: "SAFETY"`, its category, with the `finishMessage` when there is one.
  { brain: 'gemini', explained: 'Gemini declined to answer (SAFETY): Not this one.', unexplained: 'Gemini declined to answer (SAFETY).' },
] as const)('a refused turn on $brain', ({ brain, explained, unexplained }) => {
  it('is stored as a failed refusal with the explanation, not as an empty reply', async () => {
    const { db, events, engine } = engineFor(brain);
    const message = await engine.send('c1', 'hi [empty] [refuse:Not this one.]').done;
    expect(message).toMatchObject({ status: 'failed', text: '', error: { code: 'refusal', message: explained, retryable: false } });
    expect(listAllMessages(db, 'c1').at(-1)).toMatchObject({ status: 'failed', text: '', error: { code: 'refusal', message: explained, retryable: false } });
    expect(events.filter((event) => event.type === 'turn-failed')).toHaveLength(1);
    expect(fake.violations()).toEqual([]);
  });

  it('keeps the words streamed before the refusal', async () => {
    const { db, engine } = engineFor(brain);
    const message = await engine.send('c1', 'hi [reply:The first part] [refuse]').done;
    expect(message).toMatchObject({ status: 'failed', text: 'The first part', error: { code: 'refusal', message: unexplained, retryable: false } });
    expect(listAllMessages(db, 'c1').at(-1)?.text).toBe('The first part');
    expect(fake.violations()).toEqual([]);
  });
});
