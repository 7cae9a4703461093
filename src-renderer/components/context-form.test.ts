import { describe, expect, it } from 'vitest';
import { parseContextLines, parseModelWindow } from './context-form';

describe('parseContextLines', () => {
  it('takes whole percentages with the warning line below the emergency line', () => {
    expect(parseContextLines(' 40 ', '75')).toEqual({ ok: true, value: { warningPercent: 40, emergencyPercent: 75 } });
  });

  it('refuses a warning line at or above the emergency line', () => {
    expect(parseContextLines('80', '80')).toEqual({ ok: false, problem: 'The warning line must be below the emergency line.' });
    expect(parseContextLines('90', '60')).toEqual({ ok: false, problem: 'The warning line must be below the emergency line.' });
  });

  it('refuses lines out of range or not whole', () => {
    expect(parseContextLines('4', '80')).toEqual({ ok: false, problem: 'The warning line is a whole percentage from 5 to 95.' });
    expect(parseContextLines('50.5', '80')).toEqual({ ok: false, problem: 'The warning line is a whole percentage from 5 to 95.' });
    expect(parseContextLines('50', '100')).toEqual({ ok: false, problem: 'The emergency line is a whole percentage from 10 to 99.' });
    expect(parseContextLines('50', '')).toEqual({ ok: false, problem: 'The emergency line is a whole percentage from 10 to 99.' });
  });
});

describe('parseModelWindow', () => {
  it('reads grouped digits, and an empty field as the table value', () => {
    expect(parseModelWindow('262,144', '32 768', null)).toEqual({ ok: true, value: { contextWindow: 262_144, outputLimit: 32_768 } });
    expect(parseModelWindow('', '8_192', 262_144)).toEqual({ ok: true, value: { contextWindow: null, outputLimit: 8_192 } });
    expect(parseModelWindow('', '', 262_144)).toEqual({ ok: true, value: { contextWindow: null, outputLimit: null } });
  });

  it('refuses a window out of range or not a number', () => {
    const problem = 'The window is a whole number of tokens from 1,024 to 100,000,000.';
    expect(parseModelWindow('512', '', null)).toEqual({ ok: false, problem });
    expect(parseModelWindow('lots', '', null)).toEqual({ ok: false, problem });
  });

  it('refuses an output limit too small, or not below the window given or the table one', () => {
    expect(parseModelWindow('', '100', 262_144)).toEqual({ ok: false, problem: 'The output limit is a whole number of tokens, at least 256.' });
    expect(parseModelWindow('32768', '32768', null)).toEqual({ ok: false, problem: 'The output limit must be smaller than the window.' });
    expect(parseModelWindow('', '300000', 262_144)).toEqual({ ok: false, problem: 'The output limit must be smaller than the window.' });
  });
});
