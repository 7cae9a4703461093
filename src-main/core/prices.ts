/**
 * What a model's tokens cost, from `@pydantic/genai-prices`: a maintained price list per provider and model, with
 * cached-input read and write prices and the tiers some providers charge above a prompt length. Its data is the one
 * bundled with the installed package version (pinned, so a price changes with an Anybrain release, never under a
 * running one). Ollama runs on this machine: its tokens cost nothing.
 */
import { calcPrice, type PriceCalculation } from '@pydantic/genai-prices';
import type { PriceFigures } from '../../src-shared/api';
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

/**
 * Dollars per million tokens, at the base tier (a prompt below the provider's long-prompt threshold); a null cache price
 * where the provider charges no separate price for cached input.
 */
export interface ModelPrice extends PriceFigures {
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

/** Whether a brain's provider charges for tokens (Ollama runs on this machine). */
export function chargesForTokens(brain: BrainId): boolean {
  return PRICE_PROVIDERS[brain] !== null;
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

/**
 * Anthropic charges a write kept an hour at twice the input price and a five-minute write at 1.25 times: with a price
 * the user set, an hour-long write costs this many times their cache-write price.
 */
export const HOUR_WRITE_FACTOR = 2 / 1.25;

/** A request priced by the user's own figures: cached reads and writes at theirs, the rest of the input as input. */
function costByOwnPrice(own: PriceFigures, usage: TokenUsage): number | null {
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const hour = Math.min(usage.cacheWriteHourTokens ?? 0, written);
  const uncached = usage.inputTokens - read - written;
  if (uncached < 0) return null;
  const writeRate = own.cacheWritePerMillion ?? own.inputPerMillion;
  const perMillion =
    uncached * own.inputPerMillion +
    read * (own.cacheReadPerMillion ?? own.inputPerMillion) +
    (written - hour) * writeRate +
    hour * writeRate * HOUR_WRITE_FACTOR +
    usage.outputTokens * own.outputPerMillion;
  return dollars(perMillion / 1_000_000);
}

/**
 * What one request cost in dollars: by the user's own price for the model where one is set, else by the price list
 * (tiers and cache prices applied); null when neither knows the model.
 */
export function costOf(brain: BrainId, model: string, usage: TokenUsage, at: Date = new Date(), own: PriceFigures | null = null): number | null {
  if (PRICE_PROVIDERS[brain] === null) return 0;
  if (own !== null) return costByOwnPrice(own, usage);
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
