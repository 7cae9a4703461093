import { describe, expect, it } from 'vitest';
import { blockPieces, fenceLanguage, OPEN_BLOCK_PIECE_CHARS, textPieces, type FenceCutCheck } from './open-block';

/** `count` lines of `width` characters each. */
function lines(count: number, width: number, make: (index: number) => string): string[] {
  return Array.from({ length: count }, (_, index) => make(index).padEnd(width, '.'));
}

/** A highlighter with nothing carried from line to line. */
const cutAnywhere: FenceCutCheck = () => true;

describe('blockPieces', () => {
  it('cuts an unclosed fence into runs of code lines, each closed at the first line that fills it', () => {
    const code = lines(5, 399, (index) => `line ${index}`);
    expect(blockPieces(['```ts', ...code].join('\n'), cutAnywhere)).toEqual({
      kind: 'fence',
      opener: '```ts',
      pieces: [code.slice(0, 3).join('\n'), code.slice(3).join('\n')],
    });
    expect(OPEN_BLOCK_PIECE_CHARS).toBe(1_024);
  });

  it('cuts a fence closed by its last line the same way, without the closing line', () => {
    const code = lines(5, 399, (index) => `line ${index}`);
    expect(blockPieces(['```ts', ...code, '```'].join('\n'), cutAnywhere)).toEqual({
      kind: 'fence',
      opener: '```ts',
      pieces: [code.slice(0, 3).join('\n'), code.slice(3).join('\n')],
    });
    expect(blockPieces('```ts\na\nb\n```', cutAnywhere)).toEqual({ kind: 'fence', opener: '```ts', pieces: ['a\nb'] });
  });

  it('ends a fence piece only where the cut check allows, asking with the fence language', () => {
    const code = lines(6, 399, (index) => (index === 2 ? '/* a comment' : index === 4 ? 'ends here */' : `line ${index}`));
    const asked: string[] = [];
    const outsideComments: FenceCutCheck = (language, piece) => {
      asked.push(language);
      return piece.lastIndexOf('/*') <= piece.lastIndexOf('*/');
    };
    expect(blockPieces(['``` ts title="x.ts"', ...code].join('\n'), outsideComments)).toEqual({
      kind: 'fence',
      opener: '``` ts title="x.ts"',
      pieces: [code.slice(0, 5).join('\n'), code.slice(5).join('\n')],
    });
    expect(new Set(asked)).toEqual(new Set(['ts']));
  });

  it('parses a fence whole when no cut check is given, when closed before its last line, or too short to cut', () => {
    expect(blockPieces('```ts\na\nb\n```', null)).toBeNull();
    expect(blockPieces('```ts\na\nb', null)).toBeNull();
    expect(blockPieces('```ts\na\n```\nb', cutAnywhere)).toBeNull();
    expect(blockPieces('```ts\na', cutAnywhere)).toBeNull();
    expect(blockPieces('~~~\na\n```\nb', cutAnywhere)).toEqual({ kind: 'fence', opener: '~~~', pieces: ['a\n```\nb'] });
  });

  it('reads the language from the info string as the first word', () => {
    expect(fenceLanguage('```ts')).toBe('ts');
    expect(fenceLanguage('  ~~~~ python  title')).toBe('python');
    expect(fenceLanguage('```')).toBe('');
  });

  it('cuts a table into runs of body rows under its header and delimiter', () => {
    const rows = lines(6, 299, (index) => `| ${index} | x |`);
    expect(blockPieces(['| a | b |', '| :- | -: |', ...rows].join('\n'), null)).toEqual({
      kind: 'table',
      head: '| a | b |\n| :- | -: |',
      pieces: [rows.slice(0, 4).join('\n'), rows.slice(4).join('\n')],
      firstRows: [0, 4],
    });
  });

  it('parses a table whole when a row does not start with a pipe or the head is not a table', () => {
    expect(blockPieces('| a | b |\n| - | - |\n| 1 | 2 |\nlazy', null)).toBeNull();
    expect(blockPieces('| a | b |\n| - |\n| 1 | 2 |', null)).toBeNull();
    expect(blockPieces('| a | b |\n| x | - |\n| 1 | 2 |', null)).toBeNull();
  });

  it('cuts a tight list into runs of whole items, nested lines staying with their item', () => {
    const items = Array.from({ length: 4 }, (_, index) => `${index + 7}. item ${index}`.padEnd(500, '.') + `\n    - nested ${index}`);
    expect(blockPieces(items.join('\n'), null)).toEqual({
      kind: 'list',
      marker: '7.',
      pieces: [items.slice(0, 2).join('\n'), items.slice(2).join('\n')],
      firstItems: [0, 2],
    });
  });

  it('parses a list whole when it is loose, holds a task or a fence, changes marker, or has a lazy line', () => {
    expect(blockPieces('- a\n- b\n\n- c', null)).toBeNull();
    expect(blockPieces('- a\n- [ ] b\n- c', null)).toBeNull();
    expect(blockPieces('- a\n  ```\n  x\n- c', null)).toBeNull();
    expect(blockPieces('- a\n* b\n- c', null)).toBeNull();
    expect(blockPieces('1. a\n2) b\n3. c', null)).toBeNull();
    expect(blockPieces('- a\nlazy\n- c', null)).toBeNull();
    expect(blockPieces('- a\n- b\n- - -', null)).toBeNull();
    expect(blockPieces('- a\n- b\n- c', null)).toEqual({ kind: 'list', marker: '-', pieces: ['- a\n- b\n- c'], firstItems: [0] });
  });

  it('parses anything else whole', () => {
    expect(blockPieces('one\ntwo\nthree', cutAnywhere)).toBeNull();
    expect(blockPieces('> quote\n> more\n> lines', cutAnywhere)).toBeNull();
  });
});

describe('textPieces', () => {
  it('cuts plain text into runs of whole lines that join back to the text', () => {
    const text = lines(7, 299, (index) => `| ${index} | row |`).join('\n');
    const pieces = textPieces(text);
    expect(pieces).toHaveLength(2);
    expect(pieces[0]?.endsWith('\n')).toBe(true);
    expect(pieces.join('')).toBe(text);
    expect(textPieces('one line')).toEqual(['one line']);
  });
});
