import { describe, expect, it } from 'vitest';
import { MAX_TABLE_CELL_SEPARATORS, withinTableBudget } from './table-budget';

describe('withinTableBudget', () => {
  it('keeps a block within the budget whole', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |';
    expect(withinTableBudget(table, 9)).toEqual({ markdown: table, plainText: null });
  });

  it('cuts before the line that passes the budget and keeps every later line as plain text', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |';
    expect(withinTableBudget(table, 8)).toEqual({ markdown: '| a | b |\n| - | - |', plainText: '| 1 | 2 |\n| 3 | 4 |' });
  });

  it('cuts a 2,000-row, 300-column table after the rows the default budget holds', () => {
    const row = `|${' x |'.repeat(300)}`;
    const table = [row, `|${' - |'.repeat(300)}`, ...Array.from({ length: 2000 }, () => row)].join('\n');
    const budgeted = withinTableBudget(table);
    const keptLines = Math.floor(MAX_TABLE_CELL_SEPARATORS / 301);
    expect(budgeted.markdown.split('\n')).toHaveLength(keptLines);
    expect(budgeted.plainText?.split('\n')).toHaveLength(2002 - keptLines);
    expect(`${budgeted.markdown}\n${budgeted.plainText}`).toBe(table);
  });

  it('never cuts a fenced code block', () => {
    const code = `\`\`\`\n${'a || b\n'.repeat(10)}\`\`\``;
    expect(withinTableBudget(code, 4)).toEqual({ markdown: code, plainText: null });
  });
});
