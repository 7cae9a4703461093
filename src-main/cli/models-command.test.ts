import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { offeredModels } from '../../src-shared/models/catalogue';
import { openCore, type OpenedCore } from '../core/app';
import { modelsCommand, type ModelJson } from './models-command';
import { capture } from './captured-output';
import { useFakeBrains } from '../../e2e/fake-brains/use-fake-brains';
import { INVENTED_CLAUDE_MODEL } from '../../e2e/fake-brains/model-lists';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const fake = useFakeBrains();

function coreInTempFolder(env: Record<string, string> = {}): OpenedCore {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-models-'));
  const core = openCore({ dataDir, env });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  return core;
}

describe('anybrain models', () => {
  it("lists a brain's offered models and the ones with a window of your own, each figure with where it came from", async () => {
    const core = coreInTempFolder();
    expect(await core.dispatch('setModelWindow', { brain: 'claude', model: 'claude-opus-4-5', contextWindow: 300_000, outputLimit: null })).toMatchObject({ ok: true });
    const output = capture();
    expect(await modelsCommand(core, output, { brain: 'claude', json: true })).toBe(0);
    const models = JSON.parse(output.out) as ModelJson[];
    expect(models.map((model) => model.model)).toEqual([...offeredModels('claude'), 'claude-opus-4-5']);
    expect(models[2]).toEqual({
      brain: 'claude',
      model: 'claude-sonnet-5-5',
      default: true,
      offered: true,
      context_window: 1_000_000,
      output_limit: 128_000,
      window_source: 'model',
      window_reported_at: null,
      reasoning: { levels: ['low', 'medium', 'high'], default: 'high' },
      inputs: { images: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], pdfs: true },
      lifecycle: { stage: 'active' },
      // The price list names Claude Sonnet 5 as one line: Sonnet 5.5 is priced as it.
      price: { input_per_million: 2, output_per_million: 10, cache_read_per_million: 0.2, cache_write_per_million: 2.5, priced_as: 'claude-sonnet-5' },
      source: { page: 'https://platform.claude.com/docs/about-claude/models/overview', checked: '2026-12-07' },
    });
    expect(models.at(-1)).toMatchObject({
      model: 'claude-opus-4-5',
      offered: false,
      context_window: 300_000,
      output_limit: 64_000,
      window_source: 'override',
      lifecycle: { stage: 'deprecated', retiresAt: '2027-01-22', replacement: 'claude-opus-5-5' },
    });
  });

  it('says it in two lines a person reads, and refuses an unknown brain', async () => {
    const core = coreInTempFolder();
    const output = capture();
    expect(await modelsCommand(core, output, { brain: 'gemini' })).toBe(0);
    expect(output.out.split('\n').slice(0, 2)).toEqual([
      'gemini gemini-4-argon: 1,048,576 tokens, 65,536 out (from the catalogue); reasoning low/medium/high, medium by default',
      '  text, images (PNG, JPEG, WEBP), PDFs; no price known; read from https://ai.google.dev/gemini-api/docs/generate-content/latest-model on 2026-12-07',
    ]);
    const kimi = capture();
    expect(await modelsCommand(core, kimi, { brain: 'kimi' })).toBe(0);
    expect(kimi.out).toContain('\n  text, images (PNG, JPEG, WEBP); $0.95 in, $4 out per million tokens (cache: $0.16 read); read from ');
    const ollama = capture();
    expect(await modelsCommand(core, ollama, { brain: 'ollama' })).toBe(0);
    expect(ollama.out).toContain('; free on this machine; ');
    await expect(modelsCommand(core, capture(), { brain: 'hal' })).rejects.toThrow('Unknown brain "hal".');
  });

  it("asks the providers with --refresh and then shows their own figures, saying whose and when", async () => {
    const core = coreInTempFolder({ ANTHROPIC_API_KEY: 'sk-ant-test', ANYBRAIN_CLAUDE_BASE_URL: fake.baseUrlFor('claude'), ANYBRAIN_OLLAMA_BASE_URL: `${fake.url}/nobody` });
    const output = capture();
    expect(await modelsCommand(core, output, { brain: 'claude', refresh: true })).toBe(0);
    expect(output.err).toBe(`Claude answered: ${offeredModels('claude').length + 1} models available.\n`);
    expect(output.out.split('\n').slice(0, 2)).toEqual([
      `claude ${INVENTED_CLAUDE_MODEL.id}: 640,000 tokens, 96,000 out (from Anthropic, today); reasoning off/low/medium/high, off by default`,
      // Its reasoning and inputs are its family's, from the catalogue.
      '  text, images (PNG, JPEG, WEBP, GIF), PDFs; no price known; read from https://platform.claude.com/docs/about-claude/models/overview on 2026-12-07',
    ]);

    // A brain without a key is not asked; one that does not answer makes the command end in failure.
    const all = capture();
    expect(await modelsCommand(core, all, { refresh: true, json: true })).toBe(1);
    expect(all.err.split('\n')).toContain('Kimi: no key, not asked.');
    expect(all.err.split('\n')).toContain('Ollama answered HTTP 404: No fake brain at /nobody/api/tags');
    const models = JSON.parse(all.out) as ModelJson[];
    expect(models.find((model) => model.model === INVENTED_CLAUDE_MODEL.id)).toMatchObject({ offered: true, window_source: 'provider', context_window: 640_000 });
  });
});
