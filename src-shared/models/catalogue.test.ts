import { describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../brains';
import { MODEL_CATALOGUE, findModel, offeredModels } from './catalogue';
import { deprecationNotice, lifecycleLabel, retiredModelRefusal, spokenDate } from './lifecycle';

describe('the model catalogue', () => {
  it('names every model a picker offers, and each brain offers its default', () => {
    for (const brain of BRAIN_IDS) {
      const offered = offeredModels(brain);
      expect(offered, brain).toContain(BRAINS[brain].defaultModel);
      for (const model of offered) {
        const found = findModel(brain, model);
        expect(found.matched, `${brain}/${model}`).toBe('model');
        expect(found.entry.offered, `${brain}/${model}`).toBe(true);
        expect(found.entry.lifecycle.stage, `${brain}/${model}`).toBe('active');
      }
    }
  });

  it('holds one entry per model or family, each with where its figures were read and when', () => {
    const keys = MODEL_CATALOGUE.map((entry) => `${entry.brain}/${entry.family === true ? 'family' : 'model'}/${entry.match}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of MODEL_CATALOGUE) {
      expect(entry.source?.page, entry.match).toMatch(/^https:\/\//);
      expect(entry.source?.checked, entry.match).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.window.outputLimit, entry.match).toBeLessThanOrEqual(entry.window.contextWindow);
      expect(entry.reasoning.levels[entry.reasoning.defaultLevel], entry.match).toBeDefined();
      if (entry.lifecycle.stage !== 'active' && entry.lifecycle.replacement !== null) {
        expect(findModel(entry.brain, entry.lifecycle.replacement).entry.lifecycle.stage, entry.match).toBe('active');
      }
    }
  });

  it('finds a model by name, a dated snapshot as its model, else the longest family, else a cautious stand-in', () => {
    expect(findModel('claude', 'claude-sonnet-4-6-20260215')).toMatchObject({ matched: 'model', entry: { match: 'claude-sonnet-4-6' } });
    expect(findModel('claude', 'claude-opus-4-6-preview')).toMatchObject({ matched: 'family', entry: { match: 'claude-opus-4-6' } });
    expect(findModel('claude', 'claude-opus-4-9')).toMatchObject({ matched: 'family', entry: { match: 'claude-opus-4' } });
    expect(findModel('claude', 'claude-opus-5-7')).toMatchObject({ matched: 'family', entry: { match: 'claude-opus-5' } });
    expect(findModel('kimi', 'kimi-k3.1-pro')).toMatchObject({ matched: 'family', entry: { match: 'kimi-k3', window: { contextWindow: 1_048_576 } } });
    expect(findModel('ollama', 'qwen3:8b')).toMatchObject({ matched: 'family', entry: { match: 'qwen3' } });
    expect(findModel('ollama', 'Qwen3-VL:8b')).toMatchObject({ matched: 'family', entry: { match: 'qwen3-vl', inputs: { images: true } } });
    const unknown = findModel('grok', 'grok-9');
    expect(unknown).toMatchObject({ matched: 'unknown', entry: { source: null, inputs: { images: false, pdfs: false } } });
  });
});

describe('the life cycle', () => {
  it('refuses a shut-down model, naming its replacement', () => {
    expect(retiredModelRefusal('gemini', 'gemini-3-pro-preview')).toBe(
      "Gemini's model gemini-3-pro-preview was shut down on 9 March 2026, so Anybrain sends it nothing. Pick gemini-3.1-pro-preview in the model picker instead.",
    );
    expect(retiredModelRefusal('gemini', 'gemini-4-argon')).toBeNull();
    expect(lifecycleLabel('gemini', 'gemini-3-pro-preview')).toBe('shut down');
  });

  it('warns of a deprecated model, and of an overdue retirement as such', () => {
    expect(deprecationNotice('claude', 'claude-opus-4-5', null, '2026-12-07')).toBe(
      "Claude's model claude-opus-4-5 is deprecated and retires on 22 January 2027. Pick claude-opus-5-5 in the model picker instead.",
    );
    expect(deprecationNotice('claude', 'claude-sonnet-4-5-20250929', null, '2026-12-07')).toBe(
      "Claude's model claude-sonnet-4-5-20250929 is deprecated and was due to retire on 30 November 2026, so it may stop answering any day. Pick claude-sonnet-5-5 in the model picker instead.",
    );
    expect(deprecationNotice('claude', 'claude-sonnet-5-5')).toBeNull();
    expect(lifecycleLabel('claude', 'claude-opus-4-5')).toBe('deprecated · retires 22 January 2027');
    expect(spokenDate('2027-01-02')).toBe('2 January 2027');
  });
});
