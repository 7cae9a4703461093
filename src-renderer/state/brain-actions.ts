import { BRAIN_IDS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import { api, errorText } from './api-client';
import { upsertConversation } from './conversations-slice';
import { showNotice } from './conversation-actions';
import { selectConversationBrain } from './selectors';
import { useAppStore } from './store';
import { retryTurn } from './turn-actions';

const { getState, setState } = useAppStore;

/** What a brain change may also set; an absent field keeps the conversation's current pick. */
export interface BrainChoice {
  /** A model id, or null for the brain's default. */
  readonly model?: string | null;
  /** A reasoning level, or null for the model's default; a brain change without one goes back to the default. */
  readonly reasoningLevel?: ReasoningLevel | null;
}

export async function setConversationBrain(conversationId: string, brain: BrainId, choice: BrainChoice = {}): Promise<void> {
  try {
    const conversation = await api().setConversationBrain({ id: conversationId, brain, ...choice });
    setState((state) => upsertConversation(state, conversation));
  } catch (error) {
    showNotice(`Could not change the brain: ${errorText(error)}`);
  }
}

/**
 * Hands the conversation's next turn to `brain`, on that brain's default model at that model's default reasoning
 * level: a model id belongs to one brain, and a level one model has may be one the next lacks.
 */
export async function switchConversationBrain(conversationId: string, brain: BrainId): Promise<void> {
  if (getState().conversationsById[conversationId]?.brain === brain) return;
  await setConversationBrain(conversationId, brain, { model: null, reasoningLevel: null });
}

/** Answers the last message again with `brain` instead: the conversation switches to it, then the turn is retried. */
export async function askAnotherBrain(conversationId: string, brain: BrainId): Promise<void> {
  await switchConversationBrain(conversationId, brain);
  // A switch that failed has shown its notice: the brain that declined is not asked again.
  if (getState().conversationsById[conversationId]?.brain !== brain) return;
  await retryTurn(conversationId);
}

/** The brain after the current one in table order, wrapping around. */
export function nextBrain(current: BrainId): BrainId {
  return BRAIN_IDS[(BRAIN_IDS.indexOf(current) + 1) % BRAIN_IDS.length] ?? BRAIN_IDS[0];
}

export async function switchToNextBrain(conversationId: string): Promise<void> {
  const current = selectConversationBrain(getState(), conversationId);
  await setConversationBrain(conversationId, nextBrain(current), { model: null, reasoningLevel: null });
}

/** `null` goes back to the model's default level. */
export async function setConversationReasoning(conversationId: string, reasoningLevel: ReasoningLevel | null): Promise<void> {
  const brain = selectConversationBrain(getState(), conversationId);
  await setConversationBrain(conversationId, brain, { reasoningLevel });
}
