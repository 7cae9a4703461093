/**
 * The reasoning and output-limit fields of each wire's body, exactly, per model and level: what the per-model table
 * (src-shared/reasoning.ts) makes each converter send.
 */
import { describe, expect, it } from 'vitest';
import type { BrainId, ReasoningLevel } from '../../../../src-shared/brains';
import { BRAINS } from '../../../../src-shared/brains';
import type { ReplayRequest } from '../types';
import { buildWireRequest } from './index';

function body(brain: BrainId, model: string, reasoningLevel: ReasoningLevel, maxOutputTokens = 32000): Record<string, unknown> {
  const request: ReplayRequest = {
    brain,
    model,
    reasoningLevel,
    system: 'SYSTEM',
    turns: [{ messageId: 'u1', role: 'user', kind: 'chat', text: 'Hi', calls: [] }],
    tools: [],
    maxOutputTokens,
    contextWindow: 200_000,
    cacheKey: 'anybrain-c1',
  };
  return buildWireRequest(BRAINS[brain].wire, request).body;
}

/** Only the body fields that carry reasoning or the output limit, in the body's own key order. */
function reasoningPart(brain: BrainId, model: string, level: ReasoningLevel, maxOutputTokens = 32000): Record<string, unknown> {
  const whole = body(brain, model, level, maxOutputTokens);
  const keys = ['max_tokens', 'max_completion_tokens', 'max_output_tokens', 'thinking', 'output_config', 'reasoning', 'think', 'generationConfig'];
  return Object.fromEntries(Object.entries(whole).filter(([key]) => keys.includes(key)));
}

describe('anthropic-messages reasoning per model', () => {
  it.each<[string, ReasoningLevel, Record<string, unknown>]>([
    // Claude 4.6 deprecates budget_tokens: adaptive thinking with an effort; off sends no thinking at all.
    ['claude-sonnet-4-6', 'off', { max_tokens: 32000 }],
    ['claude-sonnet-4-6', 'low', { max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }],
    ['claude-opus-4-6', 'medium', { max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } }],
    ['claude-sonnet-4-6-20260215', 'high', { max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }],
    // Older models keep budget_tokens.
    ['claude-haiku-4-5', 'off', { max_tokens: 32000 }],
    ['claude-haiku-4-5', 'low', { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 2048 } }],
    ['claude-opus-4-5', 'high', { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 24576 } }],
    // Adaptive-only models cannot be told not to think: off is their lowest effort.
    ['claude-fable-5', 'off', { max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }],
    ['claude-sonnet-5', 'high', { max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }],
  ])('claude %s at %s', (model, level, expected) => {
    expect(reasoningPart('claude', model, level)).toEqual(expected);
  });

  it.each<[string, ReasoningLevel, Record<string, unknown>]>([
    // GLM thinks unless told not to, and has no dial between on and off.
    ['glm-5.1', 'off', { max_tokens: 32000, thinking: { type: 'disabled' } }],
    ['glm-5.1', 'low', { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 24576 } }],
    ['glm-4.7', 'high', { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 24576 } }],
  ])('glm %s at %s', (model, level, expected) => {
    expect(reasoningPart('glm', model, level)).toEqual(expected);
  });

  it('keeps a thinking budget below max_tokens, and sends none when the room is under 1,024 tokens', () => {
    // "`max_tokens` must be greater than `thinking.budget_tokens`."
    expect(reasoningPart('glm', 'glm-5.1', 'high', 24576)).toEqual({ max_tokens: 24576, thinking: { type: 'enabled', budget_tokens: 12288 } });
    expect(reasoningPart('claude', 'claude-haiku-4-5', 'low', 3000)).toEqual({ max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(reasoningPart('claude', 'claude-haiku-4-5', 'low', 2048)).toEqual({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(reasoningPart('glm', 'glm-5.1', 'high', 2000)).toEqual({ max_tokens: 2000 });
  });
});

describe('openai-responses reasoning per model', () => {
  it.each<[BrainId, string, ReasoningLevel, Record<string, unknown>]>([
    // Off is the lowest effort the model has, never nothing.
    ['codex', 'gpt-5.5-codex', 'off', { reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 32000 }],
    ['codex', 'gpt-5.5-codex', 'medium', { reasoning: { effort: 'medium', summary: 'auto' }, max_output_tokens: 32000 }],
    ['codex', 'gpt-5.5', 'off', { reasoning: { effort: 'none' }, max_output_tokens: 32000 }],
    ['codex', 'gpt-5.6', 'high', { reasoning: { effort: 'high', summary: 'auto' }, max_output_tokens: 32000 }],
    ['grok', 'grok-4.3', 'off', { reasoning: { effort: 'none' }, max_output_tokens: 32000 }],
    ['grok', 'grok-4.3', 'low', { reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 32000 }],
    // Grok 4 and 4.20 refuse reasoning.effort: nothing is sent, whatever the level.
    ['grok', 'grok-4', 'off', { max_output_tokens: 32000 }],
    ['grok', 'grok-4.20', 'high', { max_output_tokens: 32000 }],
  ])('%s %s at %s', (brain, model, level, expected) => {
    expect(reasoningPart(brain, model, level)).toEqual(expected);
  });
});

describe('chat-completions (kimi) reasoning and output limit', () => {
  it.each<[string, ReasoningLevel, Record<string, unknown>]>([
    // Without an output limit Moonshot's default (about 1,024 tokens, reasoning included) applies.
    ['kimi-k2.6', 'off', { max_completion_tokens: 32000, thinking: { type: 'disabled' } }],
    ['kimi-k2.6', 'medium', { max_completion_tokens: 32000, thinking: { type: 'enabled', keep: 'all' } }],
    ['kimi-k2.5', 'high', { max_completion_tokens: 32000, thinking: { type: 'enabled' } }],
  ])('kimi %s at %s', (model, level, expected) => {
    expect(reasoningPart('kimi', model, level)).toEqual(expected);
  });
});

describe('gemini-generate-content reasoning per model', () => {
  it.each<[string, ReasoningLevel, Record<string, unknown>]>([
    // Gemini 3 takes thinkingLevel, never beside thinkingBudget.
    ['gemini-3.1-pro-preview', 'off', { generationConfig: { maxOutputTokens: 32000, thinkingConfig: { includeThoughts: true, thinkingLevel: 'low' } } }],
    ['gemini-3.1-pro-preview', 'medium', { generationConfig: { maxOutputTokens: 32000, thinkingConfig: { includeThoughts: true, thinkingLevel: 'medium' } } }],
    ['gemini-3-pro-preview', 'medium', { generationConfig: { maxOutputTokens: 32000, thinkingConfig: { includeThoughts: true, thinkingLevel: 'high' } } }],
    ['gemini-3-flash-preview', 'off', { generationConfig: { maxOutputTokens: 32000, thinkingConfig: { includeThoughts: false, thinkingLevel: 'minimal' } } }],
    ['gemini-2.5-pro', 'low', { generationConfig: { maxOutputTokens: 32000, thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } }],
  ])('gemini %s at %s', (model, level, expected) => {
    expect(reasoningPart('gemini', model, level)).toEqual(expected);
  });
});

describe('ollama-chat reasoning per model', () => {
  it.each<[string, ReasoningLevel, Record<string, unknown>]>([
    // Thinking models think unless sent think: false.
    ['qwen3', 'off', { think: false }],
    ['qwen3', 'low', { think: true }],
    ['gpt-oss', 'off', { think: 'low' }],
    ['gpt-oss', 'high', { think: 'high' }],
    // A model without thinking never gets a truthy think ("does not support thinking").
    ['llama3.3', 'high', {}],
    // A model the table does not know: off is think: false, which any model accepts; a level turns thinking on.
    ['mistral-small', 'off', { think: false }],
    ['mistral-small', 'medium', { think: true }],
  ])('ollama %s at %s', (model, level, expected) => {
    expect(reasoningPart('ollama', model, level)).toEqual(expected);
  });
});
