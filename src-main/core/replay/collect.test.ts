import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../store/messages';
import { collectReplayTurns } from './collect';

function row(overrides: Partial<MessageRow>): MessageRow {
  return {
    id: 'm', conversationId: 'c', seq: 0, turnId: 't', role: 'user', kind: 'chat', text: 'x', tokenEstimate: 1, status: 'complete',
    error: null, brain: null, modelRequested: null, modelResponded: null, reasoningLevel: null, reasoning: null, usage: null,
    compactedInto: null, streamOwner: null, createdAt: 't', updatedAt: 't', ...overrides,
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
});
