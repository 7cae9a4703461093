/**
 * How a turn's requests ask the provider's prompt cache to keep them, where the wire places its own breakpoints
 * (Anthropic's). An entry lives five minutes from its last read, or an hour at a higher price to write (twice the
 * input price against 1.25 times; a read costs a tenth either way).
 *
 * The lifetime: a conversation that came back to this model more than five minutes after its last reply (a person
 * reading, or other brains answering in between) found its five-minute entries gone and wrote the whole history
 * again. From then on its turns write entries for an hour, so the next return within the hour reads the history at a
 * tenth of the price instead of writing it again. A conversation that keeps coming back within five minutes keeps the
 * cheaper writes.
 */
import { cacheMinimumTokens } from '../../../src-shared/models/catalogue';
import { estimateTokens } from '../context/token-estimate';
import type { PromptCachePlan, ToolDeclaration } from '../replay/types';
import type { MessageRow } from '../store/messages';
import type { ResolvedTarget } from './resolve-target';

/** How long a provider keeps an entry it was not asked to keep longer. */
export const SHORT_CACHE_LIFETIME_MS = 5 * 60_000;

type TimedRow = Pick<MessageRow, 'role' | 'brain' | 'modelRequested' | 'createdAt' | 'updatedAt'>;

/** How long after this model's last reply the newest user message came; null when the model has not answered yet. */
export function returnGapMs(target: Pick<ResolvedTarget, 'brain' | 'model'>, rows: readonly TimedRow[]): number | null {
  let asked: TimedRow | undefined;
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index]!;
    if (asked === undefined) {
      if (row.role === 'user') asked = row;
    } else if (row.role === 'assistant' && row.brain === target.brain && row.modelRequested === target.model) {
      return Date.parse(asked.createdAt) - Date.parse(row.updatedAt);
    }
  }
  return null;
}

export function promptCachePlan(
  target: Pick<ResolvedTarget, 'brain' | 'model'>,
  rows: readonly TimedRow[],
  system: string,
  tools: readonly ToolDeclaration[],
): PromptCachePlan {
  const leadTokens = estimateTokens(system) + (tools.length > 0 ? estimateTokens(JSON.stringify(tools)) : 0);
  const gap = returnGapMs(target, rows);
  return {
    cacheSystem: leadTokens >= cacheMinimumTokens(target.brain, target.model),
    ttl: gap !== null && gap > SHORT_CACHE_LIFETIME_MS ? '1h' : '5m',
  };
}
