/**
 * The name brains start a skill with. Pure, so the replay can name skill calls without loading the skill files'
 * reader (node:fs, yaml).
 */
export const RUN_SKILL_TOOL = 'run_skill';
