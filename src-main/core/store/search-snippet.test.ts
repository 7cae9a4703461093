import { describe, expect, it } from 'vitest';
import { SEARCH_MARK_END as END, SEARCH_MARK_START as START } from '../../../src-shared/search';
import { insertConversation } from './conversations';
import { insertMessage } from './messages';
import type { AppDatabase } from './open';
import { searchMessages } from './search';
import { markTerms, snippetAround } from './search-snippet';
import { openTestDatabase } from './test-database';

const NOW = '2026-12-01T10:00:00.000Z';

function withReplies(texts: readonly string[]): AppDatabase {
  const db = openTestDatabase();
  insertConversation(db, { id: 'c1', title: 'Loops', brain: 'kimi', model: null, now: NOW });
  texts.forEach((text, index) => {
    insertMessage(db, { id: `m${index}`, conversationId: 'c1', seq: index + 1, turnId: `t${index}`, role: 'assistant', text, status: 'complete', brain: 'kimi', createdAt: NOW });
  });
  return db;
}

describe('snippets of long and repetitive texts', () => {
  it('cuts the snippet of a 240 KB reply of one repeated phrase from its first hit, found as before', () => {
    const reply = 'Intro line. ' + 'the loop goes round '.repeat(12_000);
    const db = withReplies([reply, 'a short loop note']);
    const { hits } = searchMessages(db, 'loop go');
    expect(hits.map((hit) => hit.messageId)).toEqual(['m0']);
    expect(hits[0]?.snippet).toBe(
      `Intro line. the ${START}loop${END} ${START}goes${END} round the ${START}loop${END} ${START}goes${END} round the ${START}loop${END} ` +
        `${START}goes${END} round the ${START}loop${END} ${START}goes${END} round the ${START}loop${END} ${START}goes${END} round the …`,
    );
  });

  it('marks only word starts in the words path and ignores accents, as unicode61 does', () => {
    const reply = 'x'.repeat(5000) + ' swords and a Café word here';
    const db = withReplies([reply]);
    expect(searchMessages(db, 'cafe word').hits[0]?.snippet).toBe(
      `…${'x'.repeat(40 - ' swords and a '.length)} swords and a ${START}Café${END} ${START}word${END} here`,
    );
  });

  it('bounds the CJK path the same way: a 240 KB repeated Korean reply and a short term found with LIKE', () => {
    const reply = '서울에서 친구를 만났어요 '.repeat(18_000);
    const db = withReplies([reply]);
    const long = searchMessages(db, '친구를').hits[0]?.snippet;
    // 100 characters from the first hit: seven whole phrases of 14 characters, and 7 more, ending inside a hit.
    expect(long).toBe(`${`서울에서 ${START}친구를${END} 만났어요 `.repeat(7)}서울에서 ${START}친구${END}…`);
    expect(searchMessages(db, '서울').hits.map((hit) => hit.messageId)).toEqual(['m0']);
  });

  it('reads only the first 64 Ki characters: a hit after them is found but shown from the start', () => {
    const reply = 'a'.repeat(70_000) + ' needle';
    const db = withReplies([reply]);
    const { hits } = searchMessages(db, 'needle');
    expect(hits.map((hit) => hit.messageId)).toEqual(['m0']);
    expect(hits[0]?.snippet).toBe(`${'a'.repeat(100)}…`);
  });

  it('marks every occurrence in a title and around the first hit, merged where they touch', () => {
    expect(markTerms('Notes on notes', ['note'])).toBe(`${START}Note${END}s on ${START}note${END}s`);
    expect(snippetAround({ text: 'abcabc', truncated: false }, ['abc', 'ca'])).toBe(`${START}abcabc${END}`);
    expect(snippetAround({ text: 'short', truncated: true }, ['or'])).toBe(`sh${START}or${END}t…`);
  });
});
