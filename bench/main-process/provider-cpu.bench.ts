/**
 * Main-process CPU per provider delta: one scripted stream from the fake brains (in their own process), consumed
 * by the raw `openai` SDK loop (create, `for await`, append the text) and by the app (`dispatch('send', …)`: the
 * provider adapter, the turn engine, its checkpoints and events, up to `turn-done`, in a conversation created beforehand),
 * per OpenAI-SDK wire. The same
 * words come back both ways, so the CPU time per delta compares the app's path with the SDK alone (target: at most
 * 2x). CPU time is the process's (`process.cpuUsage`), which other load on a shared machine disturbs far less than
 * wall-clock time.
 *
 * This file reports; it never fails on time. Both paths must return the whole reply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../../src-shared/api';
import { BRAINS, type BrainId } from '../../src-shared/brains';
import { openCore, type OpenedCore } from '../../src-main/core/app';
import { measureInterleaved, median } from '../replay/timing';
import { within } from '../support/bounded-wait';
import { isSmokeRun, reportScenario } from '../support/scenario-line';
import { FAKE_KEY, startFakeBrainsProcess, type FakeBrainsProcess } from './fake-brains-process';
import { replyDirective, replyOfWords, sendTurn, TURN_BOUND_MS } from './turns';

const SMOKE = isSmokeRun();
/** About 2 s of streaming at the fake's 5 ms between words. */
const WORDS = SMOKE ? 10 : 400;
/** Nine runs a side: on two shared cores one run's CPU time can differ from the next by 2x, for either path. */
const PLAN = SMOKE ? { warmups: 0, repetitions: 1, settleMs: 0 } : { warmups: 1, repetitions: 9, settleMs: 100 };
const TARGET_RATIO = 2;

interface Consumed {
  readonly text: string;
  /** Text deltas the consumer received from the stream. */
  readonly deltas: number;
}

/** The raw SDK loop a developer would write for each wire: no mapping, no storage, the text appended. */
const RAW_CONSUMERS: Partial<Record<BrainId, (client: OpenAI, prompt: string) => Promise<Consumed>>> = {
  kimi: async (client, prompt) => {
    const stream = await client.chat.completions.create({ model: BRAINS.kimi.defaultModel, messages: [{ role: 'user', content: prompt }], stream: true });
    let text = '';
    let deltas = 0;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) {
        text += piece;
        deltas += 1;
      }
    }
    return { text, deltas };
  },
  codex: async (client, prompt) => {
    const stream = await client.responses.create({ model: BRAINS.codex.defaultModel, input: prompt, stream: true });
    let text = '';
    let deltas = 0;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') {
        text += event.delta;
        deltas += 1;
      }
    }
    return { text, deltas };
  },
};

describe('main-process CPU per provider delta', () => {
  let fake: FakeBrainsProcess;
  let dataDir = '';
  let core: OpenedCore;

  beforeAll(async () => {
    fake = await startFakeBrainsProcess();
    dataDir = mkdtempSync(join(tmpdir(), 'anybrain-bench-provider-cpu-'));
    core = openCore({ dataDir, env: fake.env, exportArchives: 'in-process' });
  });

  afterAll(async () => {
    await core?.dispose();
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [brain, consume] of Object.entries(RAW_CONSUMERS) as [BrainId, NonNullable<(typeof RAW_CONSUMERS)[BrainId]>][]) {
    it(`${brain} (${BRAINS[brain].wire}) through the app against the raw openai SDK`, async () => {
      const reply = replyOfWords(WORDS);
      const prompt = `Stream this back. ${replyDirective(reply)}`;
      const client = new OpenAI({ apiKey: FAKE_KEY, baseURL: fake.baseUrlFor(brain) });
      const rawName = 'raw openai SDK';
      const appName = 'app';
      // A new conversation for each run, so every run replays the same one message; created before the timing starts.
      const conversationIds: string[] = [];
      for (let run = 0; run < PLAN.warmups + PLAN.repetitions; run += 1) {
        const created = await core.dispatch('createConversation', { brain });
        if (!created.ok) throw new Error(`createConversation failed: ${created.error.message}`);
        conversationIds.push((created.value as ConversationView).id);
      }
      const cases = new Map<string, () => Promise<Consumed>>([
        // Bounded as the app's side is (sendTurn): one timer each, armed in the run.
        [
          rawName,
          () => within(consume(client, prompt), { what: `the raw openai SDK stream from the fake brains (${fake.baseUrlFor(brain)}) never ended`, withinMs: TURN_BOUND_MS }),
        ],
        [
          appName,
          async () => {
            const conversationId = conversationIds.shift();
            if (conversationId === undefined) throw new Error('More app runs than conversations created for them');
            const sent = await sendTurn(core, conversationId, prompt);
            return { text: sent.reply.text, deltas: sent.deltaEvents };
          },
        ],
      ]);
      let streamDeltas = 0;
      const { samples, failures } = await measureInterleaved(cases, PLAN, (name, consumed) => {
        expect(consumed.text, `${name} returned another reply`).toBe(reply);
        if (name === rawName) streamDeltas = consumed.deltas;
      });
      expect([...failures].map(([name, error]) => `${name}: ${error.message}`)).toEqual([]);
      expect(streamDeltas).toBeGreaterThan(0);
      const perDelta = (name: string): number => (median(samples.get(name)!.cpuMs) / streamDeltas) * 1_000;
      const value = perDelta(appName);
      const baseline = perDelta(rawName);
      reportScenario({
        name: `main-process-cpu-per-delta-${brain}-vs-raw-openai-sdk`,
        value,
        baseline,
        unit: 'µs',
        target: `<= ${TARGET_RATIO}x`,
        met: value <= baseline * TARGET_RATIO,
      });
    });
  }
});
