import { describe, expect, it } from 'vitest';
import { environmentNameLines, mergeEnvironmentLines, parseArgumentLines, parseEnvironmentLines } from './mcp-form';

describe('parseArgumentLines', () => {
  it('takes each line as one argument, spaces and quotes included, and skips blank lines', () => {
    expect(parseArgumentLines('/srv/everything/index.js\r\n\nstdio\n  \n/home/me/My Notes\n"quoted"\n')).toEqual([
      '/srv/everything/index.js',
      'stdio',
      '/home/me/My Notes',
      '"quoted"',
    ]);
  });

  it('gives no arguments for an empty field', () => {
    expect(parseArgumentLines('')).toEqual([]);
  });
});

describe('parseEnvironmentLines', () => {
  it('reads KEY=value lines, keeping = inside values and skipping blank lines', () => {
    expect(parseEnvironmentLines('API_TOKEN=abc=def==\n\n  \nDEBUG=\n_PATH_2=/usr/bin\r\n')).toEqual({
      ok: true,
      value: { API_TOKEN: 'abc=def==', DEBUG: '', _PATH_2: '/usr/bin' },
    });
  });

  it('gives no variables for an empty field', () => {
    expect(parseEnvironmentLines('\n')).toEqual({ ok: true, value: {} });
  });

  it('reports a line without = by its number, without echoing it', () => {
    const parsed = parseEnvironmentLines('A=1\n\nsecret-token-value');
    expect(parsed).toEqual({ ok: false, problem: 'Environment line 3 has no “=”. Write each variable as KEY=value.' });
  });

  it('reports a name that is not a variable name', () => {
    expect(parseEnvironmentLines('1ABC=x')).toEqual({
      ok: false,
      problem: 'Environment line 1: “1ABC” is not a variable name. Use letters, digits and _, not starting with a digit.',
    });
    expect(parseEnvironmentLines('=x').ok).toBe(false);
    expect(parseEnvironmentLines('MY-VAR=x').ok).toBe(false);
  });

  it('reports a variable set twice', () => {
    expect(parseEnvironmentLines('A=1\nA=2')).toEqual({ ok: false, problem: 'Environment line 2: A is already set on an earlier line.' });
  });
});

describe('environmentNameLines', () => {
  it('lists each stored variable as NAME= without its value', () => {
    expect(environmentNameLines({ API_TOKEN: 'secret-token', MODE: 'fast' })).toBe('API_TOKEN=\nMODE=');
  });

  it('gives an empty field for a server without variables', () => {
    expect(environmentNameLines({})).toBe('');
  });
});

describe('mergeEnvironmentLines', () => {
  const stored = { API_TOKEN: 'secret-token', MODE: 'fast', OLD: 'legacy' };

  it('keeps the stored value of every NAME= line left empty', () => {
    expect(mergeEnvironmentLines(environmentNameLines(stored), stored)).toEqual({ ok: true, value: stored });
  });

  it('replaces a value that is written out, keeping = inside it', () => {
    expect(mergeEnvironmentLines('API_TOKEN=new=token\nMODE=\nOLD=', stored)).toEqual({
      ok: true,
      value: { API_TOKEN: 'new=token', MODE: 'fast', OLD: 'legacy' },
    });
  });

  it('removes a stored variable whose line is gone', () => {
    expect(mergeEnvironmentLines('API_TOKEN=\n\nMODE=', stored)).toEqual({ ok: true, value: { API_TOKEN: 'secret-token', MODE: 'fast' } });
    expect(mergeEnvironmentLines('', stored)).toEqual({ ok: true, value: {} });
  });

  it('adds a new variable, empty or not', () => {
    expect(mergeEnvironmentLines('API_TOKEN=\r\nDEBUG=1\nEMPTY=', stored)).toEqual({
      ok: true,
      value: { API_TOKEN: 'secret-token', DEBUG: '1', EMPTY: '' },
    });
  });

  it('takes nothing from the prototype of the stored variables', () => {
    expect(mergeEnvironmentLines('toString=\nconstructor=', {})).toEqual({ ok: true, value: { toString: '', constructor: '' } });
  });

  it('reports a bad line by its number without echoing a value', () => {
    const merged = mergeEnvironmentLines('API_TOKEN=\nMODE=\n\nsecret-pasted-value', stored);
    expect(merged).toEqual({ ok: false, problem: 'Environment line 4 has no “=”. Write each variable as KEY=value.' });
    expect(JSON.stringify(merged)).not.toContain('secret');
    expect(mergeEnvironmentLines('MODE=\nMODE=slow', stored)).toEqual({
      ok: false,
      problem: 'Environment line 2: MODE is already set on an earlier line.',
    });
  });
});
