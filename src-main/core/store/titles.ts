/**
 * A conversation's title from its first message: pure text work, with no database.
 */
import { DEFAULT_TITLE } from './conversations';

const TITLE_LENGTH = 60;

/** Stops and separators a title does without; `?` and `!` stay, since a question reads differently from a statement. */
const TRAILING_PUNCTUATION = /[\s.,;:…\u3002\u3001\uff0c\uff1a\uff1b-]+$/u;

/** Prose outside code spans as its words: links and images as their text, paired emphasis markers gone. */
function markdownProseText(prose: string): string {
  return (
    prose
      // Images and links read as their text: `![alt](src)` as alt, `[text](href)` as text.
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      // Autolinks `<https://…>` as their address.
      .replace(/<((?:https?|mailto):[^>\s]+)>/gi, '$1')
      // Emphasis, strong and strikethrough as their words; only paired markers go, so a lone `*` (2 * 3) stays.
      .replace(/(\*{1,3}|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      // Underscore emphasis only around words: snake_case names keep their underscores.
      .replace(/(^|[^\p{L}\p{N}_])(_{1,3})(?=\S)([^_]+?)(?<=\S)\2(?![\p{L}\p{N}_])/gu, '$1$3')
  );
}

/** The words a line of Markdown reads as: block markers and emphasis gone, code spans as their characters. */
function markdownLineText(line: string): string {
  // A code fence's opening line names a language, not the subject.
  if (/^\s*(?:`{3,}|~{3,})/.test(line)) return '';
  // A heading's `#`s, a quote's `>`, a list's bullet or a task box at the start of the line.
  const content = line.replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)+/, '');
  let text = '';
  let proseStart = 0;
  for (const code of content.matchAll(/(`+)(.+?)\1/g)) {
    text += markdownProseText(content.slice(proseStart, code.index)) + code[2]!;
    proseStart = code.index + code[0].length;
  }
  return text + markdownProseText(content.slice(proseStart));
}

/**
 * A new conversation's title: the first line with words in it, read as plain text (no Markdown markers), whitespace
 * collapsed, trailing stops and separators trimmed, cut at a word boundary to at most 60 characters (an ellipsis marks a cut).
 */
export function titleFromMessage(text: string): string {
  const firstLine = text
    .split(/\r?\n/)
    .map((line) => markdownLineText(line).replace(/\s+/g, ' ').trim())
    .find((line) => /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(line));
  if (firstLine === undefined) return DEFAULT_TITLE;
  const trimmed = firstLine.replace(TRAILING_PUNCTUATION, '');
  const characters = [...trimmed];
  if (characters.length <= TITLE_LENGTH) return trimmed || DEFAULT_TITLE;
  const head = characters.slice(0, TITLE_LENGTH - 1).join('');
  const boundary = head.lastIndexOf(' ');
  // A word cut in half reads worse than a shorter title; a line without spaces (Chinese, Japanese) cuts anywhere.
  const cut = characters[TITLE_LENGTH - 1] === ' ' || boundary < TITLE_LENGTH / 2 ? head : head.slice(0, boundary);
  return `${cut.replace(TRAILING_PUNCTUATION, '')}…`;
}
