import { describe, expect, it } from 'vitest';
import { conversationIdFromHash, hashForConversation } from './hash-route';

describe('conversationIdFromHash', () => {
  it('reads the id of a conversation hash', () => {
    expect(conversationIdFromHash('#/c/01JABCDEF')).toBe('01JABCDEF');
  });

  it('decodes an encoded id', () => {
    expect(conversationIdFromHash('#/c/a%20b')).toBe('a b');
  });

  it('refuses other hashes, empty ids, nested paths, bad encodings and overlong ids', () => {
    expect(conversationIdFromHash('')).toBeNull();
    expect(conversationIdFromHash('#/settings')).toBeNull();
    expect(conversationIdFromHash('#/c/')).toBeNull();
    expect(conversationIdFromHash('#/c/a/b')).toBeNull();
    expect(conversationIdFromHash('#/c/%E0%A4%A')).toBeNull();
    expect(conversationIdFromHash(`#/c/${'x'.repeat(65)}`)).toBeNull();
  });

  it('round-trips through hashForConversation', () => {
    expect(hashForConversation('a/b c')).toBe('#/c/a%2Fb%20c');
    expect(conversationIdFromHash(hashForConversation('01J-x_y'))).toBe('01J-x_y');
  });
});
