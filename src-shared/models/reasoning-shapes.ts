/**
 * How each kind of model says its reasoning levels on its wire: the shapes the catalogue's entries share. A shape is
 * the levels a model has, each as the exact request fields that say it, and the level the provider uses when a
 * request says nothing.
 */
import type {
  AnthropicReasoningFields,
  OllamaReasoningFields,
  ReasoningAbility,
  WireReasoning,
} from '../reasoning';

// Anthropic requires max_tokens to exceed budget_tokens, and budget_tokens to be at least 1,024.
export const ANTHROPIC_BUDGETS = { low: 2048, medium: 8192, high: 24576 } as const;
export const GEMINI_BUDGETS = { low: 1024, medium: 8192, high: 24576 } as const;

function anthropic(fields: AnthropicReasoningFields): WireReasoning {
  return { wire: 'anthropic-messages', fields };
}

/** Claude before 4.6: extended thinking with `budget_tokens`; without `thinking` the model does not think. */
export const CLAUDE_BUDGETED: ReasoningAbility = {
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
export const CLAUDE_ADAPTIVE: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: anthropic({}), low: adaptive('low'), medium: adaptive('medium'), high: adaptive('high') },
};

/**
 * Claude 5 models (and Opus 4.7) take adaptive thinking only: `budget_tokens` and `thinking: {type: "disabled"}` are
 * a 400. They think by default, each at its own default effort (Opus 5.5 and Haiku 5.5 at medium, the rest at high).
 */
function claudeAdaptiveOnly(defaultLevel: 'medium' | 'high'): ReasoningAbility {
  return { defaultLevel, levels: { low: adaptive('low'), medium: adaptive('medium'), high: adaptive('high') } };
}

export const CLAUDE_ADAPTIVE_ONLY = claudeAdaptiveOnly('high');
export const CLAUDE_ADAPTIVE_ONLY_MEDIUM = claudeAdaptiveOnly('medium');

/** GLM-4.6 and later think unless sent `thinking: {type: "disabled"}`; there is no dial between. */
export const GLM_SWITCH: ReasoningAbility = {
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
export const GPT5_RECENT: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: responses('none'), low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/** GPT-5 codex models always reason (`low` at least, no `none` or `minimal`), at `medium` by default. */
export const GPT5_CODEX: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/** Grok 4.3: `none`, `low` (its default), `medium`, `high`. */
export const GROK_EFFORT: ReasoningAbility = {
  defaultLevel: 'low',
  levels: { off: responses('none'), low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/**
 * Grok 4 always reasons and answers `reasoning_effort` with an error ("not supported by grok-4"); Grok 4.20 picks
 * reasoning by model id (`-reasoning`, `-non-reasoning`) and is sent no effort either.
 */
export const GROK_ALWAYS: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { high: { wire: 'openai-responses', fields: {} } },
};

/** Grok's non-reasoning variants never reason, and take no effort either. */
export const GROK_NEVER: ReasoningAbility = {
  defaultLevel: 'off',
  levels: { off: { wire: 'openai-responses', fields: {} } },
};

/**
 * GLM-5.3 always reasons: "Reasoning is always on and cannot be disabled", at its own default effort; the on/off
 * switch earlier GLMs take is not sent.
 */
export const GLM_ALWAYS: ReasoningAbility = { defaultLevel: 'high', levels: { high: anthropic({}) } };

/** Grok 4.5: `low`, `medium` or `high` (its default); no `none`. */
export const GROK_LEVELS: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: responses('low'), medium: responses('medium'), high: responses('high') },
};

/** Kimi K2.5 and K2.6 think unless sent `thinking: {type: "disabled"}`; K2.6 keeps earlier reasoning with keep: "all". */
export function kimiSwitch(keepAll: boolean): ReasoningAbility {
  return {
    defaultLevel: 'high',
    levels: {
      off: { wire: 'chat-completions', fields: { thinking: { type: 'disabled' } } },
      high: { wire: 'chat-completions', fields: { thinking: keepAll ? { type: 'enabled', keep: 'all' } : { type: 'enabled' } } },
    },
  };
}

/** Kimi K3 always thinks and takes `reasoning_effort` "max" only, its default: nothing is sent. */
export const KIMI_ALWAYS: ReasoningAbility = { defaultLevel: 'high', levels: { high: { wire: 'chat-completions', fields: {} } } };

function geminiLevel(thinkingLevel: 'minimal' | 'low' | 'medium' | 'high'): WireReasoning {
  // `minimal` stands for no thinking: its thoughts are not asked for.
  return { wire: 'gemini-generate-content', fields: { thinkingConfig: { includeThoughts: thinkingLevel !== 'minimal', thinkingLevel } } };
}

/** Gemini 3.1 Pro: `low`, `medium`, `high` (its default); it cannot stop thinking and has no `minimal`. */
export const GEMINI_31_PRO: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: geminiLevel('low'), medium: geminiLevel('medium'), high: geminiLevel('high') },
};

/** Gemini 3 Pro: `low` and `high` (its default) only. */
export const GEMINI_3_PRO: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { low: geminiLevel('low'), high: geminiLevel('high') },
};

/** Gemini 3 Flash: `minimal` (about no thinking), `low`, `medium`, `high` (its default). */
export const GEMINI_3_FLASH: ReasoningAbility = {
  defaultLevel: 'high',
  levels: { off: geminiLevel('minimal'), low: geminiLevel('low'), medium: geminiLevel('medium'), high: geminiLevel('high') },
};

/** Gemini 4: `low`, `medium` and `high` as `thinkingLevel`; Argon defaults to medium, Hydrogen to high. */
function gemini4(defaultLevel: 'medium' | 'high'): ReasoningAbility {
  return { defaultLevel, levels: { low: geminiLevel('low'), medium: geminiLevel('medium'), high: geminiLevel('high') } };
}

export const GEMINI_4_MEDIUM = gemini4('medium');
export const GEMINI_4_HIGH = gemini4('high');

function geminiBudget(thinkingBudget: number): WireReasoning {
  return { wire: 'gemini-generate-content', fields: { thinkingConfig: { includeThoughts: true, thinkingBudget } } };
}

/** Gemini before 3 takes a `thinkingBudget`, and its Pro models cannot turn thinking off. */
export const GEMINI_BUDGETED: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: geminiBudget(GEMINI_BUDGETS.low), medium: geminiBudget(GEMINI_BUDGETS.medium), high: geminiBudget(GEMINI_BUDGETS.high) },
};

function ollama(think: OllamaReasoningFields['think']): WireReasoning {
  return { wire: 'ollama-chat', fields: think === undefined ? {} : { think } };
}

/** Thinking models that take a switch (qwen3): they think unless sent `think: false`. */
export const OLLAMA_SWITCH: ReasoningAbility = { defaultLevel: 'high', levels: { off: ollama(false), high: ollama(true) } };

/** gpt-oss takes a level, `medium` by default, and cannot stop thinking. */
export const OLLAMA_LEVELS: ReasoningAbility = {
  defaultLevel: 'medium',
  levels: { low: ollama('low'), medium: ollama('medium'), high: ollama('high') },
};

/** A model without thinking: a truthy `think` is a 400 ("does not support thinking"), so none is sent. */
export const OLLAMA_NONE: ReasoningAbility = { defaultLevel: 'off', levels: { off: ollama(undefined) } };

/**
 * A model the catalogue does not know may or may not think. `think: false` is accepted from any model, a truthy one only
 * from a thinking model: so it runs with reasoning off unless the user turns it on.
 */
export const OLLAMA_UNKNOWN: ReasoningAbility = { defaultLevel: 'off', levels: { off: ollama(false), high: ollama(true) } };
