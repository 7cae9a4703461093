/**
 * One conversation every converter test replays: two brains, calls, reasoning, a notice and a summary, Hangul and
 * emoji. Test support only.
 */
import type { ReplayCall, ReplayRequest, ReplayTurn, ToolDeclaration } from '../types';

export const TOOLS: ToolDeclaration[] = [
  { name: 'current_time', description: 'The current date and time.', inputSchema: { type: 'object', properties: { zone: { type: 'string' } } } },
  { name: 'read_file', description: 'Read a file in a granted folder.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

export const KIMI_CALL: ReplayCall = {
  callId: 'call_01KIMIREPLY000000000000000_0',
  providerCallId: 'functions.current_time:0',
  name: 'current_time',
  input: { zone: 'Asia/Seoul' },
  answer: '2026-11-30T20:00:00+09:00',
  isError: false,
  server: null,
};

export const CLAUDE_CALL: ReplayCall = {
  callId: 'call_01CLAUDEREPLY0000000000000_0',
  providerCallId: 'toolu_01A09q90qw90lq917835lq9',
  name: 'read_file',
  input: { path: 'notes/오늘.md' },
  answer: 'File not found',
  isError: true,
  server: null,
};

export const TURNS: ReplayTurn[] = [
  { messageId: 'u1', role: 'user', kind: 'chat', text: '지금 몇 시야? 👋', calls: [] },
  {
    messageId: '01KIMIREPLY000000000000000', role: 'assistant', kind: 'chat', text: 'It is 8 pm in Seoul. 🌙', calls: [KIMI_CALL],
    brain: 'kimi', model: 'kimi-k2.6',
    reasoning: { brain: 'kimi', model: 'kimi-k2.6', text: 'Need the clock first.', opaque: { blocks: [] } },
  },
  { messageId: 's1', role: 'system-line', kind: 'notice', text: 'Switched to Claude.', calls: [] },
  { messageId: 'u2', role: 'user', kind: 'chat', text: 'Read my notes for today.', calls: [] },
  {
    messageId: '01CLAUDEREPLY0000000000000', role: 'assistant', kind: 'chat', text: 'There is no note for today yet.', calls: [CLAUDE_CALL],
    brain: 'claude', model: 'claude-sonnet-4-6',
    reasoning: {
      brain: 'claude', model: 'claude-sonnet-4-6', text: 'Look for the file.',
      opaque: { blocks: [{ type: 'thinking', thinking: 'Look for the file.', signature: 'RXVjbGlkZWFu' }] },
    },
  },
  { messageId: 's2', role: 'system-line', kind: 'summary', text: 'Earlier: the user asked the time in Seoul.', calls: [] },
  { messageId: 'u3', role: 'user', kind: 'chat', text: 'Thanks. And now?', calls: [] },
];

export function fixtureRequest(overrides: Partial<ReplayRequest>): ReplayRequest {
  return {
    brain: 'claude',
    model: 'claude-sonnet-4-6',
    reasoningLevel: 'off',
    system: 'SYSTEM',
    turns: TURNS,
    tools: TOOLS,
    maxOutputTokens: 32000,
    contextWindow: 200_000,
    cacheKey: 'anybrain-c1',
    ...overrides,
  };
}

/** A reply that made `count` calls to current_time. */
export function manyCallsTurn(count: number): ReplayTurn {
  return {
    messageId: '01MANYCALLS000000000000000',
    role: 'assistant',
    kind: 'chat',
    text: 'Done.',
    brain: 'claude',
    model: 'claude-sonnet-4-6',
    calls: Array.from({ length: count }, (_, index) => ({
      callId: `call_01MANYCALLS000000000000000_${index}`,
      name: 'current_time',
      input: { zone: `Zone/${index}` },
      answer: `t${index}`,
      isError: false,
      server: null,
    })),
  };
}
