// CJK ideographs, kana, Hangul and fullwidth forms: each about one token in every provider's tokenizer.
const WIDE_CHARACTER = /[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff00-\uffef]/gu;

/** What one replayed message costs beyond its words: its role and the wire's separators. */
export const MESSAGE_FRAMING_TOKENS = 4;

/**
 * A cheap token estimate: a CJK or Hangul character counts as one token, other text about four characters a token
 * (characters divided by four would read Korean at a third of its size).
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const wide = text.match(WIDE_CHARACTER)?.length ?? 0;
  const narrow = text.length - wide;
  return wide + Math.ceil(narrow / 4);
}

/** A message that replays only its words: its text and its framing. */
export function estimateMessageTokens(text: string): number {
  return estimateTokens(text) + MESSAGE_FRAMING_TOKENS;
}
