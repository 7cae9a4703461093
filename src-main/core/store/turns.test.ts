import { describe, expect, it } from 'vitest';
import { getConversation, insertConversation } from './conversations';
import { listInvocationsByMessage } from './invocations';
import { getMessage, listAllMessages } from './messages';
import { readBrainState, readCounters } from './settings';
import { openTestDatabase } from './test-database';
import { admitTurn, finishReply, titleFromMessage, type TurnAdmission } from './turns';

const NOW = '2026-11-30T11:00:00.000Z';
const LATER = '2026-11-30T11:00:05.000Z';

function setup() {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'New conversation', brain: 'kimi', model: null, now: '2026-01-01T00:00:00.000Z' });
  return db;
}

const LEASE_HOLDER = { owner: '42@host', token: 'token-1' };

const admission = (overrides: Partial<TurnAdmission> = {}): TurnAdmission => ({
  conversationId: 'c1',
  turnId: 't1',
  userText: 'What is the time in Seoul?\nAnd tomorrow?',
  brain: 'kimi',
  model: 'kimi-k2.6',
  reasoningLevel: 'high',
  streamOwner: '42@host',
  context: [
    { kind: 'skill', tool: 'clock', input: { input: 'Seoul' }, output: 'Use the clock.' },
    { kind: 'memory', tool: 'memory', input: { memoryId: 'm1' }, output: 'The user lives in Seoul.' },
  ],
  now: NOW,
  lease: { holder: LEASE_HOLDER, isOwnerAlive: () => true },
  ...overrides,
});

describe('admitTurn', () => {
  it('stores the user row, the streaming reply and the context as its invocations, and titles a new conversation', () => {
    const db = setup();
    const admitted = admitTurn(db, admission());
    expect(listAllMessages(db, 'c1').map((row) => [row.seq, row.role, row.status, row.turnId, row.text])).toEqual([
      [0, 'user', 'complete', 't1', 'What is the time in Seoul?\nAnd tomorrow?'],
      [1, 'assistant', 'streaming', 't1', ''],
    ]);
    expect(admitted.assistantRow).toMatchObject({ brain: 'kimi', modelRequested: 'kimi-k2.6', reasoningLevel: 'high', streamOwner: '42@host' });
    expect(admitted.contextInvocations.map((row) => [row.seq, row.kind, row.tool, row.messageId, row.status])).toEqual([
      [0, 'skill', 'clock', admitted.assistantRow.id, 'ok'],
      [1, 'memory', 'memory', admitted.assistantRow.id, 'ok'],
    ]);
    expect(admitted.conversation).toMatchObject({ title: 'What is the time in Seoul?', updatedAt: NOW });
  });

  it('retries without a new user row or context, and keeps a title already given', () => {
    const db = setup();
    admitTurn(db, admission());
    const retried = admitTurn(db, admission({ turnId: 't2', userText: null, now: LATER }));
    expect(retried.userRow).toBeNull();
    expect(retried.assistantRow.seq).toBe(2);
    expect(retried.contextInvocations).toEqual([]);
    expect(retried.conversation).toMatchObject({ title: 'What is the time in Seoul?', updatedAt: LATER });
  });

  it('refuses a retry with nothing to answer, and stores nothing', () => {
    const db = setup();
    expect(() => admitTurn(db, admission({ userText: null }))).toThrow('There is no message to answer again in this conversation.');
    expect(listAllMessages(db, 'c1')).toEqual([]);
  });
});

describe('finishReply', () => {
  it('stores the final row, raises the counters, keeps the usage snapshot and the full flag, and touches the conversation', () => {
    const db = setup();
    const { assistantRow } = admitTurn(db, admission());
    const reasoning = { brain: 'kimi', model: 'kimi-k2.6', text: 'Clock first.', opaque: { blocks: [] } } as const;
    const finished = finishReply(db, {
      leaseHolder: LEASE_HOLDER,
      conversationId: 'c1',
      messageId: assistantRow.id,
      brain: 'kimi',
      message: { text: 'It is 8 pm.', status: 'failed', error: null, modelResponded: 'kimi-k2.6', reasoning, usage: { inputTokens: 12 }, tokenEstimate: 9, now: LATER },
      counts: { quote_escape_normalizations: 2, unused: 0 },
      refused: { tokens: 200_000, model: 'kimi-k2.6' },
    });
    expect(finished.row).toMatchObject({ text: 'It is 8 pm.', status: 'failed', tokenEstimate: 9, streamOwner: null, reasoning, updatedAt: LATER });
    expect(getMessage(db, assistantRow.id)).toEqual(finished.row);
    expect(readCounters(db)).toEqual({ quote_escape_normalizations: 2 });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ usage: { inputTokens: 12 }, full: true, refusedTokens: 200_000, refusedModel: 'kimi-k2.6' });
    expect(finished.conversation?.updatedAt).toBe(LATER);
    expect(getConversation(db, 'c1')?.updatedAt).toBe(LATER);
    expect(listInvocationsByMessage(db, [assistantRow.id]).get(assistantRow.id)).toHaveLength(2);
  });

  it('leaves the brain state alone when there is neither usage nor a size refusal', () => {
    const db = setup();
    const { assistantRow } = admitTurn(db, admission());
    finishReply(db, {
      leaseHolder: LEASE_HOLDER,
      conversationId: 'c1',
      messageId: assistantRow.id,
      brain: 'kimi',
      message: { text: 'Partial', status: 'stopped', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 6, now: LATER },
      counts: {},
      refused: null,
    });
    expect(readBrainState(db, 'c1', 'kimi')).toBeNull();
  });

  it('clears the full flag once a reply on that brain completes', () => {
    const db = setup();
    const first = admitTurn(db, admission());
    finishReply(db, {
      leaseHolder: LEASE_HOLDER,
      conversationId: 'c1', messageId: first.assistantRow.id, brain: 'kimi',
      message: { text: '', status: 'failed', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 4, now: LATER },
      counts: {}, refused: { tokens: 9_000, model: 'kimi-k2.6' },
    });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: true });
    const second = admitTurn(db, admission({ turnId: 't2', userText: null, now: LATER }));
    finishReply(db, {
      leaseHolder: LEASE_HOLDER,
      conversationId: 'c1', messageId: second.assistantRow.id, brain: 'kimi',
      message: { text: 'Fits now.', status: 'complete', error: null, modelResponded: null, reasoning: null, usage: null, tokenEstimate: 7, now: LATER },
      counts: {}, refused: null,
    });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: false, refusedTokens: 9_000 });
  });
});

describe('titleFromMessage', () => {
  it('takes the first line, collapsed and cut to 60 characters, or the default title for a blank one', () => {
    expect(titleFromMessage('  Plan   the\ttrip\n details')).toBe('Plan the trip');
    expect(titleFromMessage('x'.repeat(80))).toBe(`${'x'.repeat(59)}…`);
    expect(titleFromMessage('   ')).toBe('New conversation');
  });

  it('reads Markdown as its words: no emphasis, heading, quote, list or code markers, links as their text', () => {
    expect(titleFromMessage('Give me a **short** plan for a garden, with a list')).toBe('Give me a short plan for a garden, with a list');
    expect(titleFromMessage('# Trip to *Lyon*\nDetails follow')).toBe('Trip to Lyon');
    expect(titleFromMessage('> Quote this: `npm run build` fails')).toBe('Quote this: npm run build fails');
    expect(titleFromMessage('- [ ] Fix the ~~old~~ new [parser](https://example.com/p) bug')).toBe('Fix the old new parser bug');
    expect(titleFromMessage('1. Read ![the chart](chart.png) and <https://example.com>')).toBe('Read the chart and https://example.com');
    expect(titleFromMessage('Why does _this_ break my_snake_case name?')).toBe('Why does this break my_snake_case name?');
    expect(titleFromMessage('```python\nprint(1)\n```')).toBe('print(1)');
    expect(titleFromMessage('**\n\n  Second line wins  ')).toBe('Second line wins');
    expect(titleFromMessage('---\n***')).toBe('New conversation');
    expect(titleFromMessage('Is 2 * 3 * 4 = 24 in `__init__` of my_module__v2 [draft][1]')).toBe('Is 2 * 3 * 4 = 24 in __init__ of my_module__v2 [draft][1]');
    expect(titleFromMessage('A __strong__ and ***very*** _odd_ ~~old~~ line')).toBe('A strong and very odd old line');
  });

  it('trims trailing stops and separators, Latin and CJK, and keeps a question a question', () => {
    expect(titleFromMessage('Plan the trip...')).toBe('Plan the trip');
    expect(titleFromMessage('Plan the trip: ')).toBe('Plan the trip');
    expect(titleFromMessage('What is the weather in Seoul today?')).toBe('What is the weather in Seoul today?');
    expect(titleFromMessage('서울 날씨 알려 주세요.')).toBe('서울 날씨 알려 주세요');
    expect(titleFromMessage('东京的天气。')).toBe('东京的天气');
    expect(titleFromMessage('东京的天气怎么样？')).toBe('东京的天气怎么样？');
  });

  it('cuts a long line at a word boundary, and a line without spaces anywhere, never inside an emoji', () => {
    const words = 'Write a detailed comparison of three garden layouts for a small north facing yard in Lyon';
    expect(titleFromMessage(words)).toBe('Write a detailed comparison of three garden layouts for a…');
    expect([...titleFromMessage(words)].length).toBeLessThanOrEqual(60);
    const chinese = '请'.repeat(70);
    expect(titleFromMessage(chinese)).toBe(`${'请'.repeat(59)}…`);
    const emoji = '🌱'.repeat(70);
    expect(titleFromMessage(emoji)).toBe(`${'🌱'.repeat(59)}…`);
    expect(titleFromMessage('🌱 Garden plan 🌻')).toBe('🌱 Garden plan 🌻');
  });
});
