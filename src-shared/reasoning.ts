/**
 * One reasoning table: per model, which reasoning levels it has, how its wire says each of them, and the level the
 * provider itself uses when a request says nothing. Matched like the window table (context-windows.ts): a model by
 * name (dated snapshots of it too), else its family by the longest shared prefix, else the brain's fallback.
 *
 * A conversation stores the level the user picked, or null for "the model's default"; a turn resolves that pick
 * against the model it goes to, so a level one model has never reaches a model without it.
 */
import { REASONING_LEVELS, type BrainId, type ReasoningLevel, type WireId } from './brains';
import { isSameModel } from './models';

/** Anthropic Messages (claude, glm): `thinking` and `output_config.effort`; neither when the model does not think. */
export interface AnthropicReasoningFields {
  readonly thinking?: { readonly type: 'enabled'; readonly budget_tokens: number } | { readonly type: 'adaptive' } | { readonly type: 'disabled' };
  readonly output_config?: { readonly effort: 'low' | 'medium' | 'high' };
}

/** OpenAI Responses (codex, grok): `reasoning.effort`; nothing for a model that takes no effort at all. */
export interface ResponsesReasoningFields {
  readonly reasoning?: { readonly effort: 'none' | 'minimal' | 'low' | 'medium' | 'high'; readonly summary?: 'auto' };
}

/** Moonshot's thinking switch (kimi); K2.6 keeps earlier turns' reasoning only with `keep: "all"`. */
export interface KimiReasoningFields {
  readonly thinking: { readonly type: 'enabled'; readonly keep?: 'all' } | { readonly type: 'disabled' };
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

interface ReasoningEntry {
  readonly brain: BrainId;
  /** A model id (dated snapshots of it match too) or, for a family, the prefix its ids share. */
  readonly match: string;
  readonly ability: ReasoningAbility;
}

// Anthropic requires max_tokens to exceed budget_tokens, and budget_tokens to be at least 1,024.
const ANTHROPIC_BUDGETS = { low: 2048, medium: 8192, high: 24576 } as const;
const GEMINI_BUDGETS = { low: 1024, medium: 8192, high: 24576 } as const;

function anthropic(fields: AnthropicReasoningFields): WireReasoning {
  return { wire: 'anthropic-messages', fields };
}

/** Claude before 4.6: extended thinking with `budget_tokens`; without `thinking` the model does not think. */
const CLAUDE_BUDGETED: ReasoningAbility = {
  defaultLevel: 'off',
  levels: {
    off: anthropic({}),
    low: anthropic({ thinking: { type: 'enabled', budget_tokens: ANTHROPIC_BUDGETS.low } }),
    medium: anthropic({ thinking: { type: 'enabled', budget_tokens: ANTHROPIC_BUDGETS.medium } }),
    high: anthropic({ thinking: { type: 'enabled', budget_tokens: ANTHROPIC_BUDGETS.high } }),
  },
};

function adaptive(effort: 'low' | 'medium' | 'high'): WireReasoning {
  return anthropic({ thinking: { type: 'adaptive' }, output_config: { effort } });
}

/**
 * Claude Opus and Sonnet 4.6 deprecate `budget_tokens` for adaptive thinking with an effort; without `thinking`
 * they do not think.
 */
const CLAUDE_ADAPTIVE: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: anthropic({}), low: adaptive('low'), medium: adaptive('medium'), high: adaptive('high') },
};

/**
 * Claude 5 models (and Opus 4.7) take adaptive thinking only: `budget_tokens` and `thinking: {type: "disabled"}` are
 * a 400. They think by default, at effort high.
 */
const CLAUDE_ADAPTIVE_ONLY: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: adaptive('low'), medium: adaptive('medium'), high: adaptive('high') },
};

/** GLM-4.6 and later think unless sent `thinking: {type: "disabled"}`; there is no dial between. */
const GLM_SWITCH: ReasoningAbility = {
  defaultLevel: 'high',
  levels: {
    off: anthropic({ thinking: { type: 'disabled' } }),
    high: anthropic({ thinking: { type: 'enabled', budget_tokens: ANTHROPIC_BUDGETS.high } }),
  },
};

function responses(effort: 'none' | 'minimal' | 'low' | 'medium' | 'high'): WireReasoning {
  // A summary of no reasoning is nothing to ask for.
  return { wire: 'openai-responses', fields: { reasoning: effort === 'none' ? { effort } : { effort, summary: 'auto' } } };
}

/** GPT-5.4 and later: "Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'"; `none` by default. */
const GPT5_RECENT: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: responses('none'), low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/** GPT-5 codex models always reason (`low` at least, no `none` or `minimal`), at `medium` by default. */
const GPT5_CODEX: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/** Grok 4.3: `none`, `low` (its default), `medium`, `high`. */
const GROK_EFFORT: ReasoningAbility = {
  defaultLevel: 'low',
  levels: { off: responses('none'), low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/**
 * Grok 4 always reasons and answers `reasoning_effort` with an error ("not supported by grok-4"); Grok 4.20 picks
 * reasoning by model id (`-reasoning`, `-non-reasoning`) and is sent no effort either.
 */
const GROK_ALWAYS: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { high: { wire: 'openai-responses', fields: {} } },
};

/** Grok's non-reasoning variants never reason, and take no effort either. */
const GROK_NEVER: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: { wire: 'openai-responses', fields: {} } },
};

/** Kimi K2.5 and K2.6 think unless sent `thinking: {type: "disabled"}`; K2.6 keeps earlier reasoning with keep: "all". */
function kimiSwitch(keepAll: boolean): ReasoningAbility {
  return {
    defaultLevel: 'high',
    levels: {
      off: { wire: 'chat-completions', fields: { thinking: { type: 'disabled' } } },
      high: { wire: 'chat-completions', fields: { thinking: keepAll ? { type: 'enabled', keep: 'all' } : { type: 'enabled' } } },
    },
  };
}

function geminiLevel(thinkingLevel: 'minimal' | 'low' | 'medium' | 'high'): WireReasoning {
  // `minimal` stands for no thinking: its thoughts are not asked for.
  return { wire: 'gemini-generate-content', fields: { thinkingConfig: { includeThoughts: thinkingLevel !== 'minimal', thinkingLevel } } };
}

/** Gemini 3.1 Pro: `low`, `medium`, `high` (its default); it cannot stop thinking and has no `minimal`. */
const GEMINI_31_PRO: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: geminiLevel('low'), medium: geminiLevel('medium'), high: geminiLevel('high') },
};

/** Gemini 3 Pro: `low` and `high` (its default) only. */
const GEMINI_3_PRO: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: geminiLevel('low'), high: geminiLevel('high') },
};

/** Gemini 3 Flash: `minimal` (about no thinking), `low`, `medium`, `high` (its default). */
const GEMINI_3_FLASH: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { off: geminiLevel('minimal'), low: geminiLevel('low'), medium: geminiLevel('medium'), high: geminiLevel('high') },
};

function geminiBudget(thinkingBudget: number): WireReasoning {
  return { wire: 'gemini-generate-content', fields: { thinkingConfig: { includeThoughts: true, thinkingBudget } } };
}

/** Gemini before 3 takes a `thinkingBudget`, and its Pro models cannot turn thinking off. */
const GEMINI_BUDGETED: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: geminiBudget(GEMINI_BUDGETS.low), medium: geminiBudget(GEMINI_BUDGETS.medium), high: geminiBudget(GEMINI_BUDGETS.high) },
};

function ollama(think: OllamaReasoningFields['think']): WireReasoning {
  return { wire: 'ollama-chat', fields: think === undefined ? {} : { think } };
}

/** Thinking models that take a switch (qwen3): they think unless sent `think: false`. */
const OLLAMA_SWITCH: ReasoningAbility = { defaultLevel: 'high', levels: { off: ollama(false), high: ollama(true) } };

/** gpt-oss takes a level, `medium` by default, and cannot stop thinking. */
const OLLAMA_LEVELS: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: ollama('low'), medium: ollama('medium'), high: ollama('high') },
};

/** A model without thinking: a truthy `think` is a 400 ("does not support thinking"), so none is sent. */
const OLLAMA_NONE: ReasoningAbility = { defaultLevel: 'off', levels: { off: ollama(undefined) } };

/**
 * A model the table does not know may or may not think. `think: false` is accepted from any model, a truthy one only
 * from a thinking model: so it runs with reasoning off unless the user turns it on.
 */
const OLLAMA_UNKNOWN: ReasoningAbility = { defaultLevel: 'off', levels: { off: ollama(false), high: ollama(true) } };

/** Reasoning of the models the table knows by name. */
const MODEL_REASONING: readonly ReasoningEntry[] = [
  { brain: 'claude', match: 'claude-opus-4-6', ability: CLAUDE_ADAPTIVE },
  { brain: 'claude', match: 'claude-sonnet-4-6', ability: CLAUDE_ADAPTIVE },
  { brain: 'claude', match: 'claude-opus-4-5', ability: CLAUDE_BUDGETED },
  { brain: 'claude', match: 'claude-haiku-4-5', ability: CLAUDE_BUDGETED },
  { brain: 'claude', match: 'claude-opus-4-7', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'codex', match: 'gpt-5.5-codex', ability: GPT5_CODEX },
  { brain: 'codex', match: 'gpt-5.5', ability: GPT5_RECENT },
  { brain: 'codex', match: 'gpt-5.6', ability: GPT5_RECENT },
  { brain: 'kimi', match: 'kimi-k2.6', ability: kimiSwitch(true) },
  { brain: 'kimi', match: 'kimi-k2.5', ability: kimiSwitch(false) },
  { brain: 'grok', match: 'grok-4.3', ability: GROK_EFFORT },
  { brain: 'grok', match: 'grok-4.20', ability: GROK_ALWAYS },
  { brain: 'grok', match: 'grok-4.20-reasoning', ability: GROK_ALWAYS },
  { brain: 'grok', match: 'grok-4.20-non-reasoning', ability: GROK_NEVER },
  { brain: 'grok', match: 'grok-4', ability: GROK_ALWAYS },
  { brain: 'gemini', match: 'gemini-3.1-pro-preview', ability: GEMINI_31_PRO },
  { brain: 'gemini', match: 'gemini-3-pro-preview', ability: GEMINI_3_PRO },
  { brain: 'gemini', match: 'gemini-3-flash-preview', ability: GEMINI_3_FLASH },
  { brain: 'ollama', match: 'qwen3', ability: OLLAMA_SWITCH },
  { brain: 'ollama', match: 'gpt-oss', ability: OLLAMA_LEVELS },
  { brain: 'ollama', match: 'llama3.3', ability: OLLAMA_NONE },
];

/** Families, by the prefix their ids share: the longest matching prefix wins. */
const FAMILY_REASONING: readonly ReasoningEntry[] = [
  { brain: 'claude', match: 'claude-', ability: CLAUDE_BUDGETED },
  { brain: 'claude', match: 'claude-opus-4-6', ability: CLAUDE_ADAPTIVE },
  { brain: 'claude', match: 'claude-sonnet-4-6', ability: CLAUDE_ADAPTIVE },
  { brain: 'claude', match: 'claude-opus-4-7', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'claude', match: 'claude-opus-4-8', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'claude', match: 'claude-opus-5', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'claude', match: 'claude-sonnet-5', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'claude', match: 'claude-fable-5', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'claude', match: 'claude-mythos-', ability: CLAUDE_ADAPTIVE_ONLY },
  { brain: 'codex', match: 'gpt-5', ability: GPT5_CODEX },
  { brain: 'kimi', match: 'kimi-k2', ability: kimiSwitch(false) },
  { brain: 'grok', match: 'grok-4', ability: GROK_ALWAYS },
  { brain: 'glm', match: 'glm-', ability: GLM_SWITCH },
  { brain: 'gemini', match: 'gemini-3', ability: GEMINI_3_PRO },
  { brain: 'gemini', match: 'gemini-', ability: GEMINI_BUDGETED },
  { brain: 'ollama', match: 'qwen3', ability: OLLAMA_SWITCH },
  { brain: 'ollama', match: 'gpt-oss', ability: OLLAMA_LEVELS },
  { brain: 'ollama', match: 'llama', ability: OLLAMA_NONE },
];

/** A model neither named nor of a known family: the brain's safest request (nothing that could be refused). */
const BRAIN_FALLBACK: Readonly<Record<BrainId, ReasoningAbility>> = {
  claude: CLAUDE_BUDGETED,
  codex: GPT5_CODEX,
  kimi: kimiSwitch(false),
  grok: GROK_ALWAYS,
  glm: GLM_SWITCH,
  gemini: GEMINI_BUDGETED,
  ollama: OLLAMA_UNKNOWN,
};

/** The model's reasoning: by name, then by family, then the brain's fallback. */
export function reasoningAbility(brain: BrainId, model: string): ReasoningAbility {
  const known = MODEL_REASONING.find((entry) => entry.brain === brain && isSameModel(entry.match, model));
  if (known) return known.ability;
  const family = FAMILY_REASONING.filter((entry) => entry.brain === brain && model.startsWith(entry.match)).sort(
    (left, right) => right.match.length - left.match.length,
  )[0];
  return family ? family.ability : BRAIN_FALLBACK[brain];
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
  if (reasoning === undefined) throw new Error(`The reasoning table gives ${brain}'s ${model} no level ${resolved}.`);
  return reasoning;
}
