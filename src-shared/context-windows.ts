/**
 * Windows: per model, how many tokens a request may hold (input and output together) and how many of them a reply may
 * take. The figures are the catalogue's (models/catalogue.ts), read from the providers' model pages; the user overrides
 * any model in Settings. A model the catalogue does not name falls back to its family, then to a cautious default, and
 * the UI says so.
 */
import { BRAINS, type BrainId } from './brains';
import { OLLAMA_DEFAULT_WINDOW, findModel } from './models/catalogue';
import { formatCount } from './format-count';
import { spokenAge, type ReportedModel } from './models/reported';

export interface ModelWindow {
  /** Tokens one request may hold, the reply's included. */
  readonly contextWindow: number;
  /** The most tokens one reply may take. */
  readonly outputLimit: number;
}

export const WINDOW_SOURCES = ['model', 'family', 'default', 'override', 'server', 'provider'] as const;
/**
 * Where a window came from: the catalogue's own model, its family, the cautious default, the user, the server asked
 * just now (Ollama's `/api/show`), or the provider's stored answer to its model list.
 */
export type WindowSource = (typeof WINDOW_SOURCES)[number];

export interface ResolvedWindow extends ModelWindow {
  readonly brain: BrainId;
  readonly model: string;
  readonly source: WindowSource;
  /** For a `provider` window, when the provider said it (ISO 8601); else null. */
  readonly reportedAt: string | null;
  /** A sentence for the UI when the window is a guess or was capped, else null. */
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

/**
 * The most an Ollama model is asked for when only its trained length is known: a window takes memory in proportion
 * to its size, and a 128k window of an 8B model wants more than many laptops have. The user raises it per model.
 */
export const OLLAMA_TRAINED_LENGTH_CAP = 16_384;

/** What Ollama's `/api/show` said just now: the Modelfile's `num_ctx` and the trained length. */
export interface OllamaServerWindow {
  readonly numCtx: number | null;
  readonly trainedLength: number | null;
}

/** Everyone who may know a window besides the catalogue, strongest first. */
export interface WindowWitnesses {
  readonly overrides?: ModelWindowOverrides;
  /** Ollama, asked before the turn. */
  readonly server?: OllamaServerWindow | null;
  /** The provider's stored answer to its model list, for this model. */
  readonly reported?: { readonly model: ReportedModel; readonly fetchedAt: string } | null;
}

type WindowBase = { readonly window: ModelWindow; readonly source: WindowSource; readonly reportedAt: string | null; readonly note: string | null };

/** The catalogue's own window for a model: by name, then by family, then a cautious default, with a note for a guess. */
function catalogueWindow(brain: BrainId, model: string): WindowBase {
  const { entry, matched } = findModel(brain, model);
  const window = { contextWindow: entry.window.contextWindow, outputLimit: entry.window.outputLimit };
  const label = BRAINS[brain].label;
  if (brain === 'ollama') {
    // A Modelfile without num_ctx leaves the window to the server, which picks it by the machine's memory; every
    // request asks for the window it was measured against, so this one is Ollama's own small-machine default.
    return {
      window: OLLAMA_DEFAULT_WINDOW,
      source: 'default',
      reportedAt: null,
      note: `Ollama did not say how large ${model}'s window is, so Anybrain asks it for ${formatCount(OLLAMA_DEFAULT_WINDOW.contextWindow)} tokens, its default on small machines. Set a larger window in Settings if this machine has room for it.`,
    };
  }
  switch (matched) {
    case 'model':
      return { window, source: 'model', reportedAt: null, note: null };
    case 'family':
      return {
        window,
        source: 'family',
        reportedAt: null,
        note: `Anybrain does not know ${label}'s model ${model}, so it uses the window of its family (${entry.match}…): ${formatCount(window.contextWindow)} tokens. Set it in Settings if that is wrong.`,
      };
    case 'unknown':
      return {
        window,
        source: 'default',
        reportedAt: null,
        note: `Anybrain does not know the window of ${label}'s model ${model}, so it assumes a cautious ${formatCount(window.contextWindow)} tokens. Set it in Settings.`,
      };
    default: {
      const unknownMatch: never = matched;
      throw new Error(`Unknown catalogue match ${String(unknownMatch)}`);
    }
  }
}

/** An Ollama model's trained length, capped so a small machine is not asked for more memory than it has. */
function cappedTrainedWindow(model: string, trainedLength: number, outputLimit: number): { window: ModelWindow; note: string | null } {
  const contextWindow = Math.min(trainedLength, OLLAMA_TRAINED_LENGTH_CAP);
  return {
    window: { contextWindow, outputLimit: Math.min(outputLimit, contextWindow) },
    note:
      trainedLength > contextWindow
        ? `Ollama says ${model} was trained for ${formatCount(trainedLength)} tokens; Anybrain asks for ${formatCount(contextWindow)} so this machine is not overloaded. Set a larger window in Settings if it has room for it.`
        : null,
  };
}

function witnessedWindow(brain: BrainId, model: string, witnesses: WindowWitnesses): WindowBase {
  const catalogued = catalogueWindow(brain, model);
  const outputLimit = catalogued.window.outputLimit;
  const server = witnesses.server ?? null;
  if (server !== null && server.numCtx !== null && server.numCtx > 0) {
    return { window: { contextWindow: server.numCtx, outputLimit: Math.min(outputLimit, server.numCtx) }, source: 'server', reportedAt: null, note: null };
  }
  if (brain === 'ollama' && server !== null && server.trainedLength !== null && server.trainedLength > 0) {
    return { ...cappedTrainedWindow(model, server.trainedLength, outputLimit), source: 'server', reportedAt: null };
  }
  const reported = witnesses.reported ?? null;
  const reportedWindow = reported?.model.contextWindow ?? null;
  if (reported === null || (reportedWindow === null && reported.model.outputLimit === null)) return catalogued;
  if (brain === 'ollama') {
    return reportedWindow === null ? catalogued : { ...cappedTrainedWindow(model, reportedWindow, outputLimit), source: 'provider', reportedAt: reported.fetchedAt };
  }
  const contextWindow = reportedWindow ?? catalogued.window.contextWindow;
  return {
    window: { contextWindow, outputLimit: Math.min(reported.model.outputLimit ?? outputLimit, contextWindow) },
    source: 'provider',
    reportedAt: reported.fetchedAt,
    note: null,
  };
}

/**
 * The window a request to `model` is built against: the user's override, else what Ollama said just now, else the
 * provider's stored answer, else the catalogue. An override of one field keeps the other from the next witness.
 */
export function resolveModelWindow(brain: BrainId, model: string, witnesses: WindowWitnesses = {}): ResolvedWindow {
  const base = witnessedWindow(brain, model, witnesses);
  const override = witnesses.overrides?.[modelWindowKey(brain, model)];
  if (override && (override.contextWindow !== undefined || override.outputLimit !== undefined)) {
    return {
      brain,
      model,
      contextWindow: override.contextWindow ?? base.window.contextWindow,
      outputLimit: override.outputLimit ?? base.window.outputLimit,
      source: 'override',
      reportedAt: null,
      note: null,
    };
  }
  return { brain, model, ...base.window, source: base.source, reportedAt: base.reportedAt, note: base.note };
}

const FIXED_SOURCE_WORDS: Readonly<Record<Exclude<WindowSource, 'provider'>, string>> = {
  model: 'from the catalogue',
  family: "a guess from the model's family",
  default: 'a cautious default',
  override: 'your setting',
  server: 'as the server reports it',
};

/** Where a window came from, in the words every screen uses: "from Anthropic, today", "from the catalogue". */
export function windowSourceWords(window: Pick<ResolvedWindow, 'brain' | 'source' | 'reportedAt'>, now: Date = new Date()): string {
  if (window.source === 'provider') return `from ${BRAINS[window.brain].provider}, ${window.reportedAt === null ? 'earlier' : spokenAge(window.reportedAt, now)}`;
  return FIXED_SOURCE_WORDS[window.source];
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

/**
 * What history a brain's next request holds, in words: every message, or a summary standing for the older ones (and
 * whose window it was written for), or the newest messages with older ones left out.
 */
export function historyInRequestWords(
  status: { readonly brain: BrainId; readonly outsideWindow: number; readonly summary: { readonly madeFor: BrainId | null } | null },
): string {
  const label = BRAINS[status.brain].label;
  if (status.summary !== null) {
    const madeFor = status.summary.madeFor;
    const whose = madeFor === null ? '' : madeFor === status.brain ? ` written for ${label}'s window` : ` written for ${BRAINS[madeFor].label}'s window`;
    return `${label}'s request holds a summary${whose} in place of the older messages`;
  }
  if (status.outsideWindow > 0) {
    const count = status.outsideWindow;
    return `${label}'s request leaves out ${formatCount(count)} older message${count === 1 ? '' : 's'}`;
  }
  return `${label}'s request holds every message`;
}
