import { describe, expect, it } from 'vitest';
import {
  deleteMemory,
  findMemoryByText,
  getMemory,
  insertMemory,
  listMemories,
  MAX_QUERY_TERMS,
  parseMemoryQuery,
  searchMemories,
  updateMemory,
} from './memories';
import type { AppDatabase } from './open';
import { openTestDatabase } from './test-database';

function seed(db: AppDatabase, texts: readonly string[]): void {
  texts.forEach((text, index) => insertMemory(db, { id: `m${index + 1}`, text, now: `2026-01-0${index + 1}T00:00:00.000Z` }));
}

function ids(db: AppDatabase, query: string, limit = 10): string[] {
  return searchMemories(db, query, limit).map((match) => match.id);
}

/** Rows the index itself (not the content table) still holds for a term. */
function indexedRowids(db: AppDatabase, term: string): number[] {
  return db.$client
    .prepare<[string], number>('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid')
    .pluck()
    .all(`"${term}"`);
}

describe('memory rows', () => {
  it('inserts, reads, updates and deletes', () => {
    const db = openTestDatabase();
    expect(insertMemory(db, { id: 'a', text: 'Likes green tea', now: 't0' })).toEqual({
      id: 'a', text: 'Likes green tea', createdAt: 't0', updatedAt: 't0',
    });
    expect(updateMemory(db, 'a', 'Likes black tea', 't1')).toEqual({ id: 'a', text: 'Likes black tea', createdAt: 't0', updatedAt: 't1' });
    expect(getMemory(db, 'a')).toEqual({ id: 'a', text: 'Likes black tea', createdAt: 't0', updatedAt: 't1' });
    expect(findMemoryByText(db, 'Likes black tea')?.id).toBe('a');
    expect(findMemoryByText(db, 'likes black tea')).toBeNull();
    expect(updateMemory(db, 'missing', 'x', 't2')).toBeNull();
    expect(deleteMemory(db, 'a')).toBe(true);
    expect(deleteMemory(db, 'a')).toBe(false);
    expect(getMemory(db, 'a')).toBeNull();
  });

  it('lists newest first and pages after a given memory', () => {
    const db = openTestDatabase();
    seed(db, ['one', 'two', 'three', 'four', 'five']);
    // Same creation time: the id breaks the tie.
    insertMemory(db, { id: 'm0', text: 'zero', now: '2026-01-05T00:00:00.000Z' });
    expect(listMemories(db, { limit: 10 }).map((row) => row.id)).toEqual(['m5', 'm0', 'm4', 'm3', 'm2', 'm1']);
    expect(listMemories(db, { limit: 2 }).map((row) => row.id)).toEqual(['m5', 'm0']);
    expect(listMemories(db, { limit: 2, beforeId: 'm0' }).map((row) => row.id)).toEqual(['m4', 'm3']);
    expect(listMemories(db, { limit: 2, beforeId: 'm2' }).map((row) => row.id)).toEqual(['m1']);
    expect(listMemories(db, { limit: 2, beforeId: 'm1' })).toEqual([]);
    expect(listMemories(db, { limit: 2, beforeId: 'gone' })).toEqual([]);
    expect(listMemories(db, { limit: 0 })).toEqual([]);
    expect(listMemories(db, { limit: Number.NaN })).toEqual([]);
    expect(listMemories(db, { limit: Infinity })).toHaveLength(6);
    expect(listMemories(db, { limit: 2.9 })).toHaveLength(2);
  });
});

describe('parseMemoryQuery', () => {
  it('quotes each remaining word, prefixes words of two or more characters, and ORs them', () => {
    expect(parseMemoryQuery('Where do I live in Seoul?')).toEqual({ matchExpression: '"live"* OR "seoul"*', substrings: [] });
    expect(parseMemoryQuery('Room 5, floor B')).toEqual({ matchExpression: '"room"* OR "5" OR "floor"*', substrings: [] });
    expect(parseMemoryQuery('seoul SEOUL Seoul')).toEqual({ matchExpression: '"seoul"*', substrings: [] });
  });

  it('keeps FTS5 syntax out of the expression', () => {
    expect(parseMemoryQuery('text: "seoul" AND (cat OR NEAR(miso -dog)) * ^col {a b}').matchExpression).toBe(
      '"text"* OR "seoul"* OR "cat"* OR "near"* OR "miso"* OR "dog"* OR "col"*',
    );
  });

  it('searches Korean words by their stem and Chinese or Japanese words also as substrings', () => {
    expect(parseMemoryQuery('서울에서 뭐 해?')).toEqual({ matchExpression: '"서울"* OR "해"', substrings: [] });
    expect(parseMemoryQuery('고양이')).toEqual({ matchExpression: '"고양"*', substrings: [] });
    expect(parseMemoryQuery('住んで 東京')).toEqual({ matchExpression: '"住んで"* OR "東京"*', substrings: ['住んで', '東京'] });
  });

  it('finds nothing to search in punctuation, emoji, stop words or nothing', () => {
    for (const query of ['', '   ', '?!.,;:', '"*():-', '🎉🎉', 'what is it?', 'a b c']) {
      expect(parseMemoryQuery(query)).toEqual({ matchExpression: null, substrings: [] });
    }
  });

  it('caps the number of terms', () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`).join(' ');
    expect(parseMemoryQuery(words).matchExpression?.split(' OR ')).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe('searchMemories', () => {
  const texts = [
    'I live in Seoul and work as a designer',
    'My cat is called Miso',
    'Seoul winters are cold; I visit Seoul every December',
    'Designer tools: Figma',
  ];

  it('ranks by bm25, best first, with a positive score', () => {
    const db = openTestDatabase();
    seed(db, texts);
    const matches = searchMemories(db, 'Where do I live in Seoul?', 10);
    expect(matches.map((match) => match.id)).toEqual(['m1', 'm3']);
    expect(matches[0]!.score).toBeGreaterThan(matches[1]!.score);
    expect(matches[1]!.score).toBeGreaterThan(0);
    expect(ids(db, 'designer')).toEqual(['m4', 'm1']);
    expect(ids(db, 'designer', 1)).toEqual(['m4']);
    expect(ids(db, 'designer', 0)).toEqual([]);
    expect(ids(db, 'designer', -3)).toEqual([]);
    expect(ids(db, 'designer', Infinity)).toEqual(['m4', 'm1']);
    // Prefix match: "design" finds "designer".
    expect(ids(db, 'design')).toEqual(['m4', 'm1']);
  });

  it('matches regardless of case and diacritics', () => {
    const db = openTestDatabase();
    seed(db, ['Favourite café: Café Müller', 'Naïve Bayes notes']);
    expect(ids(db, 'CAFE muller')).toEqual(['m1']);
    expect(ids(db, 'naive')).toEqual(['m2']);
  });

  it('finds Hangul text by the stem of a query word', () => {
    const db = openTestDatabase();
    seed(db, ['나는 서울에 산다', '고양이 이름은 미소', '서울시청 근처 카페를 좋아한다', '부산 여행 계획']);
    expect(ids(db, '서울에서 뭐 해?')).toEqual(['m1', 'm3']);
    expect(ids(db, '고양이 이름이 뭐야')).toEqual(['m2']);
    expect(ids(db, '부산')).toEqual(['m4']);
    expect(ids(db, '대전')).toEqual([]);
  });

  it('finds Chinese and Japanese words inside a longer run, after the ranked matches', () => {
    const db = openTestDatabase();
    seed(db, ['東京に住んでいます', '住んでいる場所は大阪', '我喜欢吃苹果']);
    expect(searchMemories(db, '住んで', 10)).toEqual([
      { id: 'm2', text: '住んでいる場所は大阪', score: expect.any(Number) },
      { id: 'm1', text: '東京に住んでいます', score: 0 },
    ]);
    expect(ids(db, '東京')).toEqual(['m1']);
    expect(ids(db, '苹果')).toEqual(['m3']);
    expect(ids(db, '苹果', 0)).toEqual([]);
  });

  it('searches text with emoji by its words, and an emoji-only query finds nothing', () => {
    const db = openTestDatabase();
    seed(db, ['Birthday party 🎉 on May 3', '🎉🎉🎉']);
    expect(ids(db, '🎉')).toEqual([]);
    expect(ids(db, '🎉 party!!')).toEqual(['m1']);
    expect(ids(db, 'party🎉birthday')).toEqual(['m1']);
  });

  it('never throws on FTS5 or SQL syntax in the query', () => {
    const db = openTestDatabase();
    seed(db, texts);
    const hostile = [
      '"', '""', '"seoul', '*', 'seoul*', '(', ')', '(seoul', 'text:seoul', ':', 'NEAR', 'NEAR(seoul cat)', 'NEAR/2',
      'AND', 'OR', 'NOT', 'seoul AND', 'OR cat', '-', '-seoul', 'seoul - cat', '^seoul', '{text}: seoul', "'; DROP TABLE memories; --",
      '\\', '\u0000', '%', '_',
    ];
    for (const query of hostile) expect(() => searchMemories(db, query, 5), query).not.toThrow();
    expect(ids(db, '"seoul')).toEqual(['m3', 'm1']);
    expect(ids(db, 'NEAR(cat miso) AND -seoul')).toEqual(['m2', 'm3', 'm1']);
    expect(ids(db, "'; DROP TABLE memories; --")).toEqual([]);
    expect(ids(db, '?!.,;:')).toEqual([]);
    expect(ids(db, '')).toEqual([]);
    expect(listMemories(db, { limit: 10 })).toHaveLength(4);
  });

  it('re-indexes an updated memory and drops a deleted one from the index', () => {
    const db = openTestDatabase();
    seed(db, texts);
    const catRowid = indexedRowids(db, 'cat');
    expect(catRowid).toHaveLength(1);

    updateMemory(db, 'm2', 'My dog is called Bori', 't9');
    expect(ids(db, 'cat')).toEqual([]);
    expect(indexedRowids(db, 'cat')).toEqual([]);
    expect(ids(db, 'bori')).toEqual(['m2']);
    expect(indexedRowids(db, 'bori')).toEqual(catRowid);

    deleteMemory(db, 'm2');
    expect(ids(db, 'bori')).toEqual([]);
    expect(indexedRowids(db, 'bori')).toEqual([]);
    deleteMemory(db, 'm1');
    expect(ids(db, 'seoul')).toEqual(['m3']);
    expect(indexedRowids(db, 'seoul')).toHaveLength(1);
    // The index stays consistent with its content table.
    expect(() => db.$client.exec("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
  });

  it('searches a long pasted message without error', () => {
    const db = openTestDatabase();
    seed(db, texts);
    const long = `${'lorem ipsum dolor '.repeat(2000)} seoul`;
    expect(() => searchMemories(db, long, 5)).not.toThrow();
    const manyWords = Array.from({ length: 300 }, (_, index) => `w${index}`).join(' ');
    expect(ids(db, `Figma ${manyWords}`)).toEqual(['m4']);
  });
});
