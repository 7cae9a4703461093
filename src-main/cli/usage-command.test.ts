import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRAINS } from '../../src-shared/brains';
import { openCore, type OpenedCore } from '../core/app';
import { costOf } from '../core/prices';
import { dollarsText } from '../../src-shared/usage';
import type { StreamPart } from '../core/providers/stream-parts';
import { capture } from './captured-output';
import { chatCommand } from './commands';
import { usageCommand } from './usage-command';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Claude answering with words and Anthropic's usage: input apart from the cache reads and writes. */
async function* claudeWithCache(): AsyncIterable<StreamPart> {
  yield { type: 'usage', usage: { inputTokens: 1_000, cacheReadTokens: 9_000, cacheWriteTokens: 0 } };
  yield { type: 'text-delta', text: 'Lisbon.' };
  yield { type: 'usage', usage: { outputTokens: 200 } };
  yield { type: 'finish', reason: 'stop', rawReason: 'end_turn' };
}

function core(): OpenedCore {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-usage-'));
  const opened = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k' }, stream: claudeWithCache });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => opened.dispose());
  return opened;
}

describe('anybrain usage', () => {
  it('sums each day, brain and model, with the cached share and the cost of each request from the price list', async () => {
    const opened = core();
    expect(await chatCommand(opened, capture(), { brain: 'claude', text: 'Where to?' })).toBe(0);
    expect(await chatCommand(opened, capture(), { brain: 'claude', text: 'And when?' })).toBe(0);
    const model = BRAINS.claude.defaultModel;
    const one = costOf('claude', model, { inputTokens: 10_000, cacheReadTokens: 9_000, cacheWriteTokens: 0, outputTokens: 200 })!;
    expect(one).toBeGreaterThan(0);

    const json = capture();
    expect(await usageCommand(opened, json, { json: true })).toBe(0);
    const [day] = JSON.parse(json.out) as Array<Record<string, unknown>>;
    expect(day).toEqual({
      day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), brain: 'claude', model, requests: 2, input_tokens: 20_000, cache_read_tokens: 18_000,
      cache_write_tokens: 0, output_tokens: 400, reasoning_tokens: 0, cost_usd: Math.round(2 * one * 1e8) / 1e8,
    });

    const text = capture();
    expect(await usageCommand(opened, text, {})).toBe(0);
    const [line, total] = text.out.split('\n');
    expect(line).toBe(`${day!.day as string}  Claude (${model})  2 requests  20,000 in (90 % cached)  400 out  ${dollarsText(2 * one)}`);
    expect(total).toMatch(/^Total: \$[\d.]+, an estimate from the bundled price list and any prices set in Settings → Usage\.$/);
    // A day with nothing asked of any brain yet.
    const later = capture();
    expect(await usageCommand(opened, later, { since: '2999-01-01' })).toBe(0);
    expect(later.err).toBe('No provider requests recorded yet.\n');
  });

  it('refuses a day not written YYYY-MM-DD, and a conversation that does not exist', async () => {
    const opened = core();
    await expect(usageCommand(opened, capture(), { since: 'yesterday' })).rejects.toThrow('a day is written YYYY-MM-DD');
    await expect(usageCommand(opened, capture(), { conversation: '01JZ0000000000000000000000' })).rejects.toThrow();
  });
});
