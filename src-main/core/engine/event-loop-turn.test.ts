import { describe, expect, it } from 'vitest';
import { newId } from '../store/clock';
import { insertMessage } from '../store/messages';
import type { AppDatabase } from '../store/open';
import { LONG_HISTORY_ROWS } from './event-loop-turn';
import { scriptedEngine, type ScriptedStream } from './testing';

const NOW = '2026-12-01T10:00:00.000Z';

function seedExchanges(db: AppDatabase, exchanges: number): void {
  for (let index = 0; index < exchanges; index += 1) {
    const turnId = newId();
    insertMessage(db, { id: newId(), conversationId: 'c1', seq: index * 2, turnId, role: 'user', text: `question ${index}`, status: 'complete', createdAt: NOW });
    insertMessage(db, {
      id: newId(), conversationId: 'c1', seq: index * 2 + 1, turnId, role: 'assistant', text: `answer ${index}`, status: 'complete',
      brain: 'claude', modelRequested: 'claude-sonnet-4-6', createdAt: NOW,
    });
  }
}

/** How many turns of the event loop pass, from now, before the provider is called. */
function loopTurnsBeforeTheCall(scripted: ScriptedStream): Promise<number> {
  return new Promise((resolve) => {
    let turns = 0;
    const next = (): void => {
      if (scripted.calls.length > 0) resolve(turns);
      else {
        turns += 1;
        setImmediate(next);
      }
    };
    setImmediate(next);
  });
}

describe('a turn\'s request and the event loop', () => {
  it('lets the loop turn after admission, after the window walk and after the build at any length', async () => {
    const { db, scripted, engine } = scriptedEngine({ brain: 'claude' });
    seedExchanges(db, 3);
    const started = engine.send('c1', 'And now?');
    // Whatever is due meanwhile (a window's command, another turn's delta) runs between the steps.
    const turns = loopTurnsBeforeTheCall(scripted);
    scripted.push({ type: 'text-delta', text: 'Done.' }, { type: 'finish', reason: 'stop', rawReason: 'stop' }, 'end');
    expect(await turns).toBe(3);
    expect(await started.done).toMatchObject({ status: 'complete', text: 'Done.' });
    expect(scripted.calls).toHaveLength(1);
  });

  it('reads a long history a page at a time, with a turn of the loop between pages', async () => {
    for (const [exchanges, pages] of [[LONG_HISTORY_ROWS / 2, 2], [LONG_HISTORY_ROWS, 3]] as const) {
      const { db, scripted, engine } = scriptedEngine({ brain: 'claude' });
      seedExchanges(db, exchanges);
      const started = engine.send('c1', 'And now?');
      const turns = loopTurnsBeforeTheCall(scripted);
      scripted.push({ type: 'text-delta', text: 'Done.' }, { type: 'finish', reason: 'stop', rawReason: 'stop' }, 'end');
      expect(await turns).toBe(3 + pages - 1);
      expect(await started.done).toMatchObject({ status: 'complete', text: 'Done.' });
      // Every row the history holds went out, the new message and the reply being written aside.
      const messages = scripted.calls[0]!.body.messages as unknown[];
      expect(messages).toHaveLength(exchanges * 2 + 1);
    }
  });

  it('stops a long history\'s turn between the steps, with nothing sent', async () => {
    const { db, scripted, engine } = scriptedEngine({ brain: 'claude' });
    seedExchanges(db, LONG_HISTORY_ROWS / 2);
    const started = engine.send('c1', 'And now?');
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.stop('c1')).toBe(true);
    expect(await started.done).toMatchObject({ status: 'stopped', text: '' });
    expect(scripted.calls).toHaveLength(0);
  });
});
