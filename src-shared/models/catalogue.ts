/**
 * The model catalogue: every fact Anybrain holds about a model (window, output limit, reasoning levels and the fields
 * that say them, inputs, life cycle, and where each was read), one entry per model or family. `findModel` is the one
 * lookup: a model by name (dated snapshots of it too), else its family by the longest shared prefix, else the brain's
 * cautious stand-in for a model nobody described.
 */
import type { BrainId } from '../brains';
import type { ModelWindow } from '../context-windows';
import type { ReasoningAbility } from '../reasoning';
import { CLAUDE_MODELS } from './anthropic';
import { ACTIVE, TEXT_ONLY, tokens, type ModelEntry } from './entry';
import { GEMINI_MODELS } from './google';
import { KIMI_MODELS } from './moonshot';
import { OLLAMA_MODELS } from './ollama';
import { CODEX_MODELS } from './openai';
import { CLAUDE_BUDGETED, GEMINI_BUDGETED, GLM_SWITCH, GPT5_CODEX, GROK_ALWAYS, OLLAMA_UNKNOWN, kimiSwitch } from './reasoning-shapes';
import { isSameModel } from './same-model';
import { GROK_MODELS } from './xai';
import { GLM_MODELS } from './zai';

export const MODEL_CATALOGUE: readonly ModelEntry[] = [
  ...CLAUDE_MODELS,
  ...CODEX_MODELS,
  ...KIMI_MODELS,
  ...GROK_MODELS,
  ...GLM_MODELS,
  ...GEMINI_MODELS,
  ...OLLAMA_MODELS,
];

/** A model nobody described: small enough that a request built against it fits nearly any model served today. */
export const CAUTIOUS_DEFAULT_WINDOW: ModelWindow = tokens(32_768, 4_096);

/** Ollama's own default `num_ctx` when a model's parameters set none (on small GPUs). */
export const OLLAMA_DEFAULT_WINDOW: ModelWindow = tokens(4_096, 4_096);

/** The largest minimum cacheable prompt a provider publishes (Anthropic's newest models): assumed where none is known. */
export const CAUTIOUS_CACHE_MINIMUM_TOKENS = 4_096;

/** The shortest prompt the model's provider caches, in tokens. */
export function cacheMinimumTokens(brain: BrainId, model: string): number {
  return findModel(brain, model).entry.cacheMinimumTokens ?? CAUTIOUS_CACHE_MINIMUM_TOKENS;
}

/** A model neither named nor of a known family: the brain's safest request (nothing that could be refused). */
const UNKNOWN_MODEL_REASONING: Readonly<Record<BrainId, ReasoningAbility>> = {
  claude: CLAUDE_BUDGETED,
  codex: GPT5_CODEX,
  kimi: kimiSwitch(false),
  grok: GROK_ALWAYS,
  glm: GLM_SWITCH,
  gemini: GEMINI_BUDGETED,
  ollama: OLLAMA_UNKNOWN,
};

/** How the catalogue knew the model: by its name, by its family, or not at all. */
export type ModelMatch = 'model' | 'family' | 'unknown';

export interface FoundModel {
  readonly entry: ModelEntry;
  readonly matched: ModelMatch;
}

/** A model nobody described takes text only, so nothing is sent that its provider could refuse. */
function undescribed(brain: BrainId, model: string): ModelEntry {
  return {
    brain,
    match: model,
    window: brain === 'ollama' ? OLLAMA_DEFAULT_WINDOW : CAUTIOUS_DEFAULT_WINDOW,
    reasoning: UNKNOWN_MODEL_REASONING[brain],
    inputs: TEXT_ONLY,
    lifecycle: ACTIVE,
    source: null,
  };
}

export function findModel(brain: BrainId, model: string): FoundModel {
  const named = MODEL_CATALOGUE.find((entry) => entry.brain === brain && isSameModel(entry.match, model));
  if (named !== undefined) return { entry: named, matched: 'model' };
  const id = model.toLowerCase();
  let family: ModelEntry | undefined;
  for (const entry of MODEL_CATALOGUE) {
    if (entry.brain !== brain || entry.family !== true || !id.startsWith(entry.match)) continue;
    if (family === undefined || entry.match.length > family.match.length) family = entry;
  }
  if (family !== undefined) return { entry: family, matched: 'family' };
  return { entry: undescribed(brain, model), matched: 'unknown' };
}

/** The models a brain's picker offers, in catalogue order. */
export function offeredModels(brain: BrainId): string[] {
  return MODEL_CATALOGUE.filter((entry) => entry.brain === brain && entry.offered === true).map((entry) => entry.match);
}
