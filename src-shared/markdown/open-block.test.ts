import { describe, expect, it } from 'vitest';
import { blockPieces, OPEN_BLOCK_PIECE_CHARS } from './open-block';

/** `count` lines of `width` characters each. */
function lines(count: number, width: number, make: (index: number) => string): string[] {
  return Array.from({ length: count }, (_, index) => make(index).padEnd(width, '.'));
}

describe('blockPieces', () => {
  it('cuts an unclosed fence into runs of code lines, each closed at the first line that fills it', () => {
    const code = lines(5, 399, (index) => `line ${index}`);
    expect(blockPieces(['```ts', ...code].join('\n'), true)).toEqual({
      kind: 'fence',
      opener: '```ts',
      pieces: [code.slice(0, 3).join('\n'), code.slice(3).join('\n')],
    });
    expect(OPEN_BLOCK_PIECE_CHARS).toBe(1_024);
  });

  it('parses a fence whole once it closes, before the reply ends, or when it is too short to cut', () => {
    expect(blockPieces('```ts\na\nb\n```', true)).toBeNull();
    expect(blockPieces('```ts\na\nb', false)).toBeNull();
    expect(blockPieces('```ts\na', true)).toBeNull();
    expect(blockPieces('~~~\na\n```\nb', true)).toEqual({ kind: 'fence', opener: '~~~', pieces: ['a\n```\nb'] });
  });

  it('cuts a table into runs of body rows under its header and delimiter', () => {
    const rows = lines(6, 299, (index) => `| ${index} | x |`);
    expect(blockPieces(['| a | b |', '| :- | -: |', ...rows].join('\n'), false)).toEqual({
      kind: 'table',
      head: '| a | b |\n| :- | -: |',
      pieces: [rows.slice(0, 4).join('\n'), rows.slice(4).join('\n')],
    });
  });

  it('parses a table whole when a row does not start with a pipe or the head is not a table', () => {
    expect(blockPieces('| a | b |\n| - | - |\n| 1 | 2 |\nlazy', false)).toBeNull();
    expect(blockPieces('| a | b |\n| - |\n| 1 | 2 |', false)).toBeNull();
    expect(blockPieces('| a | b |\n| x | - |\n| 1 | 2 |', false)).toBeNull();
  });

  it('cuts a tight list into runs of whole items, nested lines staying with their item', () => {
    const items = Array.from({ length: 4 }, (_, index) => `${index + 7}. item ${index}`.padEnd(500, '.') + `\n    - nested ${index}`);
    expect(blockPieces(items.join('\n'), false)).toEqual({
      kind: 'list',
      marker: '7.',
      pieces: [items.slice(0, 2).join('\n'), items.slice(2).join('\n')],
    });
  });

  it('parses a list whole when it is loose, holds a task or a fence, changes marker, or has a lazy line', () => {
    expect(blockPieces('- a\n- b\n\n- c', false)).toBeNull();
    expect(blockPieces('- a\n- [ ] b\n- c', false)).toBeNull();
    expect(blockPieces('- a\n  ```\n  x\n- c', false)).toBeNull();
    expect(blockPieces('- a\n* b\n- c', false)).toBeNull();
    expect(blockPieces('1. a\n2) b\n3. c', false)).toBeNull();
    expect(blockPieces('- a\nlazy\n- c', false)).toBeNull();
    expect(blockPieces('- a\n- b\n- - -', false)).toBeNull();
    expect(blockPieces('- a\n- b\n- c', false)).toEqual({ kind: 'list', marker: '-', pieces: ['- a\n- b\n- c'] });
  });

  it('parses anything else whole', () => {
    expect(blockPieces('one\ntwo\nthree', true)).toBeNull();
    expect(blockPieces('> quote\n> more\n> lines', true)).toBeNull();
  });
});
