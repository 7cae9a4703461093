/** What the price fields of Settings → Usage mean, checked before anything is sent (the Api checks them again). */
import { MAX_DOLLARS_PER_MILLION_TOKENS, type PriceFigures } from '../../src-shared/api';
import { formatCount } from '../../src-shared/format-count';
import type { FieldParse } from './context-form';

/** The four fields as typed: dollars per million tokens, the cache ones optional. */
export interface PriceTexts {
  readonly input: string;
  readonly output: string;
  readonly cacheRead: string;
  readonly cacheWrite: string;
}

/** Dollars as people type them: "$3", "0.30", "1,25" (a decimal comma), "12.5". */
function dollars(text: string): number | null {
  const compact = text.trim().replace(/^\$/, '').replace(/\s/g, '').replace(',', '.');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(compact)) return null;
  const value = Number(compact);
  return value <= MAX_DOLLARS_PER_MILLION_TOKENS ? value : null;
}

const RANGE = `from 0 to ${formatCount(MAX_DOLLARS_PER_MILLION_TOKENS)} dollars per million tokens`;

export function parsePrice(texts: PriceTexts): FieldParse<PriceFigures> {
  const inputPerMillion = dollars(texts.input);
  if (inputPerMillion === null) return { ok: false, problem: `The input price is ${RANGE}.` };
  const outputPerMillion = dollars(texts.output);
  if (outputPerMillion === null) return { ok: false, problem: `The output price is ${RANGE}.` };
  const optional = (text: string): number | null | undefined => (text.trim() === '' ? null : (dollars(text) ?? undefined));
  const cacheReadPerMillion = optional(texts.cacheRead);
  if (cacheReadPerMillion === undefined) return { ok: false, problem: `The cached-read price is ${RANGE}, or empty to charge cached input as input.` };
  const cacheWritePerMillion = optional(texts.cacheWrite);
  if (cacheWritePerMillion === undefined) return { ok: false, problem: `The cache-write price is ${RANGE}, or empty to charge it as input.` };
  return { ok: true, value: { inputPerMillion, outputPerMillion, cacheReadPerMillion, cacheWritePerMillion } };
}

/** A price as a field shows it: "3", "0.3"; empty for none. */
export function priceText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** A price as the table shows it: "$3", "$0.30", "$0.075". */
export function perMillionText(value: number | null): string {
  if (value === null) return '—';
  return `$${value >= 1 || Number.isInteger(value * 100) ? value.toFixed(2).replace(/\.00$/, '') : String(value)}`;
}
