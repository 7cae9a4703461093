/**
 * The seven brains: one table. A wire is a request/stream format; a brain is a provider with its own defaults.
 * Per-brain quirks are data here, never copied code.
 */

export const BRAIN_IDS = ['claude', 'codex', 'kimi', 'grok', 'glm', 'gemini', 'ollama'] as const;
export type BrainId = (typeof BRAIN_IDS)[number];

/** The brain a turn goes to when neither the conversation nor the settings pick one. */
export const FALLBACK_BRAIN: BrainId = 'claude';

export const WIRE_IDS = [
  'anthropic-messages',
  'openai-responses',
  'chat-completions',
  'gemini-generate-content',
  'ollama-chat',
] as const;
export type WireId = (typeof WIRE_IDS)[number];

/** The levels a user picks from; which of them a model has, and its default, is per model (models/catalogue.ts). */
export const REASONING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

export interface BrainInfo {
  readonly id: BrainId;
  readonly label: string;
  /** Who answers: the name a figure's source gives ("from Anthropic, today"). */
  readonly provider: string;
  readonly wire: WireId;
  /** A model the catalogue offers for this brain (models/catalogue.ts `offeredModels`); the user may type any other. */
  readonly defaultModel: string;
  readonly defaultBaseUrl: string;
  /** Environment variable holding the API key; null when the brain needs none. */
  readonly keyVariable: string | null;
  /** Environment variable overriding the base URL (settings win over it). */
  readonly baseUrlVariable: string;
}

export const BRAINS: Readonly<Record<BrainId, BrainInfo>> = {
  claude: {
    id: 'claude',
    label: 'Claude',
    provider: 'Anthropic',
    wire: 'anthropic-messages',
    defaultModel: 'claude-sonnet-5-5',
    defaultBaseUrl: 'https://api.anthropic.com',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANYBRAIN_CLAUDE_BASE_URL',
  },
  codex: {
    id: 'codex',
    label: 'Codex',
    provider: 'OpenAI',
    wire: 'openai-responses',
    defaultModel: 'gpt-5.6-terra',
    defaultBaseUrl: 'https://api.openai.com/v1',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'ANYBRAIN_CODEX_BASE_URL',
  },
  kimi: {
    id: 'kimi',
    label: 'Kimi',
    provider: 'Moonshot AI',
    wire: 'chat-completions',
    defaultModel: 'kimi-k2.6',
    defaultBaseUrl: 'https://api.moonshot.ai/v1',
    keyVariable: 'MOONSHOT_API_KEY',
    baseUrlVariable: 'ANYBRAIN_KIMI_BASE_URL',
  },
  grok: {
    id: 'grok',
    label: 'Grok',
    provider: 'xAI',
    wire: 'openai-responses',
    defaultModel: 'grok-4.5',
    defaultBaseUrl: 'https://api.x.ai/v1',
    keyVariable: 'XAI_API_KEY',
    baseUrlVariable: 'ANYBRAIN_GROK_BASE_URL',
  },
  glm: {
    id: 'glm',
    label: 'GLM',
    provider: 'Z.ai',
    wire: 'anthropic-messages',
    defaultModel: 'glm-5.1',
    defaultBaseUrl: 'https://api.z.ai/api/anthropic',
    keyVariable: 'ZAI_API_KEY',
    baseUrlVariable: 'ANYBRAIN_GLM_BASE_URL',
  },
  gemini: {
    id: 'gemini',
    label: 'Gemini',
    provider: 'Google',
    wire: 'gemini-generate-content',
    defaultModel: 'gemini-3.1-pro-preview',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    keyVariable: 'GEMINI_API_KEY',
    baseUrlVariable: 'ANYBRAIN_GEMINI_BASE_URL',
  },
  ollama: {
    id: 'ollama',
    label: 'Ollama',
    provider: 'Ollama',
    wire: 'ollama-chat',
    defaultModel: 'qwen3',
    defaultBaseUrl: 'http://127.0.0.1:11434',
    keyVariable: null,
    baseUrlVariable: 'ANYBRAIN_OLLAMA_BASE_URL',
  },
};

export function isBrainId(value: unknown): value is BrainId {
  return typeof value === 'string' && (BRAIN_IDS as readonly string[]).includes(value);
}

/** Brains whose adapters are wired up in this build; any other is listed but refuses a turn with a clear error. */
export const AVAILABLE_BRAINS: readonly BrainId[] = BRAIN_IDS;
