const CONVERSATION_HASH_PREFIX = '#/c/';
const MAX_ID_LENGTH = 64;

/** The conversation id in a `#/c/<id>` hash, or null. */
export function conversationIdFromHash(hash: string): string | null {
  if (!hash.startsWith(CONVERSATION_HASH_PREFIX)) return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(CONVERSATION_HASH_PREFIX.length));
  } catch {
    return null;
  }
  return id.length > 0 && id.length <= MAX_ID_LENGTH && !id.includes('/') ? id : null;
}

export function hashForConversation(conversationId: string): string {
  return `${CONVERSATION_HASH_PREFIX}${encodeURIComponent(conversationId)}`;
}

/** Records the open conversation in the address, so a reload reopens it. */
export function writeConversationHash(conversationId: string | null): void {
  const wanted = conversationId === null ? '' : hashForConversation(conversationId);
  if (window.location.hash === wanted) return;
  if (conversationId === null) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  } else {
    window.location.hash = wanted;
  }
}
