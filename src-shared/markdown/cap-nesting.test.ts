import { describe, expect, it } from 'vitest';
import { capNesting, MAX_CONTAINER_DEPTH } from './cap-nesting';

describe('capNesting', () => {
  it('keeps markdown within the limit byte for byte', () => {
    const samples = [
      '# Title\n\n> quoted\n> > twice\n\n- a\n  - b\n    1. c\n\n* * *\n\nText - with > signs and 1. numbers.',
      `${'> '.repeat(MAX_CONTAINER_DEPTH)}deepest allowed`,
      `${'- '.repeat(MAX_CONTAINER_DEPTH)}deepest allowed`,
    ];
    for (const sample of samples) expect(capNesting(sample)).toBe(sample);
  });

  it('escapes the first block quote marker beyond the limit, spaced or not', () => {
    expect(capNesting('> > > > x', 2)).toBe('> > \\> > x');
    expect(capNesting('>>>>x', 2)).toBe('>>\\>>x');
    expect(capNesting(`${'>'.repeat(3000)} deep`)).toBe(`${'>'.repeat(32)}\\${'>'.repeat(2968)} deep`);
  });

  it('escapes bullet markers of every kind', () => {
    expect(capNesting('- - - x', 2)).toBe('- - \\- x');
    expect(capNesting('* * * x', 2)).toBe('* * \\* x');
    expect(capNesting('+ + + x', 2)).toBe('+ + \\+ x');
    expect(capNesting(`${'- '.repeat(1200)}deep`)).toBe(`${'- '.repeat(32)}\\${'- '.repeat(1168)}deep`);
  });

  it('escapes the delimiter of an ordered marker, so its number stays visible', () => {
    expect(capNesting('1. 1. 1. x', 2)).toBe('1. 1. 1\\. x');
    expect(capNesting('1) 2) 3) x', 2)).toBe('1) 2) 3\\) x');
    expect(capNesting(`${'1. '.repeat(1000)}deep`)).toBe(`${'1. '.repeat(32)}1\\. ${'1. '.repeat(967)}deep`);
  });

  it('counts mixed containers together', () => {
    expect(capNesting('> - 1. > * 2) x', 4)).toBe('> - 1. > \\* 2) x');
    expect(capNesting('>- >1. x', 3)).toBe('>- >1\\. x');
  });

  it('counts indentation as nesting, two columns a level', () => {
    const lines = Array.from({ length: 6 }, (_, level) => `${'  '.repeat(level)}- item ${level}`);
    expect(capNesting(lines.join('\n'), 3).split('\n')).toEqual([
      '- item 0',
      '  - item 1',
      '    - item 2',
      '      \\- item 3',
      '        \\- item 4',
      '          \\- item 5',
    ]);
    expect(capNesting('>   > x\n\t\t- y', 2).split('\n')).toEqual(['>   \\> x', '\t\t\\- y']);
  });

  it('leaves thematic breaks, markers without a following space and fenced code alone', () => {
    const text = ['* * * * * *', '- - - -', '>>>>', '-x -y', '```', '> > > > code', '- - - - code', '```', '> > > after'].join('\n');
    expect(capNesting(text, 2).split('\n')).toEqual([
      '* * * * * *',
      '- - - -',
      '>>\\>>',
      '-x -y',
      '```',
      '> > > > code',
      '- - - - code',
      '```',
      '> > \\> after',
    ]);
  });
});
