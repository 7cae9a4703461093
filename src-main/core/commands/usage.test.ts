import { describe, expect, it } from 'vitest';
import type { StoredRequestUsage } from '../store/request-usage';
import { usageByDay } from './usage';

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
