/**
 * How long a conversation's title may be, wherever it comes from (the window, the command line, an import): a title is
 * read in a sidebar row and a terminal line, and a file can name a conversation with a megabyte.
 */

/** The longest title kept, in UTF-16 code units (what the API's schemas count). */
export const MAX_TITLE_LENGTH = 500;

const CUT_MARK = '…';

/** A title as it is stored and shown: a longer one is cut, never inside a character, and ends in "…" to say so. */
export function boundedTitle(title: string): string {
  if (title.length <= MAX_TITLE_LENGTH) return title;
  let end = MAX_TITLE_LENGTH - CUT_MARK.length;
  const last = title.charCodeAt(end - 1);
  // A high surrogate whose pair would be cut off goes with it.
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${title.slice(0, end)}${CUT_MARK}`;
}
