/**
 * One entry of the model catalogue: everything Anybrain knows about a model, or about a family of models by the prefix
 * their ids share, with where it was read and when.
 */
import type { ImageMediaType, ModelInputs } from '../attachments';
import type { BrainId } from '../brains';
import type { ModelWindow } from '../context-windows';
import type { ReasoningAbility } from '../reasoning';

export const MODEL_STAGES = ['active', 'deprecated', 'retired'] as const;
export type ModelStage = (typeof MODEL_STAGES)[number];

/** Where a model is in its provider's life cycle. Dates are `YYYY-MM-DD`; the replacement is the provider's own pick. */
export type ModelLifecycle =
  | { readonly stage: 'active' }
  /** Still answered, closed to new users; `retiresAt` is the announced date, null when none was announced. */
  | { readonly stage: 'deprecated'; readonly retiresAt: string | null; readonly replacement: string | null }
  /** Answered no more: a request naming it fails. */
  | { readonly stage: 'retired'; readonly retiredOn: string | null; readonly replacement: string | null };

/** The page a figure was read from and the day it was checked. */
export interface FactSource {
  readonly page: string;
  readonly checked: string;
}

export interface ModelEntry {
  readonly brain: BrainId;
  /** A model id, whose dated snapshots match too; for a family, also the prefix of the ids it covers. */
  readonly match: string;
  /** Covers every id that starts with `match`, where no entry names the id itself. */
  readonly family?: true;
  /** Offered in the brain's picker, in catalogue order. */
  readonly offered?: true;
  readonly window: ModelWindow;
  readonly reasoning: ReasoningAbility;
  readonly inputs: ModelInputs;
  readonly lifecycle: ModelLifecycle;
  /**
   * The shortest prompt, in tokens, the provider writes to its prompt cache for this model (Anthropic's "minimum
   * cacheable prompt length"); absent where no minimum is published, when the largest one any provider names holds.
   */
  readonly cacheMinimumTokens?: number;
  /** Null for Anybrain's own cautious guess about a model nobody described. */
  readonly source: FactSource | null;
}

export const ACTIVE: ModelLifecycle = { stage: 'active' };

/** What a provider's entries share unless an entry says otherwise: its brain, its inputs and its page; active. */
type ProviderDefaults = Pick<ModelEntry, 'brain' | 'inputs' | 'source'> & Partial<ModelEntry>;

/** The entry maker of one provider's file: `make(match, { window, reasoning, … })` with the provider's defaults. */
export function entriesOf(defaults: ProviderDefaults): (match: string, entry: Pick<ModelEntry, 'window' | 'reasoning'> & Partial<ModelEntry>) => ModelEntry {
  return (match, entry) => ({ lifecycle: ACTIVE, ...defaults, match, ...entry });
}

export function tokens(contextWindow: number, outputLimit: number): ModelWindow {
  return { contextWindow, outputLimit };
}

/** What a model takes besides text: these image types, and PDFs or not. */
export function takes(imageTypes: readonly ImageMediaType[], pdfs: boolean): ModelInputs {
  return { images: imageTypes.length > 0, pdfs, imageTypes };
}

/** PNG, JPEG, WebP and GIF: the four every wire can carry. */
export const EVERY_IMAGE: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
export const PNG_JPEG_WEBP: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/webp'];
export const PNG_JPEG: readonly ImageMediaType[] = ['image/png', 'image/jpeg'];
export const TEXT_ONLY: ModelInputs = takes([], false);

/** The day the catalogue's figures were last read from the providers' pages. */
export const CATALOGUE_CHECKED = '2026-12-07';

export function readOn(page: string, checked: string = CATALOGUE_CHECKED): FactSource {
  return { page, checked };
}
