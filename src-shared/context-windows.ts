/**
 * Windows: per model, how many tokens a request may hold (input and output together) and how many of them a reply may
 * take. The figures are the catalogue's (models/catalogue.ts), read from the providers' model pages; the user overrides
 * any model in Settings. A model the catalogue does not name falls back to its family, then to a cautious default, and
 * the UI says so.
 */
import { BRAINS, type BrainId } from './brains';
import { OLLAMA_DEFAULT_WINDOW, findModel } from './models/catalogue';
import { formatCount } from './format-count';

export interface ModelWindow {
  /** Tokens one request may hold, the reply's included. */
  readonly contextWindow: number;
  /** The most tokens one reply may take. */
  readonly outputLimit: number;
}

export const WINDOW_SOURCES = ['model', 'family', 'default', 'override', 'server'] as const;
/** Where a window came from: the catalogue's own model, its family, the cautious default, the user, or the server itself. */
export type WindowSource = (typeof WINDOW_SOURCES)[number];

export interface ResolvedWindow extends ModelWindow {
  readonly brain: BrainId;
  readonly model: string;
  readonly source: WindowSource;
  /** A sentence for the UI when the window is a guess (family or default), else null. */
  readonly note: string | null;
}

/** A user's override for one model; a field left out keeps the catalogue's value. */
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

/** The catalogue's own window for a model: by name, then by family, then a cautious default, with a note for a guess. */
function catalogueWindow(brain: BrainId, model: string): { window: ModelWindow; source: WindowSource; note: string | null } {
  const { entry, matched } = findModel(brain, model);
  const window = { contextWindow: entry.window.contextWindow, outputLimit: entry.window.outputLimit };
  const label = BRAINS[brain].label;
  if (brain === 'ollama') {
    // A Modelfile without num_ctx leaves the window to the server, which picks it by the machine's memory; every
    // request asks for the window it was measured against, so this one is Ollama's own small-machine default.
    return {
      window: OLLAMA_DEFAULT_WINDOW,
      source: 'default',
      note: `Ollama did not say how large ${model}'s window is, so Anybrain asks it for ${formatCount(OLLAMA_DEFAULT_WINDOW.contextWindow)} tokens, its default on small machines. Set a larger window in Settings if this machine has room for it.`,
    };
  }
  switch (matched) {
    case 'model':
      return { window, source: 'model', note: null };
    case 'family':
      return {
        window,
        source: 'family',
        note: `Anybrain does not know ${label}'s model ${model}, so it uses the window of its family (${entry.match}…): ${formatCount(window.contextWindow)} tokens. Set it in Settings if that is wrong.`,
      };
    case 'unknown':
      return {
        window,
        source: 'default',
        note: `Anybrain does not know the window of ${label}'s model ${model}, so it assumes a cautious ${formatCount(window.contextWindow)} tokens. Set it in Settings.`,
      };
    default: {
      const unknownMatch: never = matched;
      throw new Error(`Unknown catalogue match ${String(unknownMatch)}`);
    }
  }
}

/**
 * The window a request to `model` is built against: the user's override, else what the server itself reported
 * (Ollama's `/api/show`), else the catalogue. An override of one field keeps the other from the catalogue.
 */
export function resolveModelWindow(
  brain: BrainId,
  model: string,
  overrides: ModelWindowOverrides = {},
  serverWindow: number | null = null,
): ResolvedWindow {
  const catalogued = catalogueWindow(brain, model);
  const override = overrides[modelWindowKey(brain, model)];
  const base: { window: ModelWindow; source: WindowSource; note: string | null } =
    serverWindow !== null && serverWindow > 0
      ? { window: { contextWindow: serverWindow, outputLimit: Math.min(catalogued.window.outputLimit, serverWindow) }, source: 'server', note: null }
      : catalogued;
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
