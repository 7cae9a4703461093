import type { SkillView } from '../../src-shared/api';

/** At most this many skills are suggested at once. */
export const MAX_SKILL_SUGGESTIONS = 8;

/** The skill name typed so far after a leading `/`, while it is still the only word; null otherwise. */
export function typedSkillPrefix(draft: string): string | null {
  const match = /^\/([^\s/]*)$/.exec(draft);
  return match?.[1] ?? null;
}

/** Skills whose name starts with the prefix, then those that contain it; case does not matter. */
export function matchingSkills(skills: readonly SkillView[], prefix: string): SkillView[] {
  const needle = prefix.toLocaleLowerCase();
  const starting: SkillView[] = [];
  const containing: SkillView[] = [];
  for (const skill of skills) {
    const name = skill.name.toLocaleLowerCase();
    if (name.startsWith(needle)) starting.push(skill);
    else if (name.includes(needle)) containing.push(skill);
  }
  const byName = (left: SkillView, right: SkillView): number => left.name.localeCompare(right.name);
  return [...starting.sort(byName), ...containing.sort(byName)].slice(0, MAX_SKILL_SUGGESTIONS);
}

/** The composer text after picking a skill: its command and a space, ready for the rest of the message. */
export function completedSkillCommand(skill: SkillView): string {
  return `/${skill.name} `;
}
