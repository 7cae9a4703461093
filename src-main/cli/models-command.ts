/**
 * `anybrain models [--brain B] [--json] [--refresh]`: every model a brain's picker offers (the provider's own list once
 * it has answered, else the catalogue's), and every model with a window of your own, with its window and output limit
 * (and where each came from), reasoning levels, inputs, life cycle and the page the catalogue read it from.
 * `--refresh` asks the providers for their lists first.
 */
import type { ModelWindowView } from '../../src-shared/api';
import { BRAIN_IDS, BRAINS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import { windowSourceWords, type WindowSource } from '../../src-shared/context-windows';
import { formatCount } from '../../src-shared/format-count';
import { findModel, offeredModels } from '../../src-shared/models/catalogue';
import type { FactSource, ModelLifecycle } from '../../src-shared/models/entry';
import { lifecycleLabel } from '../../src-shared/models/lifecycle';
import { reasoningLevelsOf } from '../../src-shared/reasoning';
import type { Core } from '../core/core-types';
import type { ModelPrice } from '../core/prices';
import { call, checkedBrain, type Output } from './commands';

/** One model as `--json` prints it: snake_case like the other commands' JSON. */
export interface ModelJson {
  readonly brain: BrainId;
  readonly model: string;
  readonly default: boolean;
  readonly offered: boolean;
  readonly context_window: number;
  readonly output_limit: number;
  readonly window_source: WindowSource;
  /** For a window the provider reported, when it did (ISO 8601); else null. */
  readonly window_reported_at: string | null;
  readonly reasoning: { readonly levels: readonly ReasoningLevel[]; readonly default: ReasoningLevel };
  readonly inputs: { readonly images: readonly string[]; readonly pdfs: boolean };
  readonly lifecycle: ModelLifecycle;
  /** Dollars per million tokens from the bundled price list; null when it does not know the model. */
  readonly price: {
    readonly input_per_million: number;
    readonly output_per_million: number;
    readonly cache_read_per_million: number | null;
    readonly cache_write_per_million: number | null;
    readonly priced_as: string | null;
  } | null;
  /** Null for a model the catalogue does not describe. */
  readonly source: FactSource | null;
}

/** `offered`: the models the brain's picker offers now (the provider's list once it has answered). */
type PriceLookup = (brain: BrainId, model: string) => ModelPrice | null;

export function toModelJson(window: ModelWindowView, priceOf: PriceLookup, offered: readonly string[] = offeredModels(window.brain)): ModelJson {
  const { entry } = findModel(window.brain, window.model);
  return {
    brain: window.brain,
    model: window.model,
    default: BRAINS[window.brain].defaultModel === window.model,
    offered: offered.includes(window.model),
    context_window: window.contextWindow,
    output_limit: window.outputLimit,
    window_source: window.source,
    window_reported_at: window.reportedAt,
    reasoning: { levels: reasoningLevelsOf(entry.reasoning), default: entry.reasoning.defaultLevel },
    inputs: { images: entry.inputs.imageTypes, pdfs: entry.inputs.pdfs },
    lifecycle: entry.lifecycle,
    price: priceJson(priceOf(window.brain, window.model)),
    source: entry.source,
  };
}

function priceJson(price: ModelPrice | null): ModelJson['price'] {
  return price === null
    ? null
    : {
        input_per_million: price.inputPerMillion,
        output_per_million: price.outputPerMillion,
        cache_read_per_million: price.cacheReadPerMillion,
        cache_write_per_million: price.cacheWritePerMillion,
        priced_as: price.pricedAs,
      };
}

/** "$3 in, $15 out per million tokens (cache: $0.3 read, $3.75 write)". */
function priceWords(model: ModelJson): string {
  const price = model.price;
  if (price === null) return 'no price known';
  if (price.priced_as === null && price.input_per_million === 0 && price.output_per_million === 0) return 'free on this machine';
  const cache = [
    ...(price.cache_read_per_million === null ? [] : [`$${price.cache_read_per_million} read`]),
    ...(price.cache_write_per_million === null ? [] : [`$${price.cache_write_per_million} write`]),
  ];
  return `$${price.input_per_million} in, $${price.output_per_million} out per million tokens${cache.length === 0 ? '' : ` (cache: ${cache.join(', ')})`}`;
}

function inputsLine(model: ModelJson): string {
  const kinds = [
    ...(model.inputs.images.length > 0 ? [`images (${model.inputs.images.map((type) => type.slice('image/'.length).toUpperCase()).join(', ')})`] : []),
    ...(model.inputs.pdfs ? ['PDFs'] : []),
  ];
  return kinds.length === 0 ? 'text only' : `text, ${kinds.join(', ')}`;
}

/** Two lines per model: its figures, then its inputs, life cycle and source. */
function modelLines(model: ModelJson): string {
  const name = `${model.brain} ${model.model}${model.default ? ' (default)' : ''}`;
  const levels = model.reasoning.levels.join('/');
  const figures = `${formatCount(model.context_window)} tokens, ${formatCount(model.output_limit)} out (${windowSourceWords({ brain: model.brain, source: model.window_source, reportedAt: model.window_reported_at })}); reasoning ${levels}, ${model.reasoning.default} by default`;
  const lifecycle = lifecycleLabel(model.brain, model.model);
  const source = model.source === null ? 'not in the catalogue' : `read from ${model.source.page} on ${model.source.checked}`;
  return `${name}: ${figures}\n  ${[inputsLine(model), ...(lifecycle === null ? [] : [lifecycle]), priceWords(model), source].join('; ')}\n`;
}

/**
 * Asks each brain with a key (and a keyless Ollama) for its model list now and keeps the answer, one line per brain on
 * stderr. False when a brain that was asked did not answer with its list.
 */
async function refreshModelLists(core: Core, output: Output, brains: readonly BrainId[]): Promise<boolean> {
  const before = await call(core, 'getSettings', {});
  let allAnswered = true;
  for (const brain of brains) {
    const settings = before.brains.find((candidate) => candidate.brain === brain);
    const label = BRAINS[brain].label;
    if (settings?.keySource === 'none') {
      output.stderr(`${label}: no key, not asked.\n`);
      continue;
    }
    const result = await call(core, 'testBrain', { brain });
    output.stderr(`${result.message}\n`);
    if (!result.ok) allAnswered = false;
  }
  return allAnswered;
}

export async function modelsCommand(core: Core, output: Output, options: { brain?: string; json?: boolean; refresh?: boolean }): Promise<number> {
  const brains = options.brain === undefined ? BRAIN_IDS : [checkedBrain(options.brain)];
  const answered = options.refresh === true ? await refreshModelLists(core, output, brains) : true;
  const settings = await call(core, 'getSettings', {});
  const offered = new Map(settings.brains.map((brain) => [brain.brain, brain.models]));
  // The price list is large: read only by the command that shows prices.
  const { modelPrice } = await import('../core/prices');
  const models = settings.context.modelWindows.filter((window) => brains.includes(window.brain)).map((window) => toModelJson(window, modelPrice, offered.get(window.brain)));
  if (options.json) output.stdout(`${JSON.stringify(models, null, 2)}\n`);
  else for (const model of models) output.stdout(modelLines(model));
  return answered ? 0 : 1;
}
