import { describe, expect, it } from 'vitest';
import { BRAIN_IDS } from './brains';
import { contextLevel, contextPercent, describeContextShare, OLLAMA_TRAINED_LENGTH_CAP, resolveModelWindow, windowSourceWords } from './context-windows';
import { reportedModel } from './models/reported';
import { offeredModels } from './models/catalogue';

describe('resolveModelWindow', () => {
  it('knows every model the pickers offer by name', () => {
    for (const brain of BRAIN_IDS.filter((id) => id !== 'ollama')) {
      for (const model of offeredModels(brain)) expect(resolveModelWindow(brain, model).source, `${brain}/${model}`).toBe('model');
    }
  });

  it('holds the windows the providers publish', () => {
    const windowOf = (brain: Parameters<typeof resolveModelWindow>[0], model: string) => resolveModelWindow(brain, model).contextWindow;
    expect(windowOf('claude', 'claude-sonnet-4-6')).toBe(1_000_000);
    expect(windowOf('claude', 'claude-haiku-4-5')).toBe(200_000);
    expect(windowOf('codex', 'gpt-5.5-codex')).toBe(272_000);
    expect(windowOf('codex', 'gpt-5.6')).toBe(1_050_000);
    expect(windowOf('kimi', 'kimi-k2.6')).toBe(262_144);
    expect(windowOf('grok', 'grok-4')).toBe(256_000);
    expect(windowOf('grok', 'grok-4.3')).toBe(1_000_000);
    expect(windowOf('glm', 'glm-5.1')).toBe(200_000);
    expect(windowOf('gemini', 'gemini-3.1-pro-preview')).toBe(1_048_576);
    expect(windowOf('claude', 'claude-opus-5-5')).toBe(1_000_000);
    expect(windowOf('claude', 'claude-fable-5-2')).toBe(1_000_000);
    expect(windowOf('kimi', 'kimi-k3')).toBe(1_048_576);
    expect(windowOf('glm', 'glm-5.3')).toBe(1_000_000);
    expect(windowOf('grok', 'grok-4.5')).toBe(500_000);
    expect(resolveModelWindow('gemini', 'gemini-4-argon')).toMatchObject({ contextWindow: 1_048_576, outputLimit: 65_536, source: 'model' });
    // A Gemini 4 the catalogue does not name gets its generation's output limit, not the 8,192 of Gemini before 3.
    expect(resolveModelWindow('gemini', 'gemini-4-neon')).toMatchObject({ contextWindow: 1_048_576, outputLimit: 65_536, source: 'family' });
  });

  it('reads a dated snapshot as its model', () => {
    expect(resolveModelWindow('claude', 'claude-sonnet-4-6-20260215')).toMatchObject({ contextWindow: 1_000_000, source: 'model', note: null });
  });

  it('falls back to the family, then to a cautious default, and says so', () => {
    expect(resolveModelWindow('claude', 'claude-opus-4-9')).toEqual({
      brain: 'claude',
      model: 'claude-opus-4-9',
      contextWindow: 1_000_000,
      outputLimit: 32_000,
      source: 'family',
      reportedAt: null,
      note: "Anybrain does not know Claude's model claude-opus-4-9, so it uses the window of its family (claude-opus-4…): 1,000,000 tokens. Set it in Settings if that is wrong.",
    });
    expect(resolveModelWindow('claude', 'claude-3-5-sonnet')).toMatchObject({ contextWindow: 200_000, source: 'family' });
    expect(resolveModelWindow('kimi', 'moonshot-v1-8k')).toEqual({
      brain: 'kimi',
      model: 'moonshot-v1-8k',
      contextWindow: 32_768,
      outputLimit: 4_096,
      source: 'default',
      reportedAt: null,
      note: "Anybrain does not know the window of Kimi's model moonshot-v1-8k, so it assumes a cautious 32,768 tokens. Set it in Settings.",
    });
  });

  it("takes Ollama's num_ctx from the server, else its trained length up to a cap, else assumes Ollama's own default", () => {
    expect(resolveModelWindow('ollama', 'qwen3', { server: { numCtx: 40_960, trainedLength: 40_960 } })).toMatchObject({ contextWindow: 40_960, outputLimit: 4_096, source: 'server', note: null });
    expect(resolveModelWindow('ollama', 'qwen3', { server: { numCtx: null, trainedLength: 8_192 } })).toMatchObject({ contextWindow: 8_192, outputLimit: 4_096, source: 'server', note: null });
    expect(resolveModelWindow('ollama', 'qwen3', { server: { numCtx: null, trainedLength: 131_072 } })).toEqual({
      brain: 'ollama',
      model: 'qwen3',
      contextWindow: OLLAMA_TRAINED_LENGTH_CAP,
      outputLimit: 4_096,
      source: 'server',
      reportedAt: null,
      note: 'Ollama says qwen3 was trained for 131,072 tokens; Anybrain asks for 16,384 so this machine is not overloaded. Set a larger window in Settings if it has room for it.',
    });
    expect(resolveModelWindow('ollama', 'qwen3', { server: { numCtx: null, trainedLength: null } })).toMatchObject({ contextWindow: 4_096, source: 'default' });
    expect(resolveModelWindow('ollama', 'qwen3')).toMatchObject({ contextWindow: 4_096, source: 'default' });
    expect(resolveModelWindow('ollama', 'qwen3').note).toMatch(/^Ollama did not say how large qwen3's window is, so Anybrain asks it for 4,096 tokens/);
  });

  it("takes the provider's stored answer over the catalogue, and says when it was given", () => {
    const fetchedAt = '2026-12-07T09:00:00.000Z';
    const invented = reportedModel('claude-nova-6', { contextWindow: 640_000, outputLimit: 96_000 });
    expect(resolveModelWindow('claude', 'claude-nova-6', { reported: { model: invented, fetchedAt } })).toEqual({
      brain: 'claude',
      model: 'claude-nova-6',
      contextWindow: 640_000,
      outputLimit: 96_000,
      source: 'provider',
      reportedAt: fetchedAt,
      note: null,
    });
    // A provider that gives only the window keeps the catalogue's output limit.
    const windowOnly = reportedModel('kimi-k2.6', { contextWindow: 131_072 });
    expect(resolveModelWindow('kimi', 'kimi-k2.6', { reported: { model: windowOnly, fetchedAt } })).toMatchObject({ contextWindow: 131_072, outputLimit: 32_768, source: 'provider' });
    // A list that says nothing of size (OpenAI's, xAI's) leaves the catalogue's figures and word.
    expect(resolveModelWindow('grok', 'grok-4.3', { reported: { model: reportedModel('grok-4.3'), fetchedAt } })).toMatchObject({ contextWindow: 1_000_000, source: 'model' });
    // Ollama's trained length from the stored list is capped as the live one is.
    expect(resolveModelWindow('ollama', 'llama3.1', { reported: { model: reportedModel('llama3.1', { contextWindow: 131_072 }), fetchedAt } })).toMatchObject({
      contextWindow: OLLAMA_TRAINED_LENGTH_CAP,
      source: 'provider',
    });
  });

  it("lets the user's override win, one field at a time", () => {
    const overrides = { 'kimi/kimi-k2.6': { contextWindow: 128_000 }, 'ollama/qwen3': { outputLimit: 2_048 } };
    expect(resolveModelWindow('kimi', 'kimi-k2.6', { overrides })).toMatchObject({ contextWindow: 128_000, outputLimit: 32_768, source: 'override', note: null });
    expect(resolveModelWindow('ollama', 'qwen3', { overrides, server: { numCtx: 40_960, trainedLength: null } })).toMatchObject({ contextWindow: 40_960, outputLimit: 2_048, source: 'override' });
    expect(resolveModelWindow('kimi', 'kimi-k2.5', { overrides }).source).toBe('model');
  });
});

describe('windowSourceWords', () => {
  it('says where each window came from in the words every screen uses', () => {
    const now = new Date('2026-12-07T12:00:00.000Z');
    const words = (source: Parameters<typeof windowSourceWords>[0]['source'], reportedAt: string | null = null) => windowSourceWords({ brain: 'claude', source, reportedAt }, now);
    expect([words('model'), words('family'), words('default'), words('override'), words('server')]).toEqual([
      'from the catalogue',
      "a guess from the model's family",
      'a cautious default',
      'your setting',
      'as the server reports it',
    ]);
    expect(words('provider', '2026-12-07T01:00:00.000Z')).toBe('from Anthropic, today');
    expect(words('provider', '2026-12-06T23:00:00.000Z')).toBe('from Anthropic, yesterday');
    expect(words('provider', '2026-12-03T10:00:00.000Z')).toBe('from Anthropic, 4 days ago');
    expect(words('provider', '2026-11-02T10:00:00.000Z')).toBe('from Anthropic, on 2026-11-02');
  });
});

describe('context levels', () => {
  it('is fine below the warning line, a warning from it, an emergency from the emergency line', () => {
    expect(contextLevel(49_999, 100_000)).toBe('ok');
    expect(contextLevel(50_000, 100_000)).toBe('warning');
    expect(contextLevel(80_000, 100_000)).toBe('emergency');
    expect(contextLevel(70_000, 100_000, { warningPercent: 60, emergencyPercent: 90 })).toBe('warning');
  });

  it('says the share in words a person reads', () => {
    expect(describeContextShare(160_000, 262_144, 'kimi')).toBe("61 % of Kimi's window");
    expect(describeContextShare(314_000, 272_000, 'codex')).toBe("115 % of Codex's window");
    expect(contextPercent(10, 1_000_000)).toBe(1);
    expect(contextPercent(0, 1_000_000)).toBe(0);
  });
});
