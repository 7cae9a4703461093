/**
 * A provider's token counts in one measure. Anthropic counts the input it read from or wrote to its prompt cache apart
 * from `input_tokens`; every other wire counts cached tokens inside its input count. Normalised, "input" is the whole
 * input on every wire, and the cached part is a share of it.
 */
import type { Usage } from './api';
import type { WireId } from './brains';

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
