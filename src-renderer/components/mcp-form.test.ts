import { describe, expect, it } from 'vitest';
import { editedEnvironment, parseArgumentLines, parseEnvironmentLines, storedVariableEdits } from './mcp-form';

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

describe('editedEnvironment', () => {
  const stored = storedVariableEdits(['API_TOKEN', 'MODE', 'OLD']);

  it('keeps every stored value the user left empty, as null', () => {
    expect(editedEnvironment(stored, '')).toEqual({ ok: true, value: { API_TOKEN: null, MODE: null, OLD: null } });
  });

  it('replaces a value that is typed, leaves a removed variable out, and adds new ones, empty or not', () => {
    const edits = [
      { name: 'API_TOKEN', replacement: 'new=token', removed: false },
      { name: 'MODE', replacement: '', removed: false },
      { name: 'OLD', replacement: 'ignored', removed: true },
    ];
    expect(editedEnvironment(edits, 'DEBUG=1\r\n\nEMPTY=\nOLD=again')).toEqual({
      ok: true,
      value: { API_TOKEN: 'new=token', MODE: null, DEBUG: '1', EMPTY: '', OLD: 'again' },
    });
  });

  it('takes nothing from the prototype of the stored variables', () => {
    expect(editedEnvironment([], 'toString=\nconstructor=')).toEqual({ ok: true, value: { toString: '', constructor: '' } });
  });

  it('reports a bad line by its number without echoing a value, and a stored variable added twice', () => {
    const merged = editedEnvironment(stored, 'GOOD=1\n\nsecret-pasted-value');
    expect(merged).toEqual({ ok: false, problem: 'Environment line 3 has no “=”. Write each variable as KEY=value.' });
    expect(JSON.stringify(merged)).not.toContain('secret');
    expect(editedEnvironment(stored, 'MODE=slow')).toEqual({ ok: false, problem: 'MODE is already set above: type its new value there.' });
  });
});
