import { describe, expect, it } from 'vitest';
import { buildReceipt, chipLabel } from './receipt';

describe('buildReceipt', () => {
  it('counts by kind in a fixed order, singular and plural, silent about zeros', () => {
    const receipt = buildReceipt([
      { id: 'a', kind: 'tool', server: 'everything', tool: 'echo', status: 'ok' },
      { id: 'b', kind: 'memory', server: null, tool: 'memory', status: 'ok' },
      { id: 'c', kind: 'memory', server: null, tool: 'memory', status: 'ok' },
      { id: 'd', kind: 'tool', server: null, tool: 'current_time', status: 'error' },
      { id: 'e', kind: 'skill', server: null, tool: 'summarise', status: 'ok' },
    ]);
    expect(receipt.summary).toBe('2 memories · 2 tools · 1 skill');
    expect(receipt.counts).toEqual({ memory: 2, tool: 2, skill: 1 });
    expect(receipt.chips.map((chip) => chip.label)).toEqual(['everything · echo', 'memory', 'memory', 'current_time', 'summarise']);
    expect(buildReceipt([{ id: 'x', kind: 'tool', server: null, tool: 'current_time', status: 'ok' }]).summary).toBe('1 tool');
  });

  it('says nothing when nothing was used', () => {
    expect(buildReceipt([])).toEqual({ counts: { memory: 0, tool: 0, skill: 0 }, summary: '', chips: [] });
  });

  it('never shows ?:: or undefined in a chip', () => {
    expect(chipLabel(null, 'read_file')).toBe('read_file');
    expect(chipLabel('', 'read_file')).toBe('read_file');
    expect(chipLabel('files', '')).toBe('files · unnamed tool');
  });
});
