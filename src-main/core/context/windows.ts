/**
 * The windows the app builds requests against: the table in src-shared, the user's overrides and lines from settings,
 * and what an Ollama server reports for its own models.
 */
import type { ContextSettingsView, ModelWindowView } from '../../../src-shared/api';
import { BRAIN_IDS, type BrainId } from '../../../src-shared/brains';
import {
  DEFAULT_CONTEXT_LINES,
  modelWindowKey,
  resolveModelWindow,
  type ContextLines,
  type ModelWindowOverride,
  type ResolvedWindow,
} from '../../../src-shared/context-windows';
import type { AppDatabase } from '../store/open';
import { readSetting, writeSetting } from '../store/settings';
import { offeredModels } from '../../../src-shared/models/catalogue';

/** What a server says about a model's window: tokens, or null when it does not say. */
export type ServerWindowLookup = (brain: BrainId, model: string) => Promise<number | null>;

export class ContextWindows {
  constructor(
    private readonly db: AppDatabase,
    /** Ollama answers `/api/show` with the model's `num_ctx`; other brains have no such question. */
    private readonly serverWindow: ServerWindowLookup = () => Promise.resolve(null),
  ) {}

  async resolve(brain: BrainId, model: string): Promise<ResolvedWindow> {
    const overrides = readSetting(this.db, 'modelWindows') ?? {};
    const hasOverride = overrides[modelWindowKey(brain, model)] !== undefined;
    const reported = brain === 'ollama' && !hasOverride ? await this.serverWindow(brain, model) : null;
    return resolveModelWindow(brain, model, overrides, reported);
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
    const listed = BRAIN_IDS.flatMap((brain) => offeredModels(brain).map((model) => ({ brain, model })));
    const extra = Object.keys(overrides)
      .map((key) => ({ brain: key.slice(0, key.indexOf('/')) as BrainId, model: key.slice(key.indexOf('/') + 1) }))
      .filter(({ brain, model }) => (BRAIN_IDS as readonly string[]).includes(brain) && !offeredModels(brain).includes(model));
    const modelWindows = [...listed, ...extra].map(({ brain, model }): ModelWindowView => {
      const window = resolveModelWindow(brain, model, overrides);
      const override = overrides[modelWindowKey(brain, model)];
      return {
        brain,
        model,
        contextWindow: window.contextWindow,
        outputLimit: window.outputLimit,
        source: window.source,
        note: window.note,
        override: override ? { contextWindow: override.contextWindow ?? null, outputLimit: override.outputLimit ?? null } : null,
      };
    });
    const lines = Object.fromEntries(BRAIN_IDS.map((brain) => [brain, this.lines(brain)])) as Record<BrainId, ContextLines>;
    return { compactionBrain: readSetting(this.db, 'compactionBrain') ?? null, lines, modelWindows };
  }
}
