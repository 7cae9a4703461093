/**
 * A reply that streams in keeps its completed blocks in groups, so the window styles, lays out and paints a few groups
 * per frame instead of every block the reply has grown to (see `.md-group` in markdown.css).
 */
export const BLOCKS_PER_GROUP = 16;

/** `# Title`: a heading keeps a space above it, which a group's edge would not let collapse with the block before. */
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** `---`, `***`, `___`: a thematic break has a margin above it too. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** The underline of a setext heading. */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

/**
 * Whether a block renders with no margin above it, so a group may start with it and look exactly as it does after the
 * block before it in one run. Raw HTML is dropped or escaped, but what it leaves is not known from the text alone.
 */
function startsWithoutMargin(block: string): boolean {
  const [firstLine = '', secondLine] = block.split('\n', 2);
  if (ATX_HEADING.test(firstLine) || THEMATIC_BREAK.test(firstLine) || /^ {0,3}</.test(firstLine)) return false;
  return secondLine === undefined || !SETEXT_UNDERLINE.test(secondLine);
}

/**
 * The group of each block: a group closes once it holds `BLOCKS_PER_GROUP` blocks, at the next block that starts
 * without a margin. A block's group depends only on the blocks up to it, so it never moves as the reply grows.
 */
export function blockGroups(blocks: readonly string[]): number[] {
  const groups: number[] = [];
  let group = 0;
  let inGroup = 0;
  for (const block of blocks) {
    if (inGroup >= BLOCKS_PER_GROUP && startsWithoutMargin(block)) {
      group += 1;
      inGroup = 0;
    }
    groups.push(group);
    inGroup += 1;
  }
  return groups;
}
