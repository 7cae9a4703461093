import { describe, expect, it } from 'vitest';
import { getMemory, insertMemory, listMemories } from '../store/memories';
import { openTestDatabase } from '../store/test-database';
import type { ToolDefinition } from './catalogue';
import { createMemoryTools } from './memory-tools';

const context = { signal: new AbortController().signal, now: () => new Date('2026-11-30T11:00:00.000Z') };

function toolsFor(db = openTestDatabase()) {
  const [search, save] = createMemoryTools(db) as [ToolDefinition, ToolDefinition];
  return { db, search, save };
}

function savedId(output: string): string {
  const match = /^Saved memory ([0-9A-Z]{26})\.$/.exec(output);
  if (!match?.[1]) throw new Error(`Unexpected output: ${output}`);
  return match[1];
}

describe('memory tools', () => {
  it('declares exactly memory_search and memory_save as built-ins with closed schemas', () => {
    const tools = createMemoryTools(openTestDatabase());
    expect(tools.map((tool) => [tool.name, tool.server])).toEqual([
      ['memory_search', null],
      ['memory_save', null],
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description.length).toBeGreaterThan(20);
    }
    expect(tools[0]!.inputSchema).toMatchObject({ required: ['query'], properties: { limit: { maximum: 20 } } });
    expect(tools[1]!.inputSchema).toMatchObject({ required: ['text'], properties: { text: { maxLength: 4000 } } });
  });

  it('saves trimmed text and finds it again', async () => {
    const { db, search, save } = toolsFor();
    const first = await save.execute({ text: '  The user lives in Seoul.\n' }, context);
    expect(first.isError).toBe(false);
    const seoulId = savedId(first.output);
    expect(getMemory(db, seoulId)).toEqual({
      id: seoulId, text: 'The user lives in Seoul.', createdAt: '2026-11-30T11:00:00.000Z', updatedAt: '2026-11-30T11:00:00.000Z',
    });
    const catId = savedId((await save.execute({ text: '고양이 이름은 미소\n(삼색이)' }, context)).output);

    expect(await search.execute({ query: 'Where does the user live?' }, context)).toEqual({
      output: `1. [${seoulId}] The user lives in Seoul.`,
      isError: false,
    });
    expect(await search.execute({ query: '고양이 이름', limit: 1 }, context)).toEqual({
      output: `1. [${catId}] 고양이 이름은 미소\n   (삼색이)`,
      isError: false,
    });
  });

  it('numbers several matches best first and honours the limit', async () => {
    const { db, search } = toolsFor();
    insertMemory(db, { id: 'm1', text: 'Prefers tea over coffee', now: 't1' });
    insertMemory(db, { id: 'm2', text: 'Coffee: oat flat white, coffee after lunch only', now: 't2' });
    insertMemory(db, { id: 'm3', text: 'Allergic to peanuts', now: 't3' });
    expect((await search.execute({ query: 'coffee' }, context)).output).toBe(
      '1. [m2] Coffee: oat flat white, coffee after lunch only\n2. [m1] Prefers tea over coffee',
    );
    expect((await search.execute({ query: 'coffee', limit: null }, context)).output).toContain('2. [m1]');
    expect((await search.execute({ query: 'coffee', limit: 1 }, context)).output).toBe('1. [m2] Coffee: oat flat white, coffee after lunch only');
  });

  it('says when nothing matches, including queries with nothing searchable', async () => {
    const { search } = toolsFor();
    expect(await search.execute({ query: 'dentist' }, context)).toEqual({ output: 'No memories match "dentist".', isError: false });
    expect(await search.execute({ query: ' "(*)" ' }, context)).toEqual({ output: 'No memories match ""(*)"".', isError: false });
  });

  it('does not save the same text twice', async () => {
    const { db, save } = toolsFor();
    const id = savedId((await save.execute({ text: 'Vegetarian' }, context)).output);
    expect(await save.execute({ text: ' Vegetarian ' }, context)).toEqual({ output: `Already saved as memory ${id}.`, isError: false });
    expect(listMemories(db, { limit: 10 })).toHaveLength(1);
  });

  it('accepts exactly 4,000 characters, counted as code points', async () => {
    const { db, save } = toolsFor();
    const result = await save.execute({ text: '가'.repeat(3_999) + '🎉' }, context);
    expect(result.isError).toBe(false);
    expect([...(getMemory(db, savedId(result.output))?.text ?? '')]).toHaveLength(4_000);
  });

  it('refuses invalid input with a clear message and saves nothing', async () => {
    const { db, search, save } = toolsFor();
    const refusals: [ToolDefinition, Record<string, unknown>, string][] = [
      [search, {}, '"query" must be a non-empty string of words to search for.'],
      [search, { query: '   ' }, '"query" must be a non-empty string of words to search for.'],
      [search, { query: 42 }, '"query" must be a non-empty string of words to search for.'],
      [search, { query: 'tea', limit: 0 }, '"limit" must be a whole number from 1 to 20.'],
      [search, { query: 'tea', limit: 21 }, '"limit" must be a whole number from 1 to 20.'],
      [search, { query: 'tea', limit: 2.5 }, '"limit" must be a whole number from 1 to 20.'],
      [search, { query: 'tea', limit: '5' }, '"limit" must be a whole number from 1 to 20.'],
      [search, { query: 'tea', top: 3 }, 'Unknown field "top". Allowed: query, limit.'],
      [save, {}, '"text" must be a string: the memory to save.'],
      [save, { text: ['a'] }, '"text" must be a string: the memory to save.'],
      [save, { text: ' \n\t ' }, '"text" is empty. Give the memory to save as one self-contained statement.'],
      [save, { text: 'x'.repeat(4_001) }, '"text" is 4,001 characters; a memory holds at most 4,000. Save a shorter summary.'],
      [save, { text: 'ok', tags: ['a'] }, 'Unknown field "tags". Allowed: text.'],
    ];
    for (const [tool, input, message] of refusals) {
      expect(await tool.execute(input, context), JSON.stringify(input)).toEqual({ output: message, isError: true });
    }
    expect(listMemories(db, { limit: 10 })).toEqual([]);
  });
});
