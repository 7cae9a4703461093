import { describe, expect, it } from 'vitest';
import { buildReceipt, chipLabel, memoryPreview } from './receipt';

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

  it("names a recalled memory by its first words, and keeps the tool's label for memory tools and empty outputs", () => {
    const receipt = buildReceipt([
      { id: 'a', kind: 'memory', server: null, tool: 'memory', status: 'ok', output: 'The user lives in Seoul and works night shifts at a hospital.' },
      { id: 'b', kind: 'memory', server: null, tool: 'memory', status: 'ok', output: 'Prefers metric units.' },
      { id: 'c', kind: 'memory', server: null, tool: 'memory', status: 'ok', output: '  ' },
      { id: 'd', kind: 'memory', server: null, tool: 'memory_search', status: 'ok', output: '[{"text":"Prefers metric units."}]' },
      { id: 'e', kind: 'tool', server: 'files', tool: 'read_file', status: 'ok', output: 'file text' },
    ]);
    expect(receipt.summary).toBe('4 memories · 1 tool');
    expect(receipt.chips.map((chip) => chip.label)).toEqual([
      'The user lives in Seoul and works night…',
      'Prefers metric units.',
      'memory',
      'memory_search',
      'files · read_file',
    ]);
  });

  it('cuts a memory preview at a word boundary within 40 characters, or inside a word with no boundary', () => {
    expect(memoryPreview('Prefers   metric\nunits.')).toBe('Prefers metric units.');
    expect(memoryPreview('a'.repeat(40))).toBe('a'.repeat(40));
    expect(memoryPreview('Has two cats named Miso and Tofu, both, very old')).toBe('Has two cats named Miso and Tofu, both…');
    expect(memoryPreview('x'.repeat(50))).toBe(`${'x'.repeat(40)}…`);
    expect(memoryPreview('사용자는 서울에 살고 병원에서 야간 근무를 하며 주말에는 등산을 좋아하는 사람이다')).toBe('사용자는 서울에 살고 병원에서 야간 근무를 하며 주말에는 등산을 좋아하는…');
    expect(memoryPreview('사용자는 서울에 살고 병원에서 야간 근무를 하며 주말에는 등산을 좋아하는사람이다')).toBe('사용자는 서울에 살고 병원에서 야간 근무를 하며 주말에는 등산을…');
    expect(memoryPreview('🌱'.repeat(45))).toBe(`${'🌱'.repeat(40)}…`);
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
