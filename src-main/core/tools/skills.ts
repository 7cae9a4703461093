/**
 * Skills: named instructions the user keeps as Markdown files with front matter in the data folder's `skills/`.
 * The user starts one with `/name` in the composer; a brain starts one with the `run_skill` tool.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ToolDefinition } from './catalogue';
import { RUN_SKILL_TOOL } from './run-skill-tool';

export { RUN_SKILL_TOOL };

export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly instructions: string;
  readonly file: string;
}

export interface SkillProblem {
  readonly file: string;
  readonly problem: string;
}

export const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_SKILL_BYTES = 64 * 1024;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

export function parseSkill(file: string, content: string): Skill | SkillProblem {
  const match = FRONT_MATTER.exec(content);
  if (!match) return { file, problem: 'it does not start with front matter (--- name: … description: … ---)' };
  let meta: unknown;
  try {
    meta = parseYaml(match[1]!);
  } catch (error) {
    return { file, problem: `its front matter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const fields = (typeof meta === 'object' && meta !== null ? meta : {}) as Record<string, unknown>;
  const name = typeof fields.name === 'string' ? fields.name.trim() : '';
  if (!SKILL_NAME.test(name)) return { file, problem: 'its name must be lower-case letters, digits, - or _ (at most 64)' };
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (description === '') return { file, problem: 'it has no description' };
  const instructions = match[2]!.trim();
  if (instructions === '') return { file, problem: 'it has no instructions after the front matter' };
  return { name, description, instructions, file };
}

function isSkill(value: Skill | SkillProblem): value is Skill {
  return 'name' in value;
}

/** Reads every `*.md` in the folder; a missing folder is no skills. The first file wins a duplicated name. */
export function loadSkills(folder: string): { skills: Skill[]; problems: SkillProblem[] } {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.toLowerCase().endsWith('.md')).sort();
  } catch {
    return { skills: [], problems: [] };
  }
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  for (const name of names) {
    const file = join(folder, name);
    try {
      if (statSync(file).size > MAX_SKILL_BYTES) {
        problems.push({ file, problem: 'it is larger than 64 KB' });
        continue;
      }
      const parsed = parseSkill(file, readFileSync(file, 'utf8'));
      if (!isSkill(parsed)) problems.push(parsed);
      else if (skills.some((skill) => skill.name === parsed.name)) problems.push({ file, problem: `another file already defines the skill "${parsed.name}"` });
      else skills.push(parsed);
    } catch (error) {
      problems.push({ file, problem: `it cannot be read (${error instanceof Error ? error.message : String(error)})` });
    }
  }
  return { skills, problems };
}

/** `/name rest` at the start of a message: the skill the user starts, and what follows. */
export function parseSkillCommand(text: string, skills: readonly Skill[]): { skill: Skill; rest: string } | null {
  const match = /^\/([a-z0-9][a-z0-9_-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const skill = skills.find((candidate) => candidate.name === match[1]);
  return skill ? { skill, rest: (match[2] ?? '').trim() } : null;
}

/** The instructions as this turn's context: a labelled system line, never the user's or the assistant's words. */
export function skillContext(skill: Skill, startedBy: 'user' | 'assistant'): string {
  return `[System line, skill "${skill.name}" started by the ${startedBy}: follow these instructions for this reply]\n${skill.instructions}`;
}

/** `run_skill`: a brain starts a skill; the answer is the skill's instructions, which it then follows. */
export function createRunSkillTool(skills: () => readonly Skill[]): ToolDefinition {
  return {
    name: RUN_SKILL_TOOL,
    description:
      'Run one of the user\u2019s skills (saved instructions). Answers with the skill\u2019s instructions, which you then follow. ' +
      'Available skills are listed in the system prompt.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name.' }, input: { type: 'string', description: 'What to apply it to.' } },
      required: ['name'],
      additionalProperties: false,
    },
    server: null,
    async execute(input) {
      const name = typeof input.name === 'string' ? input.name.trim() : '';
      const skill = skills().find((candidate) => candidate.name === name);
      if (!skill) {
        const known = skills().map((candidate) => candidate.name);
        return { output: `There is no skill named "${name}". Skills: ${known.length ? known.join(', ') : 'none'}.`, isError: true };
      }
      return { output: skillContext(skill, 'assistant'), isError: false };
    },
  };
}
