/**
 * Reasoning levels: per model (the catalogue's entries, models/catalogue.ts), which levels it has, how its wire says
 * each of them, and the level the provider itself uses when a request says nothing.
 *
 * A conversation stores the level the user picked, or null for "the model's default"; a turn resolves that pick
 * against the model it goes to, so a level one model has never reaches a model without it.
 */
import { REASONING_LEVELS, type BrainId, type ReasoningLevel, type WireId } from './brains';
import { findModel } from './models/catalogue';

/** Anthropic Messages (claude, glm): `thinking` and `output_config.effort`; neither when the model does not think. */
export interface AnthropicReasoningFields {
  readonly thinking?: { readonly type: 'enabled'; readonly budget_tokens: number } | { readonly type: 'adaptive' } | { readonly type: 'disabled' };
  readonly output_config?: { readonly effort: 'low' | 'medium' | 'high' };
}

/** OpenAI Responses (codex, grok): `reasoning.effort`; nothing for a model that takes no effort at all. */
export interface ResponsesReasoningFields {
  readonly reasoning?: { readonly effort: 'none' | 'minimal' | 'low' | 'medium' | 'high'; readonly summary?: 'auto' };
}

/**
 * Moonshot's thinking switch (kimi); K2.6 keeps earlier turns' reasoning only with `keep: "all"`. Absent for a model
 * that always thinks and takes no switch (K3).
 */
export interface KimiReasoningFields {
  readonly thinking?: { readonly type: 'enabled'; readonly keep?: 'all' } | { readonly type: 'disabled' };
}

/** Gemini's `generationConfig.thinkingConfig`: a `thinkingLevel` (Gemini 3) or a `thinkingBudget` (older), never both. */
export interface GeminiReasoningFields {
  readonly thinkingConfig: {
    readonly includeThoughts?: boolean;
    readonly thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high';
    readonly thinkingBudget?: number;
  };
}

/** Ollama's `think`: a switch, or a level for models that take one (gpt-oss); absent for a model without thinking. */
export interface OllamaReasoningFields {
  readonly think?: boolean | 'low' | 'medium' | 'high';
}

/** The request fields each wire says reasoning with. */
export interface WireReasoningFields {
  readonly 'anthropic-messages': AnthropicReasoningFields;
  readonly 'openai-responses': ResponsesReasoningFields;
  readonly 'chat-completions': KimiReasoningFields;
  readonly 'gemini-generate-content': GeminiReasoningFields;
  readonly 'ollama-chat': OllamaReasoningFields;
}

/** How one level is said on the wire of the model's brain: the request fields it adds, exactly. */
export type WireReasoning = { readonly [Wire in WireId]: { readonly wire: Wire; readonly fields: WireReasoningFields[Wire] } }[WireId];

export interface ReasoningAbility {
  /** The level the provider uses when a request says nothing: what a conversation that picked none runs at. */
  readonly defaultLevel: ReasoningLevel;
  /** Each level the model has, as its wire says it; a level left out is one the model does not have. */
  readonly levels: Readonly<Partial<Record<ReasoningLevel, WireReasoning>>>;
}

/** The model's reasoning, as the catalogue holds it (models/catalogue.ts). */
export function reasoningAbility(brain: BrainId, model: string): ReasoningAbility {
  return findModel(brain, model).entry.reasoning;
}

/** The levels the model has, in the order of REASONING_LEVELS: what a picker offers. */
export function reasoningLevelsOf(ability: ReasoningAbility): ReasoningLevel[] {
  return REASONING_LEVELS.filter((level) => ability.levels[level] !== undefined);
}

/**
 * The level a turn to `model` runs at: no pick is the provider's own default; a pick the model has is kept; `off` on
 * a model that cannot stop reasoning is its lowest level; any other pick is the nearest level that reasons (a tie
 * goes to the higher one), or the model's only level when it has none that reasons.
 */
export function resolveReasoningLevel(brain: BrainId, model: string, picked: ReasoningLevel | null): ReasoningLevel {
  const ability = reasoningAbility(brain, model);
  if (picked === null) return ability.defaultLevel;
  if (ability.levels[picked] !== undefined) return picked;
  const levels = reasoningLevelsOf(ability);
  const reasoning = levels.filter((level) => level !== 'off');
  if (picked === 'off' || reasoning.length === 0) return levels[0] ?? ability.defaultLevel;
  const rank = (level: ReasoningLevel): number => REASONING_LEVELS.indexOf(level);
  const nearest = reasoning.sort((left, right) => Math.abs(rank(left) - rank(picked)) - Math.abs(rank(right) - rank(picked)) || rank(right) - rank(left))[0];
  return nearest ?? ability.defaultLevel;
}

/** The request fields that say `level` to `model`, the level resolved against the model first. */
export function wireReasoning(brain: BrainId, model: string, level: ReasoningLevel): WireReasoning {
  const ability = reasoningAbility(brain, model);
  const resolved = resolveReasoningLevel(brain, model, level);
  const reasoning = ability.levels[resolved];
  if (reasoning === undefined) throw new Error(`The model catalogue gives ${brain}'s ${model} no level ${resolved}.`);
  return reasoning;
}
