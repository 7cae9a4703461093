/**
 * `anybrain request` prints the body `anybrain chat` with the same flags sends: the same bytes, for every brain and
 * reasoning flag, one resolver serving both. Runs the real command code and provider adapters against the fake
 * brains over loopback HTTP, handing one conversation from brain to brain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { BRAIN_IDS, BRAINS, type ReasoningLevel } from '../../src-shared/brains';
import { openCore, type OpenedCore } from '../core/app';
import { getConversation } from '../core/store/conversations';
import { chatCommand, requestCommand } from './commands';
import { capture } from './captured-output';

let fake: FakeBrains;
let core: OpenedCore;
let dataDir: string;

beforeAll(async () => {
  fake = await startFakeBrains({ openAiSpecPath: null });
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-request-chat-'));
  const env: Record<string, string> = {};
  for (const brain of BRAIN_IDS) env[BRAINS[brain].baseUrlVariable] = fake.baseUrlFor(brain);
  core = openCore({ dataDir, env });
});

afterAll(async () => {
  await core.dispose();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('anybrain request and anybrain chat', () => {
  it('send the same bytes for all seven brains, with and without --reasoning', async () => {
    const first = capture();
    expect(await chatCommand(core, first, { brain: 'kimi', text: 'hello there' })).toBe(0);
    const conversation = first.err.trim();
    const flags: ReadonlyArray<ReasoningLevel | undefined> = [undefined, 'high', 'off', undefined];
    let turn = 0;
    for (const reasoning of flags) {
      for (const brain of BRAIN_IDS) {
        turn += 1;
        const text = `turn ${turn} for ${brain}`;
        const reasoningFlag = reasoning === undefined ? {} : { reasoning };
        if (reasoning === undefined) {
          // A level picked in the window on the brain that answered last belongs to that brain's model, not to the next.
          const lastBrain = getConversation(core.db, conversation)?.brain ?? null;
          if (lastBrain !== null) expect((await core.dispatch('setConversationBrain', { id: conversation, brain: lastBrain, reasoningLevel: 'high' })).ok).toBe(true);
        }
        const printed = capture();
        expect(await requestCommand(core, printed, { conversation, brain, ...reasoningFlag, message: text })).toBe(0);
        fake.reset();
        const chatted = capture();
        expect(await chatCommand(core, chatted, { conversation, brain, ...reasoningFlag, text }), `${brain} ${reasoning ?? 'default'}: ${chatted.err}`).toBe(0);
        const sent = fake.requests().filter((request) => request.brain === brain && request.method === 'POST' && !request.path.endsWith('/api/show'));
        expect(sent, `${brain} ${reasoning ?? 'default'}`).toHaveLength(1);
        expect(JSON.stringify(sent[0]?.body), `${brain} ${reasoning ?? 'default'}`).toBe(printed.out.trimEnd());
        expect(fake.violations()).toEqual([]);
      }
    }
  }, 120_000);

  it("tells Ollama the window it measured against as options.num_ctx, the Modelfile's when the server reports one", async () => {
    const first = capture();
    expect(await chatCommand(core, first, { brain: 'ollama', text: 'hello there' })).toBe(0);
    const conversation = first.err.trim();
    // The fake's Modelfile for a model named …ctx-N sets num_ctx N; /api/show reports it.
    const reported = capture();
    expect(await requestCommand(core, reported, { conversation, brain: 'ollama', model: 'qwen3-ctx-12288', message: 'next' })).toBe(0);
    expect(reported.err).toMatch(/^Window: Ollama \(qwen3-ctx-12288\) holds 12,288 tokens \(as the server reports it\)\./);
    expect((JSON.parse(reported.out) as { options: unknown }).options).toEqual({ num_ctx: 12_288 });
    // A Modelfile without num_ctx: the trained length (40,960 at the fake), capped at what a small machine holds.
    const trained = capture();
    expect(await requestCommand(core, trained, { conversation, brain: 'ollama', model: 'qwen3', message: 'next' })).toBe(0);
    expect(trained.err).toMatch(/^Window: Ollama \(qwen3\) holds 16,384 tokens \(as the server reports it\)\./);
    expect(trained.err).toContain('Note: Ollama says qwen3 was trained for 40,960 tokens; Anybrain asks for 16,384 so this machine is not overloaded.');
    expect((JSON.parse(trained.out) as { options: unknown }).options).toEqual({ num_ctx: 16_384 });
  }, 60_000);
});
