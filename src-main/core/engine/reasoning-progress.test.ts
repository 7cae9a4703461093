import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../src-shared/api';
import { listAllMessages } from '../store/messages';
import { scriptedEngine } from './testing';

/** A clock the test moves by hand. */
function handClock(startIso: string) {
  let now = Date.parse(startIso);
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

const reasoningDeltas = (events: readonly ApiEvent[]) =>
  events.filter((event): event is Extract<ApiEvent, { type: 'reasoning-delta' }> => event.type === 'reasoning-delta');

describe('reasoning while a reply streams', () => {
  it('emits readable reasoning coalesced, before the words, and stores how long the brain reasoned', async () => {
    const clock = handClock('2026-11-30T11:00:00.000Z');
    const { db, events, scripted, engine } = scriptedEngine({ now: clock.now });
    const started = engine.send('c1', 'Why is the sky blue?');
    // The request goes out a few turns of the event loop after admission; the reasoning starts once it has.
    await vi.waitFor(() => expect(scripted.calls).toHaveLength(1));
    scripted.push({ type: 'reasoning-delta', text: 'Light ' }, { type: 'reasoning-delta', text: 'scatters ' }, { type: 'reasoning-delta', text: 'off air.' });
    // The clock moves only once the engine has read what was pushed, however busy the machine is.
    await vi.waitFor(() => expect(reasoningDeltas(events).length).toBeGreaterThan(0));
    clock.advance(12_000);
    scripted.push({ type: 'reasoning-opaque', opaque: { type: 'thinking', signature: 'sig-SECRET-1' } });
    await settle();
    clock.advance(400);
    scripted.push({ type: 'text-delta', text: 'Rayleigh ' });
    await vi.waitFor(() => expect(events.some((event) => event.type === 'message-delta')).toBe(true));
    // Time spent writing words is not reasoning time.
    clock.advance(5_000);
    scripted.push({ type: 'text-delta', text: 'scattering.' }, 'end');
    const message = await started.done;
    const { turnId } = started.result;

    // The first delta at once, the two that came in the same frame as one.
    expect(reasoningDeltas(events)).toEqual([
      { type: 'reasoning-delta', conversationId: 'c1', turnId, messageId: message.id, textDelta: 'Light ' },
      { type: 'reasoning-delta', conversationId: 'c1', turnId, messageId: message.id, textDelta: 'scatters off air.' },
    ]);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('reasoning-delta')).toBeLessThan(types.indexOf('message-delta'));

    expect(message.reasoning).toEqual({ text: 'Light scatters off air.', durationMs: 12_400 });
    expect(listAllMessages(db, 'c1')[1]?.reasoning).toEqual({
      brain: 'kimi',
      model: 'kimi-k2.6',
      text: 'Light scatters off air.',
      opaque: { blocks: [{ type: 'thinking', signature: 'sig-SECRET-1' }] },
      durationMs: 12_400,
    });
  });

  it('sends no opaque carrier to the window: the view and every event hold the readable text only', async () => {
    const clock = handClock('2026-11-30T11:00:00.000Z');
    const { events, scripted, engine } = scriptedEngine({ now: clock.now });
    const started = engine.send('c1', 'hi');
    // The reasoning starts once the request has gone out, a few turns of the event loop after admission.
    await vi.waitFor(() => expect(scripted.calls).toHaveLength(1));
    scripted.push({ type: 'reasoning-delta', text: 'Greet back.' }, { type: 'reasoning-opaque', opaque: { encrypted_content: 'ENC-SECRET', id: 'rs_SECRET' } });
    await vi.waitFor(() => expect(reasoningDeltas(events).length).toBeGreaterThan(0));
    clock.advance(3_000);
    scripted.push({ type: 'tool-call', providerCallId: 'call_1', name: 'current_time', input: { zone: 'UTC' } }, 'end');
    // The call has ended the reasoning once the next round's request has gone out.
    await vi.waitFor(() => expect(scripted.calls).toHaveLength(2));
    clock.advance(1_000);
    scripted.push({ type: 'text-delta', text: 'Hello!' }, 'end');
    const message = await started.done;

    expect(JSON.stringify(events)).not.toMatch(/SECRET/);
    // The call ended the reasoning: 3 s, not 4.
    expect(message).toEqual({
      id: message.id,
      conversationId: 'c1',
      seq: 1,
      turnId: started.result.turnId,
      role: 'assistant',
      kind: 'chat',
      text: 'Hello!',
      status: 'complete',
      error: null,
      brain: 'kimi',
      modelRequested: 'kimi-k2.6',
      modelResponded: null,
      modelMismatch: false,
      reasoningLevel: 'high',
      usage: null,
      compactedInto: null,
      coversThroughId: null,
      coveredMessages: 0,
      parentId: message.parentId,
      siblings: null,
      reasoning: { text: 'Greet back.', durationMs: 3_000 },
      attachments: [],
      spend: null,
      createdAt: message.createdAt,
      updatedAt: message.updatedAt,
    });
  });

  it('shows no reasoning on a reply that streamed none', async () => {
    const { events, scripted, engine } = scriptedEngine();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'text-delta', text: 'Hello.' }, 'end');
    const message = await started.done;
    expect(message.reasoning).toBeNull();
    expect(reasoningDeltas(events)).toEqual([]);
  });
});
