import { describe, expect, it } from 'vitest';
import { fenceCutAfter } from './fence-cuts';

describe('fenceCutAfter', () => {
  it('allows a cut where the highlighter has nothing open', () => {
    expect(fenceCutAfter('ts', 'const a = 1;')).toBe(true);
    expect(fenceCutAfter('ts', '/* a */ x')).toBe(true);
    expect(fenceCutAfter('ts', 'f(1) // a line comment ends with its line')).toBe(true);
    expect(fenceCutAfter('python', 'def f(x):\n    return x')).toBe(true);
    expect(fenceCutAfter('TypeScript', 'let done = true;')).toBe(true);
  });

  it('refuses a cut inside a comment, a string or a parameter list that goes on', () => {
    expect(fenceCutAfter('ts', '/* open\n still')).toBe(false);
    expect(fenceCutAfter('ts', 'const s = `abc')).toBe(false);
    expect(fenceCutAfter('ts', 'function f(a,\n b')).toBe(false);
    expect(fenceCutAfter('python', 'x = """doc')).toBe(false);
  });

  it('allows any cut in code the highlighter does not know or is not asked to highlight', () => {
    expect(fenceCutAfter('no-such-language', '/* open')).toBe(true);
    expect(fenceCutAfter('', '/* open')).toBe(true);
  });
});
