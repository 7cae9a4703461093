import { describe, expect, it } from 'vitest';
import type { SkillView } from '../../src-shared/api';
import { MAX_SKILL_SUGGESTIONS, completedSkillCommand, matchingSkills, typedSkillPrefix } from './skill-suggestions';

const skill = (name: string): SkillView => ({ name, description: `About ${name}`, file: `${name}.md` });

describe('typedSkillPrefix', () => {
  it('reads the name typed after a leading slash while it is the only word', () => {
    expect(typedSkillPrefix('/')).toBe('');
    expect(typedSkillPrefix('/wha')).toBe('wha');
    expect(typedSkillPrefix('/whale-facts')).toBe('whale-facts');
  });

  it('is null once the name is followed by text, and for a slash elsewhere', () => {
    expect(typedSkillPrefix('/whale-facts ')).toBeNull();
    expect(typedSkillPrefix('/whale-facts tell me')).toBeNull();
    expect(typedSkillPrefix(' /wha')).toBeNull();
    expect(typedSkillPrefix('see /wha')).toBeNull();
    expect(typedSkillPrefix('/usr/bin')).toBeNull();
    expect(typedSkillPrefix('')).toBeNull();
  });
});

describe('matchingSkills', () => {
  const skills = [skill('summarise'), skill('whale-facts'), skill('Translate'), skill('meta-summary')];

  it('lists names starting with the prefix first, then names containing it, ignoring case', () => {
    expect(matchingSkills(skills, 'sum').map((match) => match.name)).toEqual(['summarise', 'meta-summary']);
    expect(matchingSkills(skills, 'TRANS').map((match) => match.name)).toEqual(['Translate']);
  });

  it('lists every skill by name for a bare slash, at most a screenful', () => {
    expect(matchingSkills(skills, '').map((match) => match.name)).toEqual(['meta-summary', 'summarise', 'Translate', 'whale-facts']);
    const many = Array.from({ length: 20 }, (_, index) => skill(`skill-${String(index).padStart(2, '0')}`));
    expect(matchingSkills(many, '')).toHaveLength(MAX_SKILL_SUGGESTIONS);
  });

  it('finds nothing for a prefix no skill has', () => {
    expect(matchingSkills(skills, 'zzz')).toEqual([]);
  });
});

describe('completedSkillCommand', () => {
  it('is the slash command followed by a space', () => {
    expect(completedSkillCommand(skill('whale-facts'))).toBe('/whale-facts ');
  });
});
