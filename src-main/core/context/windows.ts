/**
 * The windows the app builds requests against: the table in src-shared, the user's overrides and lines from settings,
 * what an Ollama server reports for its own models, and each provider's stored answer to its model list.
 */
import type { ContextSettingsView, ModelWindowView } from '../../../src-shared/api';
import { BRAIN_IDS, type BrainId } from '../../../src-shared/brains';
import {
  DEFAULT_CONTEXT_LINES,
  modelWindowKey,
  resolveModelWindow,
  type ContextLines,
  type ModelWindowOverride,
  type OllamaServerWindow,
  type ResolvedWindow,
  type WindowWitnesses,
} from '../../../src-shared/context-windows';
import type { AppDatabase } from '../store/open';
import { readSetting, writeSetting } from '../store/settings';
import { readReportedModels, readReportedModelsFrom } from '../store/provider-models';
import { modelsToOffer } from '../../../src-shared/models/offered';
import type { ReportedModels } from '../../../src-shared/models/reported';

/** What a server says about a model's window just now, or null when it does not say. */
export type ServerWindowLookup = (brain: BrainId, model: string) => Promise<OllamaServerWindow | null>;

export interface ContextWindowsOptions {
  /** Ollama answers `/api/show` with the model's `num_ctx` and trained length; other brains have no such question. */
  readonly serverWindow?: ServerWindowLookup;
  /**
   * The base URL the brain talks to now: a stored answer from another URL (another server, another proxy) describes
   * other models and is not used. Without it every stored answer is used.
   */
  readonly baseUrlOf?: (brain: BrainId) => string;
}

export class ContextWindows {
  constructor(
    private readonly db: AppDatabase,
    private readonly options: ContextWindowsOptions = {},
  ) {}

  /** The provider's stored answer to its model list, if it came from the URL in use. */
  providerAnswer(brain: BrainId): ReportedModels | null {
    const baseUrl = this.options.baseUrlOf?.(brain);
    return baseUrl === undefined ? readReportedModels(this.db, brain) : readReportedModelsFrom(this.db, brain, baseUrl);
  }

  /** The provider's own word on the model, if its stored list names it. */
  private reportedWitness(brain: BrainId, model: string, answer = this.providerAnswer(brain)): WindowWitnesses['reported'] {
    const reported = answer?.models.find((candidate) => candidate.id === model);
    return answer === null || reported === undefined ? null : { model: reported, fetchedAt: answer.fetchedAt };
  }

  async resolve(brain: BrainId, model: string): Promise<ResolvedWindow> {
    const overrides = readSetting(this.db, 'modelWindows') ?? {};
    const override = overrides[modelWindowKey(brain, model)];
    const overridesBoth = override?.contextWindow !== undefined && override.outputLimit !== undefined;
    const server = brain === 'ollama' && !overridesBoth && this.options.serverWindow ? await this.options.serverWindow(brain, model) : null;
    return resolveModelWindow(brain, model, { overrides, server, reported: this.reportedWitness(brain, model) });
  }

  lines(brain: BrainId): ContextLines {
    return readSetting(this.db, 'contextLines')?.[brain] ?? DEFAULT_CONTEXT_LINES;
  }

  /** The brain that writes summaries when `target` is where the turn goes. */
  summariser(target: BrainId): BrainId {
    return readSetting(this.db, 'compactionBrain') ?? target;
  }

  setOverride(brain: BrainId, model: string, override: { contextWindow: number | null; outputLimit: number | null }): void {
    const overrides: Record<string, ModelWindowOverride> = { ...(readSetting(this.db, 'modelWindows') ?? {}) };
    const key = modelWindowKey(brain, model);
    if (override.contextWindow === null && override.outputLimit === null) delete overrides[key];
    else {
      overrides[key] = {
        ...(override.contextWindow === null ? {} : { contextWindow: override.contextWindow }),
        ...(override.outputLimit === null ? {} : { outputLimit: override.outputLimit }),
      };
    }
    writeSetting(this.db, 'modelWindows', overrides);
  }

  setLines(brain: BrainId, lines: ContextLines): void {
    writeSetting(this.db, 'contextLines', { ...(readSetting(this.db, 'contextLines') ?? {}), [brain]: lines });
  }

  setSummariser(brain: BrainId | null): void {
    writeSetting(this.db, 'compactionBrain', brain);
  }

  /** Every model the pickers offer and every model with an override, as Settings shows them (no server questions). */
  settingsView(): ContextSettingsView {
    const overrides = readSetting(this.db, 'modelWindows') ?? {};
    const answers = new Map(BRAIN_IDS.map((brain) => [brain, this.providerAnswer(brain)]));
    const offered = new Map(BRAIN_IDS.map((brain) => [brain, modelsToOffer(brain, answers.get(brain)?.models ?? null)]));
    const listed = BRAIN_IDS.flatMap((brain) => (offered.get(brain) ?? []).map((model) => ({ brain, model })));
    const extra = Object.keys(overrides)
      .map((key) => ({ brain: key.slice(0, key.indexOf('/')) as BrainId, model: key.slice(key.indexOf('/') + 1) }))
      .filter(({ brain, model }) => (BRAIN_IDS as readonly string[]).includes(brain) && !(offered.get(brain) ?? []).includes(model));
    const modelWindows = [...listed, ...extra].map(({ brain, model }): ModelWindowView => {
      const window = resolveModelWindow(brain, model, { overrides, reported: this.reportedWitness(brain, model, answers.get(brain) ?? null) });
      const override = overrides[modelWindowKey(brain, model)];
      return {
        brain,
        model,
        contextWindow: window.contextWindow,
        outputLimit: window.outputLimit,
        source: window.source,
        reportedAt: window.reportedAt,
        note: window.note,
        override: override ? { contextWindow: override.contextWindow ?? null, outputLimit: override.outputLimit ?? null } : null,
      };
    });
    const lines = Object.fromEntries(BRAIN_IDS.map((brain) => [brain, this.lines(brain)])) as Record<BrainId, ContextLines>;
    return { compactionBrain: readSetting(this.db, 'compactionBrain') ?? null, lines, modelWindows };
  }
}
