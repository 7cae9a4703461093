import type { SettingsView } from '../../src-shared/api';
import { AVAILABLE_BRAINS, BRAINS, BRAIN_IDS, type BrainId } from '../../src-shared/brains';
import { offeredModels } from '../../src-shared/models/catalogue';
import type { ReportedModel } from '../../src-shared/models/reported';

export interface BrainOption {
  readonly id: BrainId;
  readonly label: string;
  readonly defaultModel: string;
  readonly models: readonly string[];
  /** What the brain's provider said of its models, by id: its word on a model's life cycle beats the catalogue's. */
  readonly reported: ReadonlyMap<string, ReportedModel>;
  readonly available: boolean;
}

/** The seven brains in table order, from settings once they are loaded, else from the static table. */
export function brainOptions(settings: SettingsView | null): BrainOption[] {
  return BRAIN_IDS.map((id) => {
    const fromSettings = settings?.brains.find((brain) => brain.brain === id);
    const info = BRAINS[id];
    return {
      id,
      label: fromSettings?.label ?? info.label,
      defaultModel: fromSettings?.defaultModel ?? info.defaultModel,
      models: fromSettings?.models ?? offeredModels(id),
      reported: new Map((fromSettings?.reportedModels ?? []).map((model) => [model.id, model])),
      available: fromSettings?.available ?? AVAILABLE_BRAINS.includes(id),
    };
  });
}

export function brainLabel(brain: BrainId | null): string {
  return brain === null ? 'Assistant' : BRAINS[brain].label;
}
