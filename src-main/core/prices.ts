/**
 * What a model's tokens cost, from `@pydantic/genai-prices`: a maintained price list per provider and model, with
 * cached-input read and write prices and the tiers some providers charge above a prompt length. Its data is the one
 * bundled with the installed package version (pinned, so a price changes with an Anybrain release, never under a
 * running one). Ollama runs on this machine: its tokens cost nothing.
 */
import { calcPrice, type PriceCalculation } from '@pydantic/genai-prices';
import type { BrainId } from '../../src-shared/brains';

/** The price list's id for each brain's provider; null for a brain whose tokens cost nothing. */
const PRICE_PROVIDERS: Readonly<Record<BrainId, string | null>> = {
  claude: 'anthropic',
  codex: 'openai',
  kimi: 'moonshotai',
  grok: 'x-ai',
  glm: 'zai',
  gemini: 'google',
  ollama: null,
};

/** Dollars per million tokens, at the base tier (a prompt below the provider's long-prompt threshold). */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Null where the provider charges no separate price for cached input. */
  readonly cacheReadPerMillion: number | null;
  readonly cacheWritePerMillion: number | null;
  /** The price list's entry the model matched (`claude-sonnet-5` for `claude-sonnet-5-5`); null for a local model. */
  readonly pricedAs: string | null;
}

/** Tokens of one request, as a provider's usage reports them; `inputTokens` includes the cached ones. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` kept an hour, at the list's own hour-long write price. */
  readonly cacheWriteHourTokens?: number;
}

const FREE: ModelPrice = { inputPerMillion: 0, outputPerMillion: 0, cacheReadPerMillion: null, cacheWritePerMillion: null, pricedAs: null };

function priced(brain: BrainId, model: string, usage: Record<string, number>, at: Date): PriceCalculation | null {
  const providerId = PRICE_PROVIDERS[brain];
  if (providerId === null) return null;
  try {
    return calcPrice(usage, model, { providerId, timestamp: at });
  } catch {
    // The list refuses a usage it cannot split (more cached than total input): no price rather than a wrong one.
    return null;
  }
}

/** Dollars, rounded to a millionth of a cent: the list's own figures are exact decimals, the sums are not. */
function dollars(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}

/** A sample small enough to stay in the base tier, large enough that a price per token survives as a decimal. */
const SAMPLE_TOKENS = 1_000;

/** The model's prices per million tokens, or null when the price list does not know the model. */
export function modelPrice(brain: BrainId, model: string, at: Date = new Date()): ModelPrice | null {
  if (PRICE_PROVIDERS[brain] === null) return FREE;
  const input = priced(brain, model, { input_tokens: SAMPLE_TOKENS }, at);
  const output = priced(brain, model, { output_tokens: SAMPLE_TOKENS }, at);
  if (input === null || output === null) return null;
  const perMillion = (price: number) => dollars((price * 1_000_000) / SAMPLE_TOKENS);
  const cachePrice = (key: 'cache_read_mtok' | 'cache_write_mtok', usageKey: 'cache_read_tokens' | 'cache_write_tokens'): number | null => {
    if (input.model_price[key] === undefined) return null;
    const cached = priced(brain, model, { input_tokens: SAMPLE_TOKENS, [usageKey]: SAMPLE_TOKENS }, at);
    return cached === null ? null : perMillion(cached.input_price);
  };
  return {
    inputPerMillion: perMillion(input.input_price),
    outputPerMillion: perMillion(output.output_price),
    cacheReadPerMillion: cachePrice('cache_read_mtok', 'cache_read_tokens'),
    cacheWritePerMillion: cachePrice('cache_write_mtok', 'cache_write_tokens'),
    pricedAs: input.model.id,
  };
}

/** What one request cost in dollars, tiers and cache prices applied; null when the price list does not know the model. */
export function costOf(brain: BrainId, model: string, usage: TokenUsage, at: Date = new Date()): number | null {
  if (PRICE_PROVIDERS[brain] === null) return 0;
  const result = priced(
    brain,
    model,
    {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      ...(usage.cacheReadTokens === undefined ? {} : { cache_read_tokens: usage.cacheReadTokens }),
      ...(usage.cacheWriteTokens === undefined ? {} : { cache_write_tokens: usage.cacheWriteTokens }),
      ...(usage.cacheWriteHourTokens === undefined ? {} : { cache_write_1h_tokens: usage.cacheWriteHourTokens }),
    },
    at,
  );
  return result === null ? null : dollars(result.total_price);
}
