/**
 * `anybrain usage [--conversation ID] [--since YYYY-MM-DD] [--json]`: what the provider requests cost, per day (UTC),
 * brain and model, in tokens and in dollars estimated from the price list bundled with this release. A price the list
 * does not know is shown as unknown, never as $0.
 */
import type { UsageDayView } from '../../src-shared/api';
import { BRAINS } from '../../src-shared/brains';
import { formatCount } from '../../src-shared/format-count';
import { cachedPercent, dollarsText } from '../../src-shared/usage';
import type { Core } from '../core/core-types';
import { call, type Output } from './commands';

/** One day, brain and model as `--json` prints it: snake_case like the other commands' JSON. */
function toJson(day: UsageDayView) {
  return {
    day: day.day,
    brain: day.brain,
    model: day.model,
    requests: day.requests,
    input_tokens: day.inputTokens,
    cache_read_tokens: day.cacheReadTokens,
    cache_write_tokens: day.cacheWriteTokens,
    output_tokens: day.outputTokens,
    reasoning_tokens: day.reasoningTokens,
    cost_usd: day.costUsd,
  };
}

function dayLine(day: UsageDayView): string {
  const cached = cachedPercent(day) ?? 0;
  const requests = `${formatCount(day.requests)} request${day.requests === 1 ? '' : 's'}`;
  return `${day.day}  ${BRAINS[day.brain].label} (${day.model})  ${requests}  ${formatCount(day.inputTokens)} in (${cached} % cached)  ${formatCount(day.outputTokens)} out  ${dollarsText(day.costUsd)}\n`;
}

export async function usageCommand(core: Core, output: Output, options: { conversation?: string; since?: string; json?: boolean }): Promise<number> {
  const days = await call(core, 'getUsage', {
    ...(options.conversation === undefined ? {} : { conversationId: options.conversation }),
    ...(options.since === undefined ? {} : { since: options.since }),
  });
  if (options.json) {
    output.stdout(`${JSON.stringify(days.map(toJson), null, 2)}\n`);
    return 0;
  }
  if (days.length === 0) {
    output.stderr('No provider requests recorded yet.\n');
    return 0;
  }
  for (const day of days) output.stdout(dayLine(day));
  const known = days.every((day) => day.costUsd !== null);
  const total = days.reduce((sum, day) => sum + (day.costUsd ?? 0), 0);
  output.stdout(`Total: ${dollarsText(known ? Math.round(total * 1e8) / 1e8 : null)}${known ? '' : ` (at least ${dollarsText(total)} for the priced ones)`}, an estimate from the bundled price list and any prices set in Settings → Usage.\n`);
  return 0;
}
