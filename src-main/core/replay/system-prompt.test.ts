import { describe, expect, it } from 'vitest';
import { REASONING_LEVELS } from '../../../src-shared/brains';
import { buildSystemPrompt } from './system-prompt';

describe('the system prompt of a turn', () => {
  it('names the brain and model, and the skills sorted by name', () => {
    expect(buildSystemPrompt({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' }, [
      { name: 'whale-facts', description: 'Answer with whale facts.' },
      { name: 'summarise', description: 'Summarise in five bullets.' },
    ])).toBe(
      [
        'You are Kimi, answering in Anybrain, a desktop chat app in which the user can hand one conversation from one AI brain to another.',
        'Earlier assistant replies in this conversation may have been written by other brains; treat them as the conversation so far and carry on from them.',
        'Reply in Markdown.',
        '',
        'The user keeps these skills (saved instructions); run one with the run_skill tool when it fits the request:',
        '- summarise: Summarise in five bullets.',
        '- whale-facts: Answer with whale facts.',
        '',
        '<vessel>',
        'brain: kimi',
        'model: kimi-k2.6',
        '</vessel>',
      ].join('\n'),
    );
  });

  it('is the same text at every reasoning level, so a new level keeps the start of the request the cache knows', () => {
    const prompts = new Set(REASONING_LEVELS.map((reasoningLevel) => buildSystemPrompt({ brain: 'claude', model: 'claude-sonnet-5-5', reasoningLevel })));
    expect(prompts.size).toBe(1);
  });
});
