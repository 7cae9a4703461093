/**
 * The model list over real HTTP against the fake brains: each wire's path, auth header and answer shape.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { listCallFor, listModels } from './list-models';
import { offeredModels } from '../../../src-shared/models/catalogue';
import { reportedModel } from '../../../src-shared/models/reported';
import { INVENTED_CLAUDE_MODEL } from '../../../e2e/fake-brains/model-lists';

const fake = useFakeBrains();

describe('listModels', () => {
  const cases: ReadonlyArray<{ readonly brain: BrainId; readonly path: string; readonly models: readonly string[] }> = [
    { brain: 'claude', path: '/claude/v1/models?limit=1000', models: [...offeredModels('claude'), INVENTED_CLAUDE_MODEL.id] },
    { brain: 'glm', path: '/glm/v1/models?limit=1000', models: offeredModels('glm') },
    { brain: 'kimi', path: '/kimi/v1/models', models: offeredModels('kimi') },
    { brain: 'codex', path: '/codex/v1/models', models: offeredModels('codex') },
    { brain: 'gemini', path: '/gemini/v1beta/models?pageSize=1000', models: offeredModels('gemini') },
    { brain: 'ollama', path: '/ollama/api/tags', models: offeredModels('ollama') },
  ];

  for (const { brain, path, models } of cases) {
    it(`lists ${brain}'s models with one GET to ${path}`, async () => {
      const answer = await listModels({ wire: BRAINS[brain].wire, baseUrl: fake.baseUrlFor(brain), apiKey: 'sk-test' });
      expect(answer.ok && answer.models.map((model) => model.id)).toEqual(models);
      expect(fake.requests().map((request) => [request.method, request.path])).toEqual([['GET', path]]);
      expect(fake.violations()).toEqual([]);
    });
  }

  it("reads what Anthropic says of each model: window, output limit, inputs, life cycle", async () => {
    const answer = await listModels({ wire: 'anthropic-messages', baseUrl: fake.baseUrlFor('claude'), apiKey: 'sk-test' });
    expect(answer.ok && answer.models.find((model) => model.id === INVENTED_CLAUDE_MODEL.id)).toEqual(
      reportedModel(INVENTED_CLAUDE_MODEL.id, {
        displayName: 'Claude Nova 6',
        createdAt: '2026-11-20T00:00:00Z',
        contextWindow: 640_000,
        outputLimit: 96_000,
        images: true,
        pdfs: true,
        thinking: true,
        lifecycle: 'active',
      }),
    );
  });

  it("reports the provider's own error when the key is missing", async () => {
    const answer = await listModels({ wire: 'anthropic-messages', baseUrl: fake.baseUrlFor('claude'), apiKey: null });
    expect(answer).toEqual({ ok: false, answered: true, message: 'HTTP 401: x-api-key header is required' });
  });

  it('says it could not connect when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const answer = await listModels({ wire: 'ollama-chat', baseUrl: `http://127.0.0.1:${port}`, apiKey: null });
    expect(answer).toEqual({ ok: false, answered: false, message: `Could not connect: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('sends each wire its own auth header', () => {
    expect(listCallFor('anthropic-messages', 'k').headers).toEqual({ 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
    expect(listCallFor('chat-completions', 'k').headers).toEqual({ authorization: 'Bearer k' });
    expect(listCallFor('gemini-generate-content', 'k').headers).toEqual({ 'x-goog-api-key': 'k' });
    expect(listCallFor('ollama-chat', null).headers).toEqual({});
  });
});
