/**
 * What a file is, read from its bytes: the name only labels it. A name that claims one kind (`photo.png`) over bytes
 * of another is refused, so nothing is ever sent to a brain under a media type its bytes do not have (providers
 * refuse a mismatch: Anthropic with "Image does not match the provided media type image/png").
 */
import {
  ATTACHMENT_SIZE_LIMITS,
  exceedsImageMegapixels,
  kindClaimedByName,
  MAX_IMAGE_MEGAPIXELS,
  PDF_MEDIA_TYPE,
  textMediaTypeFor,
  type AttachmentKind,
  type ImageMediaType,
} from '../../../src-shared/attachments';
import { formatCount } from '../../../src-shared/format-count';

export interface SniffedAttachment {
  readonly kind: AttachmentKind;
  readonly mediaType: string;
  readonly width: number | null;
  readonly height: number | null;
  /** A PDF's pages, as its page tree counts them; null when they cannot be counted without decompressing it. */
  readonly pages: number | null;
}

export type AttachmentRefusalCode = 'attachment-empty' | 'attachment-too-large' | 'attachment-unsupported' | 'attachment-corrupt';

export interface AttachmentRefusal {
  readonly code: AttachmentRefusalCode;
  readonly message: string;
}

export type SniffResult = { readonly ok: true; readonly attachment: SniffedAttachment } | { readonly ok: false; readonly refusal: AttachmentRefusal };

interface ImageHeader {
  readonly mediaType: ImageMediaType;
  /** Null when the signature is there but the header or dimensions cannot be read: a damaged or cut-off file. */
  readonly size: { readonly width: number; readonly height: number } | null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG ends with its IEND chunk: length 0, type IEND, CRC AE 42 60 82. */
const PNG_END = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** The largest side any wire resizes from; a header claiming more is damaged, not a photograph. */
const MAX_IMAGE_SIDE = 100_000;

function startsWith(bytes: Buffer, prefix: Buffer | string, at = 0): boolean {
  const expected = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : prefix;
  return bytes.length >= at + expected.length && bytes.subarray(at, at + expected.length).equals(expected);
}

function sized(width: number, height: number): { width: number; height: number } | null {
  return width > 0 && height > 0 && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE ? { width, height } : null;
}

function pngHeader(bytes: Buffer): ImageHeader {
  // The first chunk is IHDR (13 bytes of data): width and height big-endian at 16 and 20; the file ends with IEND.
  if (bytes.length < 33 + PNG_END.length || !startsWith(bytes, 'IHDR', 12) || !bytes.subarray(bytes.length - PNG_END.length).equals(PNG_END)) {
    return { mediaType: 'image/png', size: null };
  }
  return { mediaType: 'image/png', size: sized(bytes.readUInt32BE(16), bytes.readUInt32BE(20)) };
}

function gifHeader(bytes: Buffer): ImageHeader {
  // The logical screen's width and height, little-endian at 6 and 8; the file ends with the trailer 0x3B.
  if (bytes.length < 14 || bytes[bytes.length - 1] !== 0x3b) return { mediaType: 'image/gif', size: null };
  return { mediaType: 'image/gif', size: sized(bytes.readUInt16LE(6), bytes.readUInt16LE(8)) };
}

/** Start-of-frame markers (baseline, progressive, lossless…): C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegHeader(bytes: Buffer): ImageHeader {
  const damaged: ImageHeader = { mediaType: 'image/jpeg', size: null };
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return damaged;
    const marker = bytes[offset + 1]!;
    // Fill bytes, and markers that stand alone (RSTn, TEM).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > bytes.length) return damaged;
    if (isStartOfFrame(marker)) {
      if (length < 7) return damaged;
      // After the frame header the scan data runs to the end-of-image marker FF D9; a cut-off file has none.
      const ended = bytes.lastIndexOf(Buffer.from([0xff, 0xd9])) > offset;
      return ended ? { mediaType: 'image/jpeg', size: sized(bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5)) } : damaged;
    }
    offset += 2 + length;
  }
  return damaged;
}

function webpHeader(bytes: Buffer): ImageHeader {
  const damaged: ImageHeader = { mediaType: 'image/webp', size: null };
  // RIFF's size counts the bytes after its first 8; a cut-off file holds fewer.
  if (bytes.length < 30 || bytes.readUInt32LE(4) + 8 > bytes.length) return damaged;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { mediaType: 'image/webp', size: sized(bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1) };
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return damaged;
    const bits = bytes.readUInt32LE(21);
    return { mediaType: 'image/webp', size: sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1) };
  }
  if (chunk === 'VP8 ') {
    // A key frame's start code 9D 01 2A, then 14-bit width and height.
    if (!startsWith(bytes, Buffer.from([0x9d, 0x01, 0x2a]), 23)) return damaged;
    return { mediaType: 'image/webp', size: sized(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff) };
  }
  return damaged;
}

/** The image the bytes hold, by its signature; null when they start like no image Anybrain takes. */
function imageHeader(bytes: Buffer): ImageHeader | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return pngHeader(bytes);
  if (startsWith(bytes, Buffer.from([0xff, 0xd8, 0xff]))) return jpegHeader(bytes);
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return gifHeader(bytes);
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return webpHeader(bytes);
  return null;
}

/** Text: valid UTF-8 (a byte-order mark allowed) with no NUL and no other C0 controls than tab, newlines, form feed. */
function isText(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) return false;
  }
  return true;
}

/**
 * A PDF's pages: its page objects (`/Type /Page`), else the largest `/Count` of a page tree node. Both can sit inside
 * compressed object streams (PDF 1.5), where they are not read: null then.
 */
export function pdfPageCount(bytes: Buffer): number | null {
  const text = bytes.toString('latin1');
  const pageObjects = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  if (pageObjects > 0) return pageObjects;
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g)].map((match) => Number(match[1]));
  return counts.length > 0 && Math.max(...counts) > 0 ? Math.max(...counts) : null;
}

/** SVG is markup that runs scripts when shown as a document: Anybrain never takes it, by name or by content. */
function looksLikeSvg(name: string, bytes: Buffer): boolean {
  if (/\.svgz?$/i.test(name)) return true;
  const head = bytes.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
}

function kindLabel(kind: AttachmentKind): string {
  return kind === 'image' ? 'an image' : kind === 'pdf' ? 'a PDF' : 'a text file';
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function refuse(code: AttachmentRefusalCode, message: string): SniffResult {
  return { ok: false, refusal: { code, message } };
}

const ACCEPTED = 'Anybrain takes PNG, JPEG, WebP and GIF images, PDFs, and plain text and code files.';

/** Why an image of `width` × `height` is refused, or null when it is within `MAX_IMAGE_MEGAPIXELS`. */
function megapixelRefusal(name: string, width: number, height: number): string | null {
  if (!exceedsImageMegapixels(width, height)) return null;
  const megapixels = Math.round((width * height) / 1_000_000);
  return (
    `${name} is ${formatCount(width)} × ${formatCount(height)} pixels (${formatCount(megapixels)} megapixels); ` +
    `Anybrain takes images up to ${MAX_IMAGE_MEGAPIXELS} megapixels. Scale it down and attach it again.`
  );
}

/** Why an image that arrived some other way (a tool's result) is not kept, read from its header; null when it is kept. */
export function declaredImageRefusal(name: string, bytes: Buffer): string | null {
  const size = imageHeader(bytes)?.size ?? null;
  return size === null ? null : megapixelRefusal(name, size.width, size.height);
}

/** The kind, media type and (for an image) size the bytes hold, or why the file cannot be attached. */
export function sniffAttachment(name: string, bytes: Buffer): SniffResult {
  if (bytes.length === 0) return refuse('attachment-empty', `${name} is empty (0 bytes), so there is nothing to attach. Choose the file again, or another one.`);
  const claimed = kindClaimedByName(name);
  if (looksLikeSvg(name, bytes)) {
    return refuse('attachment-unsupported', `${name} is an SVG drawing, which Anybrain does not attach. Export it as PNG and attach that.`);
  }
  const image = imageHeader(bytes);
  const isPdf = startsWith(bytes, '%PDF-');
  // Text has no signature: only a name that says text, over bytes that read as text, is taken as text.
  const found: AttachmentKind | null = image !== null ? 'image' : isPdf ? 'pdf' : claimed === 'text' && isText(bytes) ? 'text' : null;
  if (found === null || (claimed !== null && claimed !== found)) {
    const what = found === null ? 'none of the kinds Anybrain takes' : kindLabel(found);
    const claim = claimed === null ? '' : ` Its name says ${kindLabel(claimed)}, but its bytes are ${what}.`;
    return refuse('attachment-unsupported', `${name} cannot be attached.${claim || ` Its bytes are ${what}.`} ${ACCEPTED}`);
  }
  const limit = ATTACHMENT_SIZE_LIMITS[found];
  if (bytes.length > limit) {
    return refuse('attachment-too-large', `${name} is ${megabytes(bytes.length)}, over the ${megabytes(limit)} limit for ${kindLabel(found)}. Attach a smaller file.`);
  }
  if (image !== null) {
    if (image.size === null) {
      return refuse('attachment-corrupt', `${name} looks like ${image.mediaType.slice('image/'.length).toUpperCase()} but its header or size cannot be read: the file is damaged or cut off. Save it again and attach the new copy.`);
    }
    const tooLarge = megapixelRefusal(name, image.size.width, image.size.height);
    if (tooLarge !== null) return refuse('attachment-too-large', tooLarge);
    return { ok: true, attachment: { kind: 'image', mediaType: image.mediaType, width: image.size.width, height: image.size.height, pages: null } };
  }
  if (found === 'pdf') return { ok: true, attachment: { kind: 'pdf', mediaType: PDF_MEDIA_TYPE, width: null, height: null, pages: pdfPageCount(bytes) } };
  return { ok: true, attachment: { kind: 'text', mediaType: textMediaTypeFor(name) ?? 'text/plain', width: null, height: null, pages: null } };
}
