import { describe, expect, it } from 'vitest';
import { usageSummary } from './format';
import { brainLabel, brainOptions } from './brain-options';

describe('usageSummary', () => {
  it('lists the non-zero counts', () => {
    expect(usageSummary({ inputTokens: 1204, outputTokens: 356, cacheReadTokens: 0 })).toBe('1,204 in · 356 out tokens');
    expect(usageSummary({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 8, reasoningTokens: 5 })).toBe(
      '10 in · 2 out · 8 cached · 5 reasoning tokens',
    );
  });

  it('says nothing when nothing was counted', () => {
    expect(usageSummary(null)).toBeNull();
    expect(usageSummary({})).toBeNull();
  });
});

describe('brainOptions', () => {
  it('lists all seven brains from the static table before settings load', () => {
    expect(brainOptions(null).map((option) => [option.id, option.label, option.available])).toEqual([
      ['claude', 'Claude', true],
      ['codex', 'Codex', true],
      ['kimi', 'Kimi', true],
      ['grok', 'Grok', true],
      ['glm', 'GLM', true],
      ['gemini', 'Gemini', true],
      ['ollama', 'Ollama', true],
    ]);
  });

  it('labels a message without a brain as the assistant', () => {
    expect(brainLabel(null)).toBe('Assistant');
    expect(brainLabel('kimi')).toBe('Kimi');
  });
});
