/**
 * The newest reply replays as it was written, on every wire: the turn after a reply that ran tools starts with the
 * last request that reply made, byte for byte (what a provider's prompt cache reads back), then the reply's last
 * words. The real adapters against the fake brains over 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { BRAIN_IDS, type BrainId } from '../../../src-shared/brains';
import { updateConversation } from '../store/conversations';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();

type Body = Record<string, unknown>;

/** The part of a body a prompt cache reads as history, in the wire's own field. */
function historyOf(body: Body): unknown[] {
  return (body.messages ?? body.input ?? body.contents) as unknown[];
}

/** Anthropic's cache breakpoints mark where to cache, not what: they move from request to request by design. */
function withoutBreakpoints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBreakpoints);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'cache_control').map(([key, inner]) => [key, withoutBreakpoints(inner)]));
}

describe('the newest reply replays as it was written', () => {
  it.each(BRAIN_IDS)('%s: the next turn starts with the last request the reply made', async (brain: BrainId) => {
    const { db, engine } = engineOverFakeBrains(fake, brain);
    updateConversation(db, 'c1', { reasoningLevel: 'high' });
    const first = await engine.send('c1', 'Seoul and Paris? [think] [tool:current_time {"zone":"Asia/Seoul"}] [tool:current_time {"zone":"Europe/Paris"}]').done;
    expect(first.status).toBe('complete');
    const lastOfReply = fake.requests().at(-1)?.body as Body;
    await engine.send('c1', 'Thanks.').done;
    const next = fake.requests().at(-1)?.body as Body;

    const before = withoutBreakpoints(historyOf(lastOfReply)) as unknown[];
    const after = withoutBreakpoints(historyOf(next)) as unknown[];
    expect(after.slice(0, before.length)).toEqual(before);
    // What follows is the reply's last words, then the new message: none of the reply's calls is said twice.
    const rest = JSON.stringify(after.slice(before.length));
    expect(rest).toContain(JSON.stringify(first.text).slice(1, 40));
    expect(rest).toContain('Thanks.');
    expect(rest.split('"current_time"')).toHaveLength(1);
    expect(fake.violations()).toEqual([]);
  });

  it.each(BRAIN_IDS.filter((brain) => brain !== 'claude'))('%s takes the next turn after Claude\u2019s reply in rounds, each call in its own shape', async (brain: BrainId) => {
    const { db, engine } = engineOverFakeBrains(fake, 'claude');
    updateConversation(db, 'c1', { reasoningLevel: 'high' });
    const first = await engine.send('c1', 'Seoul and Paris? [think] [tool:current_time {"zone":"Asia/Seoul"}] [tool:current_time {"zone":"Europe/Paris"}]').done;
    expect(first.status).toBe('complete');
    updateConversation(db, 'c1', { brain, model: null });
    const next = await engine.send('c1', 'And London?').done;
    expect(next).toMatchObject({ status: 'complete', brain });
    const body = JSON.stringify(historyOf(fake.requests().at(-1)?.body as Body));
    expect(body).toContain('Asia/Seoul');
    expect(body).toContain('Europe/Paris');
    expect(fake.violations()).toEqual([]);
  });

  it.each(BRAIN_IDS)('%s, answering again after another brain, starts with the last request it made: older replies keep their shape', async (brain: BrainId) => {
    const other: BrainId = brain === 'kimi' ? 'claude' : 'kimi';
    const { db, engine } = engineOverFakeBrains(fake, brain);
    updateConversation(db, 'c1', { reasoningLevel: 'high' });
    await engine.send('c1', 'Seoul and Paris? [think] [tool:current_time {"zone":"Asia/Seoul"}] [tool:current_time {"zone":"Europe/Paris"}]').done;
    const lastOfReply = fake.requests().at(-1)?.body as Body;
    updateConversation(db, 'c1', { brain: other, model: null });
    await engine.send('c1', 'And London? [tool:current_time {"zone":"Europe/London"}]').done;
    updateConversation(db, 'c1', { brain, model: null });
    const back = await engine.send('c1', 'Thanks, both of you.').done;
    expect(back.status).toBe('complete');
    const before = withoutBreakpoints(historyOf(lastOfReply)) as unknown[];
    const after = withoutBreakpoints(historyOf(fake.requests().at(-1)?.body as Body)) as unknown[];
    expect(after.slice(0, before.length)).toEqual(before);
    expect(fake.violations()).toEqual([]);
  });
});

