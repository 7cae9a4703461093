import { fenceOpenedBy } from './split-blocks';

/**
 * GFM table parsing (micromark-extension-gfm-table) costs about 0.1 ms a cell on a two-core machine: a 2,000-row,
 * 300-column reply took 100 s to parse. Past this many cell separators in one block, the rest shows as plain text.
 */
export const MAX_TABLE_CELL_SEPARATORS = 2_000;

export interface BudgetedBlock {
  /** The lines that are parsed as markdown. */
  readonly markdown: string;
  /** The lines past the budget, shown as plain text; null when the whole block fits. */
  readonly plainText: string | null;
}

function countSeparators(line: string): number {
  let count = 0;
  for (let index = line.indexOf('|'); index >= 0; index = line.indexOf('|', index + 1)) count += 1;
  return count;
}

/**
 * Splits a block at the first line that would take its `|` count past `maxSeparators`. Every line is kept: the ones
 * before the cut parse as markdown, the rest are shown as they are. A block that opens a code fence is never cut.
 */
export function withinTableBudget(block: string, maxSeparators: number = MAX_TABLE_CELL_SEPARATORS): BudgetedBlock {
  if (countSeparators(block) <= maxSeparators) return { markdown: block, plainText: null };
  const lines = block.split('\n');
  if (fenceOpenedBy(lines[0] ?? '') !== null) return { markdown: block, plainText: null };
  let separators = 0;
  for (const [index, line] of lines.entries()) {
    separators += countSeparators(line);
    if (separators > maxSeparators) {
      return { markdown: lines.slice(0, index).join('\n'), plainText: lines.slice(index).join('\n') };
    }
  }
  return { markdown: block, plainText: null };
}
