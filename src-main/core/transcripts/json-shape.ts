/**
 * How many objects and lists a JSON text to import holds, counted before it is parsed. `JSON.parse` builds every one
 * of them and the checks after it visit each: a zip entry of `[{},{},…]` inflating to 63 MB within every zip limit
 * held 21 million, took 3.6 GB and a minute before it was refused, and half a megabyte of zip ended the process out of
 * memory. A conversation export holds one object or list in every 90 to 125 bytes of JSON; a file that packs them far
 * tighter, or holds more than an import ever reads, is refused here, in one pass over the text with no recursion.
 */
import { formatCount } from '../../../src-shared/format-count';

/** The most objects and lists one file's JSON may hold: a 200 MB ChatGPT export holds about 2 million. */
export const MAX_IMPORT_CONTAINERS = 4_000_000;

/** Tighter than one object or list in this many bytes, a file is not a conversation export (past the first 100,000). */
export const MIN_BYTES_PER_CONTAINER = 16;

/** Below this many objects and lists, however tightly packed, a file costs little to parse. */
const ALWAYS_READ_CONTAINERS = 100_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Counts the objects and lists in `text` (strings skipped), stopping once past `stopAfter`. */
export function countJsonContainers(text: string, stopAfter: number = Number.MAX_SAFE_INTEGER): number {
  let count = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      count += 1;
      if (count > stopAfter) return count;
    }
  }
  return count;
}

/** Why `text` (what the person knows it as: "The file") holds more than an import reads, or null when it does not. */
export function objectBombRefusal(text: string, what: string): string | null {
  const count = countJsonContainers(text, MAX_IMPORT_CONTAINERS);
  if (count > MAX_IMPORT_CONTAINERS) {
    return (
      `${what} holds more than ${formatCount(MAX_IMPORT_CONTAINERS)} objects and lists; Anybrain imports at most that many from one file. ` +
      'Export fewer conversations at a time. Nothing was imported.'
    );
  }
  if (count > ALWAYS_READ_CONTAINERS && text.length / count < MIN_BYTES_PER_CONTAINER) {
    return (
      `${what} holds ${formatCount(count)} objects and lists in ${formatCount(text.length)} characters, one in every ` +
        `${(text.length / count).toFixed(1)}: a conversation export has one in every 50 or more, so this is not one Anybrain can read. Nothing was imported.`
    );
  }
  return null;
}
