/**
 * Provider failures at the HTTP level, end to end: the turn engine with the real adapters against the fake brains over
 * 127.0.0.1. A stalled stream ends the turn with the brain named and the text so far kept; a 429's requested wait
 * reaches the stored message as a number.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import type { BrainId } from '../../../src-shared/brains';
import { streamProvider } from '../providers';
import { listAllMessages } from '../store/messages';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();

function engineFor(brain: BrainId) {
  // The wires' 90 s idle limit, shortened so the test waits 0.2 s.
  return engineOverFakeBrains(fake, brain, { stream: (call) => streamProvider({ ...call, idleTimeoutMs: 200 }), checkpointIntervalMs: 20 });
}

describe.each([
  { brain: 'claude', label: 'Claude' },
  { brain: 'kimi', label: 'Kimi' },
  { brain: 'ollama', label: 'Ollama' },
] as const)('a turn on $brain', ({ brain, label }) => {
  it('ends as failed when the stream stalls, naming the brain and keeping the text so far', async () => {
    const { db, events, engine } = engineFor(brain);
    const started = engine.send('c1', 'one two three four [stall]');
    const message = await started.done;
    expect(message).toMatchObject({
      status: 'failed',
      text: `Fake ${label} reply to: one`,
      error: { code: 'provider-stalled', message: `${label} stopped sending for 0.2 s; the reply so far is kept. Retry, or switch brain.`, retryable: true },
    });
    expect(listAllMessages(db, 'c1').at(-1)?.text).toBe(`Fake ${label} reply to: one`);
    expect(events.filter((event) => event.type === 'turn-failed')).toHaveLength(1);
    expect(fake.violations()).toEqual([]);
  });

  it("stores a 429's requested wait with the failed turn, after one request", async () => {
    const { engine } = engineFor(brain);
    const message = await engine.send('c1', 'hi [status:429] [retry-after:20]').done;
    expect(message.status).toBe('failed');
    expect(message.error).toMatchObject({ code: 'rate-limited', status: 429, retryable: true, retryAfterSeconds: 20 });
    expect(message.error?.message).toMatch(/\(HTTP 429\); the provider asks to wait 20 s: /);
    expect(fake.requests()).toHaveLength(1);
  });
});
