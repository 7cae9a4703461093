import { describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS, REASONING_LEVELS } from './brains';
import { offeredModels } from './models/catalogue';
import { reasoningAbility, reasoningLevelsOf, resolveReasoningLevel } from './reasoning';

describe('the reasoning table', () => {
  it("gives every offered model a default it has, each level said on its brain's own wire", () => {
    for (const brain of BRAIN_IDS) {
      for (const model of [...offeredModels(brain), 'some-model-nobody-described']) {
        const ability = reasoningAbility(brain, model);
        expect(reasoningLevelsOf(ability), `${brain}/${model}`).toContain(ability.defaultLevel);
        for (const level of REASONING_LEVELS) {
          const reasoning = ability.levels[level];
          if (reasoning !== undefined) expect(reasoning.wire, `${brain}/${model}/${level}`).toBe(BRAINS[brain].wire);
        }
      }
    }
  });

  it("offers each model's own levels and defaults to what its provider does", () => {
    const described = (brain: (typeof BRAIN_IDS)[number], model: string) => {
      const ability = reasoningAbility(brain, model);
      return { levels: reasoningLevelsOf(ability), defaultLevel: ability.defaultLevel };
    };
    expect(described('claude', 'claude-sonnet-4-6')).toEqual({ levels: ['off', 'low', 'medium', 'high'], defaultLevel: 'off' });
    expect(described('claude', 'claude-fable-5')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'high' });
    expect(described('codex', 'gpt-5.5-codex')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'medium' });
    expect(described('codex', 'gpt-5.5')).toEqual({ levels: ['off', 'low', 'medium', 'high'], defaultLevel: 'off' });
    // Kimi K2.6 thinks by default.
    expect(described('kimi', 'kimi-k2.6')).toEqual({ levels: ['off', 'high'], defaultLevel: 'high' });
    expect(described('grok', 'grok-4.3')).toEqual({ levels: ['off', 'low', 'medium', 'high'], defaultLevel: 'low' });
    expect(described('grok', 'grok-4')).toEqual({ levels: ['high'], defaultLevel: 'high' });
    expect(described('glm', 'glm-5.1')).toEqual({ levels: ['off', 'high'], defaultLevel: 'high' });
    expect(described('gemini', 'gemini-3.1-pro-preview')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'high' });
    expect(described('gemini', 'gemini-3-pro-preview')).toEqual({ levels: ['low', 'high'], defaultLevel: 'high' });
    expect(described('ollama', 'qwen3')).toEqual({ levels: ['off', 'high'], defaultLevel: 'high' });
    expect(described('ollama', 'gpt-oss')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'medium' });
    expect(described('ollama', 'llama3.3')).toEqual({ levels: ['off'], defaultLevel: 'off' });
    expect(described('ollama', 'mistral-small')).toEqual({ levels: ['off', 'high'], defaultLevel: 'off' });
    expect(described('claude', 'claude-opus-5-5')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'medium' });
    expect(described('claude', 'claude-sonnet-5-5')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'high' });
    expect(described('codex', 'gpt-5.6-terra')).toEqual({ levels: ['off', 'low', 'medium', 'high'], defaultLevel: 'off' });
    // Kimi K3 and GLM-5.3 always reason, and take no switch.
    expect(described('kimi', 'kimi-k3')).toEqual({ levels: ['high'], defaultLevel: 'high' });
    expect(described('glm', 'glm-5.3')).toEqual({ levels: ['high'], defaultLevel: 'high' });
    expect(described('grok', 'grok-4.5')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'high' });
    // Gemini 4 takes thinkingLevel, never the legacy thinkingBudget.
    expect(described('gemini', 'gemini-4-argon')).toEqual({ levels: ['low', 'medium', 'high'], defaultLevel: 'medium' });
    expect(reasoningAbility('gemini', 'gemini-4-neon').levels.high).toEqual({
      wire: 'gemini-generate-content',
      fields: { thinkingConfig: { includeThoughts: true, thinkingLevel: 'high' } },
    });
  });

  it('matches dated snapshots by name and unknown ids by family', () => {
    expect(reasoningAbility('claude', 'claude-sonnet-4-6-20260215')).toBe(reasoningAbility('claude', 'claude-sonnet-4-6'));
    expect(reasoningAbility('claude', 'claude-opus-4-6-preview')).toBe(reasoningAbility('claude', 'claude-opus-4-6'));
    expect(reasoningAbility('ollama', 'qwen3:8b')).toBe(reasoningAbility('ollama', 'qwen3'));
    expect(reasoningAbility('ollama', 'llama3.1:70b')).toBe(reasoningAbility('ollama', 'llama3.3'));
  });
});

describe('resolveReasoningLevel', () => {
  it("is the model's default when nothing was picked, and the pick when the model has it", () => {
    expect(resolveReasoningLevel('kimi', 'kimi-k2.6', null)).toBe('high');
    expect(resolveReasoningLevel('kimi', 'kimi-k2.6', 'off')).toBe('off');
    expect(resolveReasoningLevel('claude', 'claude-sonnet-4-6', 'medium')).toBe('medium');
  });

  it('turns a pick the model lacks into the nearest level it has', () => {
    // A pick above off asked for reasoning: an on/off model reasons.
    expect(resolveReasoningLevel('kimi', 'kimi-k2.6', 'low')).toBe('high');
    expect(resolveReasoningLevel('gemini', 'gemini-3-pro-preview', 'medium')).toBe('high');
    // Off on a model that cannot stop reasoning is its lowest level.
    expect(resolveReasoningLevel('codex', 'gpt-5.5-codex', 'off')).toBe('low');
    expect(resolveReasoningLevel('ollama', 'gpt-oss', 'off')).toBe('low');
    // A model without thinking stays off whatever was picked.
    expect(resolveReasoningLevel('ollama', 'llama3.3', 'high')).toBe('off');
    expect(resolveReasoningLevel('grok', 'grok-4', 'off')).toBe('high');
  });
});
