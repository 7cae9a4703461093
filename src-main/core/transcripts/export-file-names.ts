/**
 * File names for exporting many conversations into one folder or zip: `<title slug>-<short id>.<ext>`.
 *
 * Invariant: a name is one plain file name (no separator, no leading dot, nothing a title can use to climb out of the
 * folder), is accepted by Windows, macOS and Linux alike, and differs from every other name of the same export even on
 * file systems that ignore case (NTFS, APFS) or Unicode normalisation (APFS).
 */
import type { ExportFormat } from '../../../src-shared/api';

/** The index every folder or zip of conversations carries beside them. */
export const EXPORT_INDEX_FILE = 'index.json';

export const EXPORT_EXTENSIONS = { json: '.json', md: '.md', html: '.html' } as const satisfies Record<ExportFormat, string>;

/** Enough of a title to recognise it in a file list. */
const SLUG_MAX_GRAPHEMES = 60;
/** ext4 and APFS allow 255 bytes per name; the short id, a counter and the extension fit in the rest. */
const SLUG_MAX_BYTES = 150;
/** The end of a ULID is its random part: the start is a timestamp that conversations made together share. */
const SHORT_ID_LENGTH = 8;
const FALLBACK_SLUG = 'conversation';

/**
 * Windows opens a device instead of a file for these stems, whatever the extension ("CON.md" is the console):
 * https://learn.microsoft.com/windows/win32/fileio/naming-a-file
 */
export const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/i;

/**
 * The invisible marks that reorder text on screen: a right-to-left override makes `invoice\u202Efdp.exe` read as
 * `invoiceexe.pdf` in a file manager.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const utf8 = new TextEncoder();

/**
 * The words of a title: letters, digits and their marks in any script, joined by `-`. Everything else (slashes, dots,
 * the characters Windows refuses: `<>:"/\|?*`, controls, emoji) separates words, so no title yields a path.
 */
export function titleSlug(title: string): string {
  const words = title.normalize('NFC').replace(/[^\p{L}\p{N}\p{M}]+/gu, '-').replace(/^-+|-+$/g, '');
  let slug = '';
  let count = 0;
  for (const { segment } of graphemes.segment(words)) {
    if (count === SLUG_MAX_GRAPHEMES || utf8.encode(slug + segment).length > SLUG_MAX_BYTES) break;
    slug += segment;
    count += 1;
  }
  slug = slug.replace(/-+$/, '');
  return slug === '' ? FALLBACK_SLUG : slug;
}

/** ext4, APFS and NTFS hold at most 255 bytes (NTFS: UTF-16 units, fewer than UTF-8 bytes) in one name. */
export const MAX_NAME_BYTES = 255;
/** An extension is kept whole when it is this short; a longer "extension" is part of the name. */
const MAX_EXTENSION_BYTES = 16;

/** `name` cut at a character boundary to at most `maxBytes` of UTF-8, its extension kept. */
export function withinNameBytes(name: string, maxBytes: number = MAX_NAME_BYTES): string {
  if (utf8.encode(name).length <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && utf8.encode(name.slice(dot)).length <= MAX_EXTENSION_BYTES ? name.slice(dot) : '';
  const budget = maxBytes - utf8.encode(extension).length;
  let stem = '';
  for (const { segment } of graphemes.segment(name.slice(0, name.length - extension.length))) {
    if (utf8.encode(stem + segment).length > budget) break;
    stem += segment;
  }
  return `${stem}${extension}`;
}

/** Windows opens a device, not a file, for `CON.md` and its kin. */
function notADeviceName(stem: string): string {
  return WINDOWS_DEVICE_NAMES.test(stem) ? `${stem}-${FALLBACK_SLUG}` : stem;
}

/** The name one conversation exports to on its own: its title's words, as in a folder export, without the id. */
export function conversationFileName(title: string, format: ExportFormat): string {
  return `${notADeviceName(titleSlug(title))}${EXPORT_EXTENSIONS[format]}`;
}

/** The last characters of an id that are letters or digits, lower-cased. */
export function shortId(id: string): string {
  return id.replace(/[^A-Za-z0-9]+/g, '').slice(-SHORT_ID_LENGTH).toLowerCase();
}

/** How two names compare on a file system that ignores case and normalisation. */
function collisionKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export interface NamedConversation {
  readonly id: string;
  readonly title: string;
}

/** One file name per conversation, in the given order, none equal to another or to the index. */
export function exportFileNames(conversations: readonly NamedConversation[], format: ExportFormat): string[] {
  const extension = EXPORT_EXTENSIONS[format];
  const taken = new Set([collisionKey(EXPORT_INDEX_FILE)]);
  return conversations.map((conversation) => {
    const suffix = shortId(conversation.id);
    const joined = suffix === '' ? titleSlug(conversation.title) : `${titleSlug(conversation.title)}-${suffix}`;
    const stem = notADeviceName(joined);
    let name = `${stem}${extension}`;
    for (let counter = 2; taken.has(collisionKey(name)); counter += 1) name = `${stem}-${counter}${extension}`;
    taken.add(collisionKey(name));
    return name;
  });
}

/** Whether `name` could be one of ours: one plain name inside the folder. Checked again before anything is written. */
export function isPlainFileName(name: string): boolean {
  const hasControl = [...name].some((char) => char.charCodeAt(0) < 0x20);
  return name !== '' && !hasControl && !BIDI_CONTROLS.test(name) && !/[/\\:]/.test(name) && !name.startsWith('.') && utf8.encode(name).length <= MAX_NAME_BYTES;
}
