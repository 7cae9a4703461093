import { describe, expect, it } from 'vitest';
import { insertConversation } from '../store/conversations';
import { listRequestUsage, recordRequestUsage, type StoredRequestUsage } from '../store/request-usage';
import { openTestDatabase } from '../store/test-database';
import { usageByDay, usageCommands } from './usage';

/** A stored request, priced at a dollar per million input tokens, or of unknown price for `mystery-1`. */
const row = (createdAt: string, brain: string, model: string, inputTokens: number): StoredRequestUsage => ({
  brain, model, createdAt, inputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 0,
  costUsd: model === 'mystery-1' ? null : inputTokens / 1_000_000,
});

describe('usageByDay', () => {
  it('sums per day, brain and model, with each request\'s price; one request of unknown price leaves the sum unknown, never $0', () => {
    const days = usageByDay(
      [
        row('2026-12-06T23:59:00.000Z', 'claude', 'claude-sonnet-5-5', 1_000),
        row('2026-12-07T00:01:00.000Z', 'claude', 'claude-sonnet-5-5', 2_000),
        row('2026-12-07T09:00:00.000Z', 'claude', 'claude-sonnet-5-5', 3_000),
        row('2026-12-07T09:01:00.000Z', 'kimi', 'mystery-1', 500),
        row('2026-12-07T09:02:00.000Z', 'kimi', 'mystery-1', 500),
        row('2026-12-07T09:03:00.000Z', 'hal', 'hal-9000', 1),
      ],
    );
    expect(days.map((day) => [day.day, day.brain, day.model, day.requests, day.inputTokens, day.outputTokens, day.costUsd])).toEqual([
      ['2026-12-06', 'claude', 'claude-sonnet-5-5', 1, 1_000, 10, 0.001],
      ['2026-12-07', 'claude', 'claude-sonnet-5-5', 2, 5_000, 20, 0.005],
      ['2026-12-07', 'kimi', 'mystery-1', 2, 1_000, 20, null],
    ]);
  });
});

describe('prices the user sets', () => {
  function seeded() {
    const db = openTestDatabase();
    insertConversation(db, { id: 'c1', title: 'Tea', brain: 'kimi', model: null, now: '2026-12-07T09:00:00.000Z' });
    const request = (round: number, brain: 'kimi' | 'claude', model: string, scale: number, costUsd: number | null) =>
      recordRequestUsage(db, {
        conversationId: 'c1', turnId: 't1', purpose: 'reply', round, brain, model, costUsd, now: `2026-12-07T09:0${round}:00.000Z`,
        usage: { inputTokens: 100 * scale, cacheReadTokens: 60 * scale, outputTokens: 10 * scale },
      });
    // Kimi counts cached tokens inside its input: 1,000,000 in all. Anthropic apart from it: 16,000 in all.
    request(0, 'kimi', 'kimi-nova', 10_000, null);
    request(1, 'kimi', 'kimi-nova', 10_000, null);
    request(2, 'claude', 'claude-sonnet-4-6', 100, 0.0468);
    return { db, commands: usageCommands({ db }) };
  }
  const costs = (db: ReturnType<typeof openTestDatabase>) => listRequestUsage(db, {}).map((row) => [row.model, row.costUsd]);

  it('lists every counted and offered model of a brain that charges, with the list\'s price or none', async () => {
    const { commands } = seeded();
    const views = await commands.getModelPrices();
    expect(views.find((view) => view.model === 'kimi-nova')).toEqual({ brain: 'kimi', model: 'kimi-nova', listed: null, pricedAs: null, own: null });
    expect(views.find((view) => view.model === 'claude-sonnet-4-6')).toEqual({
      brain: 'claude', model: 'claude-sonnet-4-6', pricedAs: 'claude-sonnet-4-6', own: null,
      listed: { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 },
    });
    expect(views.some((view) => view.brain === 'ollama')).toBe(false);
    // Claude's offered models come first, in the pickers' brain order.
    expect(views[0]?.brain).toBe('claude');
  });

  it('prices every request of the model by the user\'s price, and by the list\'s again once cleared', async () => {
    const { db, commands } = seeded();
    const price = { inputPerMillion: 2, outputPerMillion: 8, cacheReadPerMillion: 0.5, cacheWritePerMillion: null };
    const views = await commands.setModelPrice({ brain: 'kimi', model: 'kimi-nova', price });
    expect(views.find((view) => view.model === 'kimi-nova')?.own).toEqual(price);
    // 400,000 uncached at $2, 600,000 read at $0.50, 100,000 out at $8: $0.80 + $0.30 + $0.80.
    expect(costs(db)).toEqual([['kimi-nova', 1.9], ['kimi-nova', 1.9], ['claude-sonnet-4-6', 0.0468]]);

    // 10,000 uncached at $2, 6,000 read at $0.50, 1,000 out at $8.
    await commands.setModelPrice({ brain: 'claude', model: 'claude-sonnet-4-6', price: { ...price, cacheWritePerMillion: 2.5 } });
    expect(costs(db)).toEqual([['kimi-nova', 1.9], ['kimi-nova', 1.9], ['claude-sonnet-4-6', 0.031]]);
    // The list's price again: 10,000 at $3, 6,000 at $0.30, 1,000 out at $15.
    await commands.setModelPrice({ brain: 'claude', model: 'claude-sonnet-4-6', price: null });
    expect(costs(db)).toEqual([['kimi-nova', 1.9], ['kimi-nova', 1.9], ['claude-sonnet-4-6', 0.0468]]);
    await commands.setModelPrice({ brain: 'kimi', model: 'kimi-nova', price: null });
    expect(costs(db)).toEqual([['kimi-nova', null], ['kimi-nova', null], ['claude-sonnet-4-6', 0.0468]]);
    expect((await commands.getModelPrices()).some((view) => view.model === 'kimi-nova' && view.own !== null)).toBe(false);
  });

  it('refuses a price for a model on this machine', async () => {
    const { commands } = seeded();
    await expect(commands.setModelPrice({ brain: 'ollama', model: 'qwen3', price: { inputPerMillion: 1, outputPerMillion: 1, cacheReadPerMillion: null, cacheWritePerMillion: null } }))
      .rejects.toThrow('Ollama runs on this machine: its tokens cost nothing.');
  });
});
