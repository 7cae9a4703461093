/**
 * testBrain: one model-list call with the key and base URL a turn would use, and the same refusals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import type { SettingsView } from '../../../src-shared/api';
import { openCore } from '../app';
import { offeredModels } from '../../../src-shared/models/catalogue';
import { OLLAMA_TRAINED_LENGTH_CAP } from '../../../src-shared/context-windows';
import { INVENTED_CLAUDE_MODEL } from '../../../e2e/fake-brains/model-lists';

const fake = useFakeBrains();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function coreWith(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-test-brain-'));
  const core = openCore({ dataDir, env });
  cleanups.push(
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => core.dispose(),
  );
  return core;
}

async function settingsOf(core: ReturnType<typeof coreWith>): Promise<SettingsView> {
  const result = await core.dispatch('getSettings', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as SettingsView;
}

describe('testBrain', () => {
  it("reports the provider's model list, sending the key a turn would send", async () => {
    const core = coreWith({ MOONSHOT_API_KEY: 'sk-kimi-test', ANYBRAIN_KIMI_BASE_URL: fake.baseUrlFor('kimi') });
    expect(await core.dispatch('testBrain', { brain: 'kimi' })).toEqual({
      ok: true,
      value: { ok: true, message: 'Kimi answered: 3 models available.', models: offeredModels('kimi') },
    });
    expect(fake.requests().map((request) => [request.method, request.path, request.headers.authorization])).toEqual([
      ['GET', '/kimi/v1/models', '[redacted]'],
    ]);
  });

  it("reports the provider's own error", async () => {
    const core = coreWith({ ANTHROPIC_API_KEY: 'sk-ant-test', ANYBRAIN_CLAUDE_BASE_URL: `${fake.url}/nobody` });
    const result = await core.dispatch('testBrain', { brain: 'claude' });
    expect(result).toEqual({ ok: true, value: { ok: false, message: 'Claude answered HTTP 404: No fake brain at /nobody/v1/models' } });
  });

  it('sends nothing without a key', async () => {
    const core = coreWith({ ANYBRAIN_GEMINI_BASE_URL: fake.baseUrlFor('gemini') });
    expect(await core.dispatch('testBrain', { brain: 'gemini' })).toEqual({
      ok: true,
      value: { ok: false, message: 'No Gemini key yet: add one, or set GEMINI_API_KEY. Nothing was sent.' },
    });
    expect(fake.requests()).toEqual([]);
  });

  it('asks a keyless Ollama for its pulled models, then each one for its trained length', async () => {
    const core = coreWith({ ANYBRAIN_OLLAMA_BASE_URL: fake.baseUrlFor('ollama') });
    expect(await core.dispatch('testBrain', { brain: 'ollama' })).toEqual({
      ok: true,
      value: { ok: true, message: `Ollama answered: ${offeredModels('ollama').length} models available.`, models: offeredModels('ollama') },
    });
    expect(fake.requests().map((request) => [request.method, request.path])).toEqual([
      ['GET', '/ollama/api/tags'],
      ...offeredModels('ollama').map(() => ['POST', '/ollama/api/show']),
    ]);
    // The fake's models were trained for 40,960 tokens: more than a laptop is asked for unasked.
    const qwen = (await settingsOf(core)).context.modelWindows.find((row) => row.brain === 'ollama' && row.model === offeredModels('ollama')[0]);
    expect(qwen).toMatchObject({ contextWindow: OLLAMA_TRAINED_LENGTH_CAP, source: 'provider' });
  });

  it("keeps the provider's answer: the picker offers its models newest first, and its windows win over the catalogue", async () => {
    const core = coreWith({ ANTHROPIC_API_KEY: 'sk-ant-test', ANYBRAIN_CLAUDE_BASE_URL: fake.baseUrlFor('claude') });
    expect((await settingsOf(core)).brains.find((brain) => brain.brain === 'claude')).toMatchObject({ models: offeredModels('claude'), modelsListedAt: null });
    const tested = await core.dispatch('testBrain', { brain: 'claude' });
    const listed = [INVENTED_CLAUDE_MODEL.id, ...offeredModels('claude')];
    expect(tested).toEqual({ ok: true, value: { ok: true, message: `Claude answered: ${listed.length} models available.`, models: listed } });

    const after = await settingsOf(core);
    const claude = after.brains.find((brain) => brain.brain === 'claude');
    expect(claude?.models).toEqual(listed);
    expect(claude?.modelsListedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(after.context.modelWindows.find((row) => row.model === INVENTED_CLAUDE_MODEL.id)).toEqual({
      brain: 'claude',
      model: INVENTED_CLAUDE_MODEL.id,
      contextWindow: 640_000,
      outputLimit: 96_000,
      source: 'provider',
      reportedAt: claude?.modelsListedAt,
      note: null,
      override: null,
    });

    // Another base URL is another server: its models are not these.
    await core.dispatch('setBaseUrl', { brain: 'claude', baseUrl: `${fake.baseUrlFor('claude')}/elsewhere` });
    expect((await settingsOf(core)).brains.find((brain) => brain.brain === 'claude')).toMatchObject({ models: offeredModels('claude'), modelsListedAt: null });
  });

  it('refuses, as a turn would, to carry the key to a host it was not confirmed for', async () => {
    const core = coreWith({ MOONSHOT_API_KEY: 'sk-kimi-test', ANYBRAIN_KIMI_BASE_URL: fake.baseUrlFor('kimi') });
    await core.dispatch('setBaseUrl', { brain: 'kimi', baseUrl: fake.baseUrlFor('kimi').replace('127.0.0.1', 'localhost') });
    const host = new URL(fake.url).host;
    expect(await core.dispatch('testBrain', { brain: 'kimi' })).toEqual({
      ok: true,
      value: { ok: false, message: `Your Kimi key was confirmed for ${host}. Send it to ${host.replace('127.0.0.1', 'localhost')}? Confirm in Settings → Kimi.` },
    });
    expect(fake.requests()).toEqual([]);
  });
});
