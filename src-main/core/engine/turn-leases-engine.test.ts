/**
 * The conversation's lease while a reply or a compaction runs (store/turn-leases.ts): a reply whose lease another
 * process took over ends with a sentence saying so, and a compaction the user starts holds the lease like a turn.
 */
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../src-shared/api';
import { replyStoreRefusalMessage } from '../store/write-failure';
import { ANSWERING_ELSEWHERE_MESSAGE, TURN_LEASE_RENEW_MS, takeTurnLease } from '../store/turn-leases';
import { inTransaction } from '../store/open';
import { scriptedEngine } from './testing';

const START = Date.parse('2026-11-30T11:00:00.000Z');

function withMovableClock() {
  let nowMs = START;
  const clock = { now: () => new Date(nowMs), move: (ms: number) => (nowMs += ms), nowMs: () => nowMs };
  return clock;
}

const ends = (events: ApiEvent[]) =>
  events.flatMap((event) => (event.type === 'turn-done' || event.type === 'turn-failed' ? [[event.type, event.message.status, event.message.text, event.message.error?.code ?? null]] : []));

describe('a reply whose lease another process took over', () => {
  it('ends at its next renewal with the sentence saying so, keeping the text shown', async () => {
    const clock = withMovableClock();
    const { db, events, scripted, engine } = scriptedEngine({ now: clock.now });
    const started = engine.send('c1', 'Tell me a story');
    scripted.push({ type: 'text-delta', text: 'Once upon a time' });
    await expect.poll(() => db.$client.prepare("SELECT text FROM messages WHERE role = 'assistant'").pluck().get()).toBe('Once upon a time');
    // The lease lapsed (this computer slept, say) and another process took the conversation.
    clock.move(60_000);
    inTransaction(db, () =>
      takeTurnLease(db, { conversationId: 'c1', turnId: 'elsewhere', holder: { owner: '999@other', token: 'other-token' }, nowMs: clock.nowMs(), isOwnerAlive: () => false }),
    );
    clock.move(TURN_LEASE_RENEW_MS);
    scripted.push({ type: 'text-delta', text: ', there was' });
    await started.done;
    expect(ends(events)).toEqual([['turn-failed', 'failed', expect.stringMatching(/^Once upon a time/), 'answering-elsewhere']]);
    const failed = events.find((event) => event.type === 'turn-failed');
    expect(failed?.type === 'turn-failed' ? failed.message.error?.message : null).toBe(replyStoreRefusalMessage('answering-elsewhere'));
    // The other process's lease stands.
    expect(db.$client.prepare('SELECT token FROM turn_leases WHERE conversation_id = ?').pluck().get('c1')).toBe('other-token');
  });

  it('goes on while its own lease is renewed', async () => {
    const clock = withMovableClock();
    const { events, scripted, engine } = scriptedEngine({ now: clock.now });
    const started = engine.send('c1', 'Tell me a story');
    scripted.push({ type: 'text-delta', text: 'Once' });
    clock.move(TURN_LEASE_RENEW_MS);
    await new Promise((resolve) => setTimeout(resolve, 30));
    scripted.push({ type: 'text-delta', text: ' upon a time' }, { type: 'finish', reason: 'stop', rawReason: 'stop' }, 'end');
    await started.done;
    expect(ends(events)).toEqual([['turn-done', 'complete', 'Once upon a time', null]]);
  });
});

describe('a compaction the user starts', () => {
  it('is refused while another process answers in the conversation', async () => {
    const clock = withMovableClock();
    const { db, engine } = scriptedEngine({ now: clock.now });
    inTransaction(db, () =>
      takeTurnLease(db, { conversationId: 'c1', turnId: 'elsewhere', holder: { owner: '999@other', token: 'other-token' }, nowMs: clock.nowMs(), isOwnerAlive: () => true }),
    );
    await expect(engine.compact('c1')).rejects.toThrow(ANSWERING_ELSEWHERE_MESSAGE);
  });

  it('holds the lease while it runs and lets it go at its end', async () => {
    const clock = withMovableClock();
    const { db, engine } = scriptedEngine({ now: clock.now });
    const lease = () => db.$client.prepare('SELECT count(*) FROM turn_leases WHERE conversation_id = ?').pluck().get('c1');
    const compacting = engine.compact('c1');
    expect(lease()).toBe(1);
    await compacting;
    expect(lease()).toBe(0);
  });
});
