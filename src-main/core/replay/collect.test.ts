import { describe, expect, it } from 'vitest';
import type { InvocationRow } from '../store/invocations';
import type { MessageRow } from '../store/messages';
import { collectReplayTurns, liveReplayTurn } from './collect';

function row(overrides: Partial<MessageRow>): MessageRow {
  return {
    id: 'm', conversationId: 'c', seq: 0, turnId: 't', role: 'user', kind: 'chat', text: 'x', tokenEstimate: 1, status: 'complete',
    error: null, brain: null, modelRequested: null, modelResponded: null, reasoningLevel: null, reasoning: null, usage: null,
    compactedInto: null, coversThroughId: null, replayedTokensThrough: null, replayedRowsThrough: null, streamOwner: null, createdAt: 't', updatedAt: 't', parentId: null, onLivePath: 1, rounds: null, ...overrides,
  };
}

describe('collectReplayTurns', () => {
  it('keeps what happened: stopped and interrupted words stay, failed and empty replies go', () => {
    const turns = collectReplayTurns([
      row({ id: 'u1', text: 'question' }),
      row({ id: 'a1', role: 'assistant', brain: 'kimi', status: 'failed', text: 'half' }),
      row({ id: 'a2', role: 'assistant', brain: 'kimi', status: 'stopped', text: 'stopped words' }),
      row({ id: 'a3', role: 'assistant', brain: 'claude', status: 'interrupted', text: '' }),
      row({ id: 's1', role: 'system', kind: 'notice', text: 'Switched brain' }),
      row({ id: 'a4', role: 'assistant', brain: 'claude', status: 'complete', text: 'answer', reasoning: { brain: 'claude', model: 'm', text: 'r', opaque: { blocks: [] } } }),
    ]);
    expect(turns).toEqual([
      { messageId: 'u1', role: 'user', kind: 'chat', text: 'question', calls: [] },
      { messageId: 'a2', role: 'assistant', kind: 'chat', text: 'stopped words', calls: [], brain: 'kimi' },
      { messageId: 's1', role: 'system-line', kind: 'notice', text: 'Switched brain', calls: [] },
      {
        messageId: 'a4', role: 'assistant', kind: 'chat', text: 'answer', calls: [], brain: 'claude',
        reasoning: { brain: 'claude', model: 'm', text: 'r', opaque: { blocks: [] } },
      },
    ]);
  });

  it('gives the reply being written the call ids the stored reply keeps: ids count only the brain\u2019s own calls', () => {
    const invocation = (overrides: Partial<InvocationRow>): InvocationRow => ({
      id: 'i', turnId: 't', messageId: 'a1', seq: 0, kind: 'tool', server: null, tool: 'current_time', providerCallId: 'p', input: {},
      output: 'now', status: 'ok', opaque: null, startedAt: 't', endedAt: 't', images: null, ...overrides,
    });
    const memory = invocation({ id: 'i0', seq: 0, kind: 'memory', tool: 'memory', providerCallId: null, output: 'a note' });
    const first = invocation({ id: 'i1', seq: 1, providerCallId: 'p1' });
    const second = invocation({ id: 'i2', seq: 2, kind: 'skill', tool: 'whales', providerCallId: 'p2', status: 'error' });
    const reply = row({ id: 'a1', turnId: 't', role: 'assistant', brain: 'kimi', modelRequested: 'kimi-k2.6', text: 'Checked.' });
    const [, stored] = collectReplayTurns([row({ id: 'u1', turnId: 't' }), reply], new Map([['a1', [memory, first, second]]]));
    expect(stored?.calls.map((call) => [call.callId, call.name, call.isError])).toEqual([
      ['call_a1_0', 'current_time', false],
      ['call_a1_1', 'run_skill', true],
    ]);
    // While it was being written, the same reply made one call per round: its calls had the ids they keep.
    const reasoning = { brain: 'kimi' as const, model: 'kimi-k2.6', text: 'Skill next.', opaque: { blocks: [] } };
    const live = liveReplayTurn({ id: 'a1', brain: 'kimi', model: 'kimi-k2.6' }, [
      { text: 'Checking. ', reasoning: null, brainCalls: [first] },
      { text: 'Now the skill. ', reasoning, brainCalls: [second] },
    ]);
    expect(live).toEqual({
      messageId: 'a1', brain: 'kimi', model: 'kimi-k2.6',
      rounds: [
        { text: 'Checking. ', calls: [stored?.calls[0]] },
        { text: 'Now the skill. ', reasoning, calls: [stored?.calls[1]] },
      ],
    });
    expect(liveReplayTurn({ id: 'a1', brain: 'kimi', model: 'kimi-k2.6' }, [])).toBeNull();
  });

  it('carries an answer\u2019s images whole in the reply being written, and only named in the history', () => {
    const png = Buffer.from('not really a png').toString('base64');
    const invocation: InvocationRow = {
      id: 'i1', turnId: 't', messageId: 'a1', seq: 0, kind: 'tool', server: 'everything', tool: 'get-tiny-image', providerCallId: 'p1',
      input: {}, output: 'Here it is.', status: 'ok', opaque: null, startedAt: 't', endedAt: 't', images: [{ mimeType: 'image/png', data: png }],
    };
    const reply = row({ id: 'a1', turnId: 't', role: 'assistant', brain: 'claude', modelRequested: 'claude-opus-4-8', text: 'A logo.' });
    const [, stored] = collectReplayTurns([row({ id: 'u1', turnId: 't' }), reply], new Map([['a1', [invocation]]]));
    const live = liveReplayTurn({ id: 'a1', brain: 'claude', model: 'claude-opus-4-8' }, [{ text: '', reasoning: null, brainCalls: [invocation] }]);
    expect(live?.rounds[0]?.calls[0]?.images).toEqual([{ mimeType: 'image/png', byteLength: 16, data: png }]);
    expect(stored?.calls[0]?.images).toEqual([{ mimeType: 'image/png', byteLength: 16 }]);
    expect(stored?.calls[0]?.answer).toBe('Here it is.');
  });

  it('replays replies in the rounds they were written in, only the newest with its calls whole', () => {
    const invocation = (id: string, seq: number, messageId: string): InvocationRow => ({
      id, turnId: 't', messageId, seq, kind: 'tool', server: null, tool: 'current_time', providerCallId: `p${seq}`, input: {},
      output: 'noon', status: 'ok', opaque: null, startedAt: 't', endedAt: 't', images: null,
    });
    const reasoning = { brain: 'kimi' as const, model: 'kimi-k2.6', text: 'Seoul first.\n\nNow Paris.\n\nBoth known.', opaque: { blocks: [] } };
    const rounds = [
      { textLength: 7, reasoningTextLength: 12, reasoningBlockCount: 0, callCount: 1 },
      { textLength: 14, reasoningTextLength: 24, reasoningBlockCount: 0, callCount: 1 },
    ];
    const reply = (id: string) => row({ id, role: 'assistant', brain: 'kimi', modelRequested: 'kimi-k2.6', text: 'Seoul: Paris: done.', reasoning, rounds });
    const calls = (id: string) => [invocation(`${id}-0`, 0, id), invocation(`${id}-1`, 1, id)];
    const rows = [row({ id: 'u1' }), reply('a1'), row({ id: 'u2' }), reply('a2'), row({ id: 'u3' })];
    const invocations = new Map([['a1', calls('a1')], ['a2', calls('a2')]]);
    const [, older, , newest] = collectReplayTurns(rows, invocations, new Map(), { asWritten: true });
    const tagged = (text: string) => ({ brain: 'kimi', model: 'kimi-k2.6', text, opaque: { blocks: [] } });
    expect(older).toMatchObject({ messageId: 'a1', text: 'done.', calls: [], reasoning: tagged('Both known.') });
    expect(older?.roundsWhole).toBeUndefined();
    expect(older?.rounds?.map((round) => [round.text, round.calls.map((call) => call.callId)])).toEqual([
      ['Seoul: ', ['call_a1_0']],
      ['Paris: ', ['call_a1_1']],
    ]);
    expect(newest).toMatchObject({ messageId: 'a2', text: 'done.', calls: [], reasoning: tagged('Both known.'), roundsWhole: true });
    expect(newest?.rounds?.map((round) => [round.text, round.reasoning?.text, round.calls.map((call) => call.callId)])).toEqual([
      ['Seoul: ', 'Seoul first.', ['call_a2_0']],
      ['Paris: ', 'Now Paris.', ['call_a2_1']],
    ]);
    // Without the option (a transcript to summarise), and with ends that do not measure the reply, one message.
    expect(collectReplayTurns(rows, invocations)[3]?.rounds).toBeUndefined();
    const miscounted = new Map([['a1', calls('a1')], ['a2', calls('a2').slice(1)]]);
    const unmeasured = collectReplayTurns(rows, miscounted, new Map(), { asWritten: true })[3];
    expect([unmeasured?.text, unmeasured?.rounds]).toEqual(['Seoul: Paris: done.', undefined]);
  });
});
