import { describe, expect, it } from 'vitest';
import { blockGroups, BLOCKS_PER_GROUP } from './block-groups';

const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index}.`);

describe('blockGroups', () => {
  it('closes a group once it holds its share of blocks', () => {
    expect(BLOCKS_PER_GROUP).toBe(16);
    expect(blockGroups(paragraphs(40))).toEqual([...Array(16).fill(0), ...Array(16).fill(1), ...Array(8).fill(2)]);
  });

  it('starts no group with a block that has a margin above it', () => {
    const blocks = [...paragraphs(16), '## Heading', '---', 'Title\n=====', '<div>raw</div>', '- a list', 'more'];
    expect(blockGroups(blocks)).toEqual([...Array(16).fill(0), 0, 0, 0, 0, 1, 1]);
    expect(blockGroups([...paragraphs(16), 'Not a heading\nsecond line'])).toEqual([...Array(16).fill(0), 1]);
  });

  it('keeps every block in its group as later blocks arrive', () => {
    const blocks = [...paragraphs(20), '# Heading', ...paragraphs(30)];
    const whole = blockGroups(blocks);
    for (let count = 1; count <= blocks.length; count += 1) expect(blockGroups(blocks.slice(0, count))).toEqual(whole.slice(0, count));
  });
});
