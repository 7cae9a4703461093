/**
 * What a turn costs once a conversation is past its brain's window, at 1,000 messages and at 100,000 (smoke: 1,000
 * and 4,000). Claude's window is set to 16,384 tokens, so both conversations are far past it: a request then holds the
 * newest part of the history (or a summary and the newest part), and its size no longer grows with the history. Each
 * conversation gets a run of turns through the turn engine and the real adapter against the fake Claude, whose prompt
 * cache serves the part of a request that repeats one it has seen (and reports it as Anthropic does), priced by the
 * bundled price list. Reported per length:
 *
 * - the cost of a turn that only replies, and the size of its request;
 * - the turns that summarised older messages first (a long history is read once, in parts), with their requests and cost;
 * - past the window, the share of each reply request that the next reply request starts with (the prompt cache's reach).
 *
 * Targets: a turn at 100,000 messages within 1.2 times a turn at 1,000; 90 % or more of each reply request read back
 * by the next. This file reports; it asserts only that every turn completed and broke no wire rule.
 */
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../e2e/fake-brains/use-fake-brains';
import { BRAINS } from '../../src-shared/brains';
import { engineOverFakeBrains, seedExchanges } from '../../src-main/core/engine/testing';
import { ContextWindows } from '../../src-main/core/context/windows';
import { isSmokeRun } from '../support/scenario-line';

const LENGTHS = isSmokeRun() ? [1_000, 4_000] : [1_000, 100_000];
const TURNS = isSmokeRun() ? 12 : 30;
const WINDOW = 16_384;
const MODEL = BRAINS.claude.defaultModel;
const fake = useFakeBrains();

type Body = Record<string, unknown>;

function withoutBreakpoints(value: unknown): string {
  return JSON.stringify(value, (field, inner: unknown) => (field === 'cache_control' ? undefined : inner));
}

function commonStart(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let same = 0;
  while (same < limit && left.charCodeAt(same) === right.charCodeAt(same)) same += 1;
  return same;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

interface Measure {
  readonly messages: number;
  /** The turns that summarised older messages first, with what their requests cost. */
  readonly compactions: ReadonlyArray<{ readonly turn: number; readonly requests: number; readonly cost: number }>;
  /** A turn that only replied: its dollars, and its request's size in tokens (a quarter of its characters). */
  readonly costPerTurn: number;
  readonly inputTokensPerRequest: number;
  /** The share of each reply request the next reply request starts with. */
  readonly readBack: number;
}

function readOrder(body: Body): string {
  return withoutBreakpoints([body.tools ?? null, body.system, body.messages]);
}

async function measure(messages: number): Promise<Measure> {
  fake.reset();
  const { db, engine } = engineOverFakeBrains(fake, 'claude');
  new ContextWindows(db).setOverride('claude', MODEL, { contextWindow: WINDOW, outputLimit: 4_096 });
  seedExchanges(db, messages / 2, 60, 'claude', MODEL);
  const counted = () => db.$client.prepare('SELECT coalesce(sum(cost_usd), 0) AS cost, count(*) AS requests FROM request_usage').get() as { cost: number; requests: number };
  const compactions: Array<{ turn: number; requests: number; cost: number }> = [];
  const replyOnly: number[] = [];
  const replyBodies: Body[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const before = counted();
    const reply = await engine.send('c1', `Turn ${turn}: and then? ${'more detail '.repeat(120)}`).done;
    expect(reply.status).toBe('complete');
    const after = counted();
    const requests = after.requests - before.requests;
    if (requests > 1) compactions.push({ turn, requests, cost: after.cost - before.cost });
    else replyOnly.push(after.cost - before.cost);
    // The turn's last request is its reply's (a compaction's parts come first).
    replyBodies.push(fake.requests().at(-1)!.body as Body);
  }
  expect(fake.violations()).toEqual([]);
  const shares: number[] = [];
  for (let index = 1; index < replyBodies.length; index += 1) {
    const before = readOrder(replyBodies[index - 1]!);
    shares.push(commonStart(before, readOrder(replyBodies[index]!)) / before.length);
  }
  return {
    messages,
    compactions,
    costPerTurn: mean(replyOnly),
    inputTokensPerRequest: mean(replyBodies.map((body) => readOrder(body).length / 4)),
    readBack: mean(shares),
  };
}

describe('cost per turn past the window', () => {
  it(`${TURNS} turns to Claude at ${LENGTHS.join(' and ')} messages, its window ${WINDOW.toLocaleString('en-US')} tokens`, async () => {
    const measures: Measure[] = [];
    for (const messages of LENGTHS) measures.push(await measure(messages));
    console.log(`\ncost per turn past the window (${TURNS} turns to ${MODEL}, window ${WINDOW} tokens)`);
    for (const row of measures) {
      const compacted = row.compactions.map((run) => `turn ${run.turn}: ${run.requests} requests, $${run.cost.toFixed(4)}`).join('; ') || 'none';
      console.log(
        `  ${row.messages} messages: $${row.costPerTurn.toFixed(6)} a turn that only replies, about ${Math.round(row.inputTokensPerRequest)} tokens a request, ${(row.readBack * 100).toFixed(1)} % of each reply request read back by the next; summarised first: ${compacted}`,
      );
    }
    const [short, long] = measures;
    console.log(`  cost ratio a turn, ${long!.messages} : ${short!.messages} messages = ${(long!.costPerTurn / short!.costPerTurn).toFixed(2)}x`);
  }, 600_000);
});
