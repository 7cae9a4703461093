/**
 * The models a brain's picker offers: what the provider itself listed, when it has answered, else the catalogue's.
 * A list that only proves a model exists (OpenAI's, xAI's, Z.ai's name image, audio and embedding models beside the chat
 * ones) is kept to the models the catalogue knows by name or family.
 */
import type { BrainId } from '../brains';
import { findModel, offeredModels } from './catalogue';
import type { ReportedModel } from './reported';

/** Wires whose list says nothing about what a model does. */
const EXISTENCE_ONLY_BRAINS: ReadonlySet<BrainId> = new Set<BrainId>(['codex', 'grok', 'glm']);

function canChat(brain: BrainId, model: ReportedModel, today: string): boolean {
  if (!model.chats || model.lifecycle === 'retired') return false;
  if (model.retiresAt !== null && model.retiresAt <= today) return false;
  if (EXISTENCE_ONLY_BRAINS.has(brain)) return findModel(brain, model.id).matched !== 'unknown';
  return true;
}

/** Newest first where the provider dates its models; undated ones keep the provider's order after them. */
function newestFirst(models: readonly ReportedModel[]): ReportedModel[] {
  // Times come with offsets (Ollama's are local): compared as instants, an unreadable one counts as undated.
  const timeOf = (model: ReportedModel): number => {
    const time = model.createdAt === null ? Number.NaN : Date.parse(model.createdAt);
    return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
  };
  return models
    .map((model, index) => ({ model, index, time: timeOf(model) }))
    .sort((a, b) => (a.time === b.time ? a.index - b.index : b.time - a.time))
    .map(({ model }) => model);
}

/** The picker's models for `brain`: the provider's chat models, newest first; the catalogue's when there is no answer or it names no chat model. */
export function modelsToOffer(brain: BrainId, reported: readonly ReportedModel[] | null, now: Date = new Date()): string[] {
  const today = now.toISOString().slice(0, 10);
  const listed = reported === null ? [] : newestFirst(reported.filter((model) => canChat(brain, model, today))).map((model) => model.id);
  return listed.length === 0 ? offeredModels(brain) : listed;
}
