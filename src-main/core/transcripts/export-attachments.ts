/**
 * Attachments in the readable exports: what can be said of one without its bytes, and where the Markdown export
 * writes each file (`<export name>.attachments/<file>`, beside the `.md`, or inside the zip of every conversation).
 *
 * Invariant: every path is the folder and one plain file name (no separator, no leading dot, no character or device
 * name Windows refuses), and no two different files share a name, even on file systems that ignore case.
 */
import type { ExportFile } from '../../../src-shared/api';
import { IMAGE_MEDIA_TYPES } from '../../../src-shared/attachments';
import { imageLabel } from '../../../src-shared/tool-images';
import type { TranscriptAttachment, TranscriptV1 } from '../../../src-shared/transcript';
import { BIDI_CONTROLS, isPlainFileName, MAX_NAME_BYTES, WINDOWS_DEVICE_NAMES, withinNameBytes } from './export-file-names';

/** Room left in a name for the counter that tells two attachments of one name apart (`photo-12.png`). */
const COUNTER_BYTES = 8;
const ATTACHMENTS_FOLDER_SUFFIX = '.attachments';

/** "image/png, 12,345 bytes". */
export function attachmentFacts(attachment: TranscriptAttachment): string {
  return imageLabel({ mimeType: attachment.media_type, byteLength: attachment.size });
}

/**
 * Whether the export may show the attachment as an image: only the raster types an attachment can have. SVG never
 * counts (an SVG is a document that can carry script), whatever a file claims.
 */
export function isShownImage(attachment: TranscriptAttachment): boolean {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(attachment.media_type);
}

/** `notes.md` → `notes.attachments`: the folder beside an exported file. */
export function attachmentsFolderOf(exportFileName: string): string {
  const dot = exportFileName.lastIndexOf('.');
  const stem = dot > 0 ? exportFileName.slice(0, dot) : exportFileName;
  return `${withinNameBytes(stem, MAX_NAME_BYTES - ATTACHMENTS_FOLDER_SUFFIX.length)}${ATTACHMENTS_FOLDER_SUFFIX}`;
}

/**
 * The attached name as one plain file name: separators, controls and what Windows refuses (`<>:"/\|?*`) become `_`,
 * marks that reorder text are dropped, and the name is cut to leave room for a counter within 255 bytes.
 */
export function plainAttachmentName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(new RegExp(BIDI_CONTROLS.source, 'gu'), '')
    .replace(/[\p{Cc}<>:"/\\|?*]/gu, '_');
  const plain = withinNameBytes(cleaned, MAX_NAME_BYTES - COUNTER_BYTES).replace(/^[.\s]+|[.\s]+$/g, '');
  if (plain === '') return 'attachment';
  const dot = plain.lastIndexOf('.');
  const stem = dot > 0 ? plain.slice(0, dot) : plain;
  return WINDOWS_DEVICE_NAMES.test(stem) ? `_${plain}` : plain;
}

/** `photo.png` → `photo-2.png`. */
function numbered(name: string, counter: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${counter}${name.slice(dot)}` : `${name}-${counter}`;
}

/** One attachment's identity in an export: the same bytes under the same name are one file. */
function attachmentKey(attachment: TranscriptAttachment): string {
  return `${attachment.sha256}/${attachment.name}`;
}

/**
 * The file name, inside the attachments folder, of each embedded attachment of the transcript (keyed by sha256 and
 * name), in the order they first appear.
 */
export function attachmentFileNames(transcript: TranscriptV1): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const message of transcript.messages) {
    for (const attachment of message.attachments ?? []) {
      if (attachment.data_base64 === undefined || names.has(attachmentKey(attachment))) continue;
      const plain = plainAttachmentName(attachment.name);
      let name = plain;
      for (let counter = 2; taken.has(name.toLowerCase()); counter += 1) name = numbered(plain, counter);
      taken.add(name.toLowerCase());
      names.set(attachmentKey(attachment), name);
    }
  }
  return names;
}

/** Where the Markdown export writes attachments, and the name of each file in that folder. */
export interface AttachmentPlacement {
  readonly folder: string;
  readonly fileNames: ReadonlyMap<string, string>;
}

export function attachmentPlacement(transcript: TranscriptV1, exportFileName: string): AttachmentPlacement {
  return { folder: attachmentsFolderOf(exportFileName), fileNames: attachmentFileNames(transcript) };
}

/** The attachment's path relative to the exported file, or null when the export does not carry its bytes. */
export function attachmentPath(placement: AttachmentPlacement, attachment: TranscriptAttachment): string | null {
  const file = placement.fileNames.get(attachmentKey(attachment));
  return attachment.data_base64 === undefined || file === undefined ? null : `${placement.folder}/${file}`;
}

/** The files the Markdown export writes beside itself: one per embedded attachment, each once. */
export function attachmentFiles(transcript: TranscriptV1, placement: AttachmentPlacement): ExportFile[] {
  const files = new Map<string, ExportFile>();
  for (const message of transcript.messages) {
    for (const attachment of message.attachments ?? []) {
      const path = attachmentPath(placement, attachment);
      if (path !== null && !files.has(path)) files.set(path, { path, dataBase64: attachment.data_base64! });
    }
  }
  return [...files.values()];
}

/**
 * A relative path as a Markdown link destination: each segment percent-encoded, parentheses too, so a name with
 * spaces or brackets can neither break the link nor end it early.
 */
export function markdownLinkPath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

/** Whether `path` could be one of ours: an attachments folder and one plain file in it. Checked before writing. */
export function isAttachmentPath(path: string): boolean {
  const segments = path.split('/');
  return segments.length === 2 && segments[0]!.endsWith('.attachments') && segments.every(isPlainFileName);
}
