/**
 * Which brain, model and reasoning level a turn runs with: the conversation's pick, else the settings default, else
 * brains.ts; the reasoning level is the pick resolved against the model (src-shared/reasoning.ts), so a preview, a
 * turn and a compaction asked for the same brain, model and level send the same level.
 */
import { ApiError } from '../../../src-shared/api';
import { BRAINS, FALLBACK_BRAIN, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { resolveReasoningLevel } from '../../../src-shared/reasoning';
import { getConversation } from '../store/conversations';
import type { AppDatabase } from '../store/open';
import { readSetting } from '../store/settings';

export interface ResolvedTarget {
  readonly brain: BrainId;
  readonly model: string;
  /** The level the request says: the model's own when nothing was picked, else the nearest level it has to the pick. */
  readonly reasoningLevel: ReasoningLevel;
}

/** What a caller asks for instead of the conversation's picks; an absent field keeps the conversation's. */
export interface TargetOverrides {
  readonly brain?: BrainId;
  readonly model?: string;
  /** A level, or null for the model's default. */
  readonly reasoningLevel?: ReasoningLevel | null;
}

/**
 * The conversation's target, with `overrides` applied the way `setConversationBrain` stores them: a model and a
 * reasoning level belong to the brain they were picked on, so another brain starts from its own defaults.
 */
export function resolveTarget(db: AppDatabase, conversationId: string, overrides: TargetOverrides = {}): ResolvedTarget {
  const conversation = getConversation(db, conversationId);
  if (!conversation) throw new ApiError('not-found', 'That conversation no longer exists.');
  const pickedBrain = conversation.brain ?? readSetting(db, 'defaultBrain') ?? FALLBACK_BRAIN;
  const brain = overrides.brain ?? pickedBrain;
  const storedModel = brain === pickedBrain && conversation.model ? conversation.model : null;
  const model = overrides.model ?? storedModel ?? BRAINS[brain].defaultModel;
  const storedLevel = brain === pickedBrain ? conversation.reasoningLevel : null;
  const picked = overrides.reasoningLevel === undefined ? storedLevel : overrides.reasoningLevel;
  return { brain, model, reasoningLevel: resolveReasoningLevel(brain, model, picked) };
}
