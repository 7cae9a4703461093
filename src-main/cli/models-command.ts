/**
 * `anybrain models [--brain B] [--json]`: every model a brain's picker offers, and every model with a window of your
 * own, with its window and output limit (and where each came from), reasoning levels, inputs, life cycle and the page
 * the catalogue read it from.
 */
import type { ModelWindowView } from '../../src-shared/api';
import { BRAIN_IDS, BRAINS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import type { WindowSource } from '../../src-shared/context-windows';
import { formatCount } from '../../src-shared/format-count';
import { findModel, offeredModels } from '../../src-shared/models/catalogue';
import type { FactSource, ModelLifecycle } from '../../src-shared/models/entry';
import { lifecycleLabel } from '../../src-shared/models/lifecycle';
import { reasoningLevelsOf } from '../../src-shared/reasoning';
import type { Core } from '../core/core-types';
import { call, checkedBrain, WINDOW_SOURCE_WORDS, type Output } from './commands';

/** One model as `--json` prints it: snake_case like the other commands' JSON. */
export interface ModelJson {
  readonly brain: BrainId;
  readonly model: string;
  readonly default: boolean;
  readonly offered: boolean;
  readonly context_window: number;
  readonly output_limit: number;
  readonly window_source: WindowSource;
  readonly reasoning: { readonly levels: readonly ReasoningLevel[]; readonly default: ReasoningLevel };
  readonly inputs: { readonly images: readonly string[]; readonly pdfs: boolean };
  readonly lifecycle: ModelLifecycle;
  /** Null for a model the catalogue does not describe. */
  readonly source: FactSource | null;
}

export function toModelJson(window: ModelWindowView): ModelJson {
  const { entry } = findModel(window.brain, window.model);
  return {
    brain: window.brain,
    model: window.model,
    default: BRAINS[window.brain].defaultModel === window.model,
    offered: offeredModels(window.brain).includes(window.model),
    context_window: window.contextWindow,
    output_limit: window.outputLimit,
    window_source: window.source,
    reasoning: { levels: reasoningLevelsOf(entry.reasoning), default: entry.reasoning.defaultLevel },
    inputs: { images: entry.inputs.imageTypes, pdfs: entry.inputs.pdfs },
    lifecycle: entry.lifecycle,
    source: entry.source,
  };
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
  const figures = `${formatCount(model.context_window)} tokens, ${formatCount(model.output_limit)} out (${WINDOW_SOURCE_WORDS[model.window_source]}); reasoning ${levels}, ${model.reasoning.default} by default`;
  const lifecycle = lifecycleLabel(model.brain, model.model);
  const source = model.source === null ? 'not in the catalogue' : `read from ${model.source.page} on ${model.source.checked}`;
  return `${name}: ${figures}\n  ${[inputsLine(model), ...(lifecycle === null ? [] : [lifecycle]), source].join('; ')}\n`;
}

export async function modelsCommand(core: Core, output: Output, options: { brain?: string; json?: boolean }): Promise<number> {
  const brains = options.brain === undefined ? BRAIN_IDS : [checkedBrain(options.brain)];
  const settings = await call(core, 'getSettings', {});
  const models = settings.context.modelWindows.filter((window) => brains.includes(window.brain)).map(toModelJson);
  if (options.json) {
    output.stdout(`${JSON.stringify(models, null, 2)}\n`);
    return 0;
  }
  for (const model of models) output.stdout(modelLines(model));
  return 0;
}
