import { BRAINS, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';

export interface VesselMeta {
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
}

/**
 * The system prompt of every turn. Its meta block tells the brain which brain and model this turn requested, since
 * earlier replies in the same conversation may come from other brains. The reasoning level is not in it: the request
 * says it in its own fields, and text that changes with it would change the start of every request after it, which
 * providers' prompt caches key on.
 */
export function buildSystemPrompt(meta: VesselMeta, skills: ReadonlyArray<{ readonly name: string; readonly description: string }> = []): string {
  const label = BRAINS[meta.brain].label;
  const skillLines =
    skills.length === 0
      ? []
      : [
          '',
          'The user keeps these skills (saved instructions); run one with the run_skill tool when it fits the request:',
          ...[...skills].sort((left, right) => left.name.localeCompare(right.name)).map((skill) => `- ${skill.name}: ${skill.description}`),
        ];
  return [
    `You are ${label}, answering in Anybrain, a desktop chat app in which the user can hand one conversation from one AI brain to another.`,
    'Earlier assistant replies in this conversation may have been written by other brains; treat them as the conversation so far and carry on from them.',
    'Reply in Markdown.',
    ...skillLines,
    '',
    '<vessel>',
    `brain: ${meta.brain}`,
    `model: ${meta.model}`,
    '</vessel>',
  ].join('\n');
}
