/**
 * Which brain, model and reasoning level a turn runs with: the conversation's pick, else the settings default, else
 * brains.ts.
 */
import { ApiError } from '../../../src-shared/api';
import { BRAINS, FALLBACK_BRAIN, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { getConversation } from '../store/conversations';
import type { AppDatabase } from '../store/open';
import { readSetting } from '../store/settings';

export interface ResolvedTarget {
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
}

export function resolveTarget(db: AppDatabase, conversationId: string): ResolvedTarget {
  const conversation = getConversation(db, conversationId);
  if (!conversation) throw new ApiError('not-found', 'That conversation no longer exists.');
  const brain = conversation.brain ?? readSetting(db, 'defaultBrain') ?? FALLBACK_BRAIN;
  const info = BRAINS[brain];
  const model = conversation.brain === brain && conversation.model ? conversation.model : info.defaultModel;
  const reasoningLevel = conversation.reasoningLevel ?? info.defaultReasoningLevel;
  return { brain, model, reasoningLevel };
}

/** The target with another brain or model asked for: a brain other than the resolved one starts from its defaults. */
export function overrideTarget(resolved: ResolvedTarget, overrides: { readonly brain?: BrainId; readonly model?: string }): ResolvedTarget {
  const brain = overrides.brain ?? resolved.brain;
  return {
    brain,
    model: overrides.model ?? (brain === resolved.brain ? resolved.model : BRAINS[brain].defaultModel),
    reasoningLevel: brain === resolved.brain ? resolved.reasoningLevel : BRAINS[brain].defaultReasoningLevel,
  };
}
