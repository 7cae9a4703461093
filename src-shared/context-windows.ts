/**
 * One window table: per model, how many tokens a request may hold (input and output together) and how many of them
 * a reply may take. Defaults come from the providers' model pages (see WIRES.md, "Context windows"); the user
 * overrides any model in Settings. A model the table does not know falls back to its family, then to a cautious
 * default, and the UI says so.
 */
import { BRAINS, type BrainId } from './brains';
import { isSameModel } from './models';
import { formatCount } from './format-count';

export interface ModelWindow {
  /** Tokens one request may hold, the reply's included. */
  readonly contextWindow: number;
  /** The most tokens one reply may take. */
  readonly outputLimit: number;
}

export const WINDOW_SOURCES = ['model', 'family', 'default', 'override', 'server'] as const;
/** Where a window came from: the table's own model, its family, the cautious default, the user, or the server itself. */
export type WindowSource = (typeof WINDOW_SOURCES)[number];

export interface ResolvedWindow extends ModelWindow {
  readonly brain: BrainId;
  readonly model: string;
  readonly source: WindowSource;
  /** A sentence for the UI when the window is a guess (family or default), else null. */
  readonly note: string | null;
}

interface WindowEntry extends ModelWindow {
  readonly brain: BrainId;
  /** A model id (dated snapshots of it match too) or, for a family, the prefix its ids share. */
  readonly match: string;
}

/** Windows of the models the table knows by name. */
const MODEL_WINDOWS: readonly WindowEntry[] = [
  { brain: 'claude', match: 'claude-opus-4-6', contextWindow: 1_000_000, outputLimit: 128_000 },
  { brain: 'claude', match: 'claude-opus-4-5', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'claude', match: 'claude-sonnet-5', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'claude', match: 'claude-sonnet-4-6', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'claude', match: 'claude-fable-5', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'claude', match: 'claude-haiku-4-5', contextWindow: 200_000, outputLimit: 64_000 },
  // The Codex default budget; the model page says 400,000.
  { brain: 'codex', match: 'gpt-5.5-codex', contextWindow: 272_000, outputLimit: 128_000 },
  { brain: 'codex', match: 'gpt-5.5', contextWindow: 1_050_000, outputLimit: 128_000 },
  { brain: 'codex', match: 'gpt-5.6', contextWindow: 1_050_000, outputLimit: 128_000 },
  { brain: 'kimi', match: 'kimi-k2.6', contextWindow: 262_144, outputLimit: 32_768 },
  { brain: 'kimi', match: 'kimi-k2.5', contextWindow: 262_144, outputLimit: 32_768 },
  { brain: 'grok', match: 'grok-4.3', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'grok', match: 'grok-4.20', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'grok', match: 'grok-4', contextWindow: 256_000, outputLimit: 64_000 },
  { brain: 'glm', match: 'glm-5.1', contextWindow: 200_000, outputLimit: 128_000 },
  { brain: 'glm', match: 'glm-5', contextWindow: 200_000, outputLimit: 128_000 },
  { brain: 'glm', match: 'glm-4.7', contextWindow: 200_000, outputLimit: 128_000 },
  { brain: 'glm', match: 'glm-4.6', contextWindow: 200_000, outputLimit: 128_000 },
  { brain: 'gemini', match: 'gemini-3.1-pro-preview', contextWindow: 1_048_576, outputLimit: 65_536 },
  { brain: 'gemini', match: 'gemini-3-pro-preview', contextWindow: 1_048_576, outputLimit: 65_536 },
  { brain: 'gemini', match: 'gemini-3-flash-preview', contextWindow: 1_048_576, outputLimit: 65_536 },
];

/** Families, by the prefix their ids share: the longest matching prefix wins. */
const FAMILY_WINDOWS: readonly WindowEntry[] = [
  // Bare older Claude slugs have the 200,000 window.
  { brain: 'claude', match: 'claude-', contextWindow: 200_000, outputLimit: 32_000 },
  { brain: 'claude', match: 'claude-opus-4', contextWindow: 1_000_000, outputLimit: 32_000 },
  { brain: 'claude', match: 'claude-sonnet-5', contextWindow: 1_000_000, outputLimit: 64_000 },
  { brain: 'claude', match: 'claude-haiku-', contextWindow: 200_000, outputLimit: 32_000 },
  { brain: 'codex', match: 'gpt-5', contextWindow: 272_000, outputLimit: 128_000 },
  { brain: 'kimi', match: 'kimi-k2', contextWindow: 262_144, outputLimit: 32_768 },
  { brain: 'grok', match: 'grok-4', contextWindow: 256_000, outputLimit: 64_000 },
  { brain: 'glm', match: 'glm-', contextWindow: 200_000, outputLimit: 32_000 },
  { brain: 'gemini', match: 'gemini-3', contextWindow: 1_048_576, outputLimit: 65_536 },
  { brain: 'gemini', match: 'gemini-', contextWindow: 1_048_576, outputLimit: 8_192 },
];

/** A model nobody described: small enough that a request built against it fits nearly any model served today. */
export const CAUTIOUS_DEFAULT_WINDOW: ModelWindow = { contextWindow: 32_768, outputLimit: 4_096 };

/** Ollama's own default `num_ctx` when a model's parameters set none (on small GPUs). */
export const OLLAMA_DEFAULT_WINDOW: ModelWindow = { contextWindow: 4_096, outputLimit: 4_096 };

/** A user's override for one model; a field left out keeps the table's value. */
export interface ModelWindowOverride {
  readonly contextWindow?: number;
  readonly outputLimit?: number;
}

/** Overrides by `brain/model`. */
export type ModelWindowOverrides = Readonly<Record<string, ModelWindowOverride>>;

export function modelWindowKey(brain: BrainId, model: string): string {
  return `${brain}/${model}`;
}

export const MIN_CONTEXT_WINDOW = 1_024;
export const MAX_CONTEXT_WINDOW = 100_000_000;

function windowOf(entry: ModelWindow): ModelWindow {
  return { contextWindow: entry.contextWindow, outputLimit: entry.outputLimit };
}

/** The table's own window for a model: by name, then by family, then the cautious default. */
function tableWindow(brain: BrainId, model: string): { window: ModelWindow; source: WindowSource; note: string | null } {
  const known = MODEL_WINDOWS.find((entry) => entry.brain === brain && isSameModel(entry.match, model));
  if (known) return { window: windowOf(known), source: 'model', note: null };
  const label = BRAINS[brain].label;
  if (brain === 'ollama') {
    return {
      window: OLLAMA_DEFAULT_WINDOW,
      source: 'default',
      note: `Ollama did not say how large ${model}'s window is, so Anybrain assumes its default of ${formatCount(OLLAMA_DEFAULT_WINDOW.contextWindow)} tokens. Set it in Settings if the model is configured larger.`,
    };
  }
  const family = FAMILY_WINDOWS.filter((entry) => entry.brain === brain && model.startsWith(entry.match)).sort(
    (left, right) => right.match.length - left.match.length,
  )[0];
  if (family) {
    return {
      window: windowOf(family),
      source: 'family',
      note: `Anybrain does not know ${label}'s model ${model}, so it uses the window of its family (${family.match}…): ${formatCount(family.contextWindow)} tokens. Set it in Settings if that is wrong.`,
    };
  }
  return {
    window: CAUTIOUS_DEFAULT_WINDOW,
    source: 'default',
    note: `Anybrain does not know the window of ${label}'s model ${model}, so it assumes a cautious ${formatCount(CAUTIOUS_DEFAULT_WINDOW.contextWindow)} tokens. Set it in Settings.`,
  };
}

/**
 * The window a request to `model` is built against: the user's override, else what the server itself reported
 * (Ollama's `/api/show`), else the table. An override of one field keeps the other from the table.
 */
export function resolveModelWindow(
  brain: BrainId,
  model: string,
  overrides: ModelWindowOverrides = {},
  serverWindow: number | null = null,
): ResolvedWindow {
  const table = tableWindow(brain, model);
  const override = overrides[modelWindowKey(brain, model)];
  const base: { window: ModelWindow; source: WindowSource; note: string | null } =
    serverWindow !== null && serverWindow > 0
      ? { window: { contextWindow: serverWindow, outputLimit: Math.min(table.window.outputLimit, serverWindow) }, source: 'server', note: null }
      : table;
  if (override && (override.contextWindow !== undefined || override.outputLimit !== undefined)) {
    return {
      brain,
      model,
      contextWindow: override.contextWindow ?? base.window.contextWindow,
      outputLimit: override.outputLimit ?? base.window.outputLimit,
      source: 'override',
      note: null,
    };
  }
  return { brain, model, ...base.window, source: base.source, note: base.note };
}

export interface ContextLines {
  /** At this share of the window the meter turns amber. */
  readonly warningPercent: number;
  /** At this share the next turn compacts first. */
  readonly emergencyPercent: number;
}

export const DEFAULT_CONTEXT_LINES: ContextLines = { warningPercent: 50, emergencyPercent: 80 };

export const CONTEXT_LEVELS = ['ok', 'warning', 'emergency'] as const;
export type ContextLevel = (typeof CONTEXT_LEVELS)[number];

export function contextLevel(tokens: number, contextWindow: number, lines: ContextLines = DEFAULT_CONTEXT_LINES): ContextLevel {
  const share = (tokens / contextWindow) * 100;
  if (share >= lines.emergencyPercent) return 'emergency';
  if (share >= lines.warningPercent) return 'warning';
  return 'ok';
}

/** A share of a window in whole percent, never 0 % for a conversation that holds something. */
export function contextPercent(tokens: number, contextWindow: number): number {
  if (tokens <= 0) return 0;
  return Math.max(1, Math.round((tokens / contextWindow) * 100));
}

/** "61 % of Kimi's window". */
export function describeContextShare(tokens: number, contextWindow: number, brain: BrainId): string {
  return `${formatCount(contextPercent(tokens, contextWindow))} % of ${BRAINS[brain].label}'s window`;
}
