/**
 * testBrain: one model-list call with the key and base URL a turn would use, and the same refusals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { openCore } from '../app';
import { offeredModels } from '../../../src-shared/models/catalogue';

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

  it('asks a keyless Ollama for its pulled models', async () => {
    const core = coreWith({ ANYBRAIN_OLLAMA_BASE_URL: fake.baseUrlFor('ollama') });
    expect(await core.dispatch('testBrain', { brain: 'ollama' })).toEqual({
      ok: true,
      value: { ok: true, message: `Ollama answered: ${offeredModels('ollama').length} models available.`, models: offeredModels('ollama') },
    });
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
