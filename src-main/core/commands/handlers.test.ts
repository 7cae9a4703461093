import { describe, expect, it } from 'vitest';
import type { CommandHandlers } from '../../../src-shared/api';
import { joinHandlers } from './handlers';

const listSkills: CommandHandlers['listSkills'] = () => ({ folder: '/skills', skills: [], problems: [] });
const listApprovals: CommandHandlers['listApprovals'] = () => [];

describe('joinHandlers', () => {
  it('joins the groups into one table', () => {
    const joined = joinHandlers({ listSkills }, { listApprovals });
    expect(Object.keys(joined).sort()).toEqual(['listApprovals', 'listSkills']);
  });

  it('refuses, at compile time, a command two groups handle or one that no group handles', () => {
    // @ts-expect-error listSkills is handled twice, so the result names it under handledTwice.
    const twice: Pick<CommandHandlers, 'listSkills'> = joinHandlers({ listSkills }, { listSkills });
    // @ts-expect-error listApprovals is handled by no group.
    const missing: Pick<CommandHandlers, 'listSkills' | 'listApprovals'> = joinHandlers({ listSkills });
    expect([twice, missing].every((table) => typeof table === 'object')).toBe(true);
  });
});
