import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunSkillTool, loadSkills, parseSkill, parseSkillCommand, skillContext } from './skills';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const summarise = '---\nname: summarise\ndescription: Five bullets.\n---\nSummarise the conversation in five bullets.\n';

describe('skills', () => {
  it('parses front matter and instructions', () => {
    expect(parseSkill('/s/summarise.md', summarise)).toEqual({
      name: 'summarise',
      description: 'Five bullets.',
      instructions: 'Summarise the conversation in five bullets.',
      file: '/s/summarise.md',
    });
  });

  it('explains what is wrong with a bad skill file', () => {
    expect(parseSkill('a.md', 'no front matter')).toEqual({ file: 'a.md', problem: 'it does not start with front matter (--- name: … description: … ---)' });
    expect(parseSkill('a.md', '---\nname: Bad Name\ndescription: x\n---\nbody')).toMatchObject({ problem: 'its name must be lower-case letters, digits, - or _ (at most 64)' });
    expect(parseSkill('a.md', '---\nname: ok\n---\nbody')).toMatchObject({ problem: 'it has no description' });
    expect(parseSkill('a.md', '---\nname: ok\ndescription: d\n---\n')).toMatchObject({ problem: 'it has no instructions after the front matter' });
    expect(parseSkill('a.md', '---\nname: [unclosed\n---\nbody')).toMatchObject({ problem: expect.stringContaining('not valid YAML') });
  });

  it('loads a folder, skipping bad and duplicate files with reasons; a missing folder is no skills', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-skills-'));
    folders.push(folder);
    writeFileSync(join(folder, 'a-summarise.md'), summarise);
    writeFileSync(join(folder, 'b-copy.md'), summarise);
    writeFileSync(join(folder, 'c-broken.md'), 'nothing');
    writeFileSync(join(folder, 'notes.txt'), summarise);
    const loaded = loadSkills(folder);
    expect(loaded.skills.map((skill) => skill.name)).toEqual(['summarise']);
    expect(loaded.problems.map((problem) => problem.problem)).toEqual([
      'another file already defines the skill "summarise"',
      'it does not start with front matter (--- name: … description: … ---)',
    ]);
    expect(loadSkills(join(folder, 'missing'))).toEqual({ skills: [], problems: [] });
  });

  it('recognises /name at the start of a message', () => {
    const skill = parseSkill('s.md', summarise) as Exclude<ReturnType<typeof parseSkill>, { problem: string }>;
    expect(parseSkillCommand('/summarise the last hour', [skill])).toEqual({ skill, rest: 'the last hour' });
    expect(parseSkillCommand('/summarise', [skill])).toEqual({ skill, rest: '' });
    expect(parseSkillCommand('/unknown x', [skill])).toBeNull();
    expect(parseSkillCommand('please /summarise', [skill])).toBeNull();
  });

  it('run_skill answers with the labelled instructions, or a clear error', async () => {
    const skill = parseSkill('s.md', summarise) as Exclude<ReturnType<typeof parseSkill>, { problem: string }>;
    const tool = createRunSkillTool(() => [skill]);
    const context = { signal: new AbortController().signal, now: () => new Date() };
    expect(await tool.execute({ name: 'summarise' }, context)).toEqual({ output: skillContext(skill, 'assistant'), isError: false });
    expect(await tool.execute({ name: 'nope' }, context)).toEqual({ output: 'There is no skill named "nope". Skills: summarise.', isError: true });
  });
});
