/**
 * A provider's token counts in one measure. Anthropic counts the input it read from or wrote to its prompt cache apart
 * from `input_tokens`; every other wire counts cached tokens inside its input count. Normalised, "input" is the whole
 * input on every wire, and the cached part is a share of it.
 */
import type { Usage } from './api';
import type { WireId } from './brains';
import { formatCount } from './format-count';

export interface NormalisedUsage {
  /** Every input token of the request, cached or not. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
}

export function normaliseUsage(usage: Usage, wire: WireId): NormalisedUsage {
  const cacheReadTokens = usage.cacheReadTokens ?? 0;
  const cacheWriteTokens = usage.cacheWriteTokens ?? 0;
  const reported = usage.inputTokens ?? 0;
  return {
    inputTokens: wire === 'anthropic-messages' ? reported + cacheReadTokens + cacheWriteTokens : reported,
    cacheReadTokens,
    cacheWriteTokens,
    outputTokens: usage.outputTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
  };
}

/**
 * Dollars as a person reads an estimate: to the cent from a dollar up, to a tenth of a cent below, and to four places
 * below a cent, so a cheap reply never reads as $0.00; "price unknown" when the price list does not know the model.
 */
export function dollarsText(usd: number | null): string {
  if (usd === null) return 'price unknown';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd.toFixed(usd >= 1 ? 2 : usd >= 0.01 ? 3 : 4)}`;
}

/** The share of the input read from the provider's prompt cache, in whole percent; null when nothing was sent. */
export function cachedPercent(usage: Pick<NormalisedUsage, 'inputTokens' | 'cacheReadTokens'>): number | null {
  if (usage.inputTokens <= 0) return null;
  return Math.floor((Math.min(usage.cacheReadTokens, usage.inputTokens) / usage.inputTokens) * 100);
}

/**
 * A reply's cost line: "$0.012 · 91 % cached". The money is left out when the price is unknown or nothing (a model
 * on this machine), the share when nothing was read from the cache; null when neither is left.
 */
export function spendLine(spend: Pick<NormalisedUsage, 'inputTokens' | 'cacheReadTokens'> & { readonly costUsd: number | null }): string | null {
  const parts: string[] = [];
  if (spend.costUsd !== null && spend.costUsd > 0) parts.push(dollarsText(spend.costUsd));
  const cached = cachedPercent(spend);
  if (cached !== null && spend.cacheReadTokens > 0) parts.push(`${cached} % cached`);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** The figures behind a reply's cost line, for its tooltip. */
export function spendDetail(spend: Omit<NormalisedUsage, 'reasoningTokens'> & { readonly requests: number; readonly costUsd: number | null }): string {
  const requests = `${formatCount(spend.requests)} request${spend.requests === 1 ? '' : 's'}`;
  const cached = spend.cacheReadTokens > 0 ? ` (${formatCount(spend.cacheReadTokens)} read from the provider's cache)` : '';
  const written = spend.cacheWriteTokens > 0 ? `, ${formatCount(spend.cacheWriteTokens)} written to it` : '';
  const money = spend.costUsd === null ? 'Price unknown' : spend.costUsd === 0 ? 'No charge' : `${dollarsText(spend.costUsd)}, an estimate from the prices in Settings → Usage`;
  return `${money}: ${requests}, ${formatCount(spend.inputTokens)} input tokens${cached}${written}, ${formatCount(spend.outputTokens)} output tokens.`;
}

/**
 * A conversation's requests so far, for the header meter's tooltip: "So far: 31 provider requests, about $0.42, 88 % of
 * their input read from the provider's cache (an estimate)."; null before the first request.
 */
export function conversationSpendWords(spent: (Pick<NormalisedUsage, 'inputTokens' | 'cacheReadTokens'> & { readonly requests: number; readonly costUsd: number | null }) | null): string | null {
  if (spent === null || spent.requests === 0) return null;
  const requests = `${formatCount(spent.requests)} provider request${spent.requests === 1 ? '' : 's'}`;
  const money = spent.costUsd === null ? 'price unknown' : spent.costUsd === 0 ? 'no charge' : `about ${dollarsText(spent.costUsd)} (an estimate)`;
  const cached = cachedPercent(spent);
  const share = cached === null || spent.cacheReadTokens === 0 ? '' : `, ${cached} % of their input read from the provider's cache`;
  return `So far: ${requests}, ${money}${share}.`;
}
