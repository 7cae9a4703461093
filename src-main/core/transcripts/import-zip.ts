/**
 * Reading the files an import needs out of a zip without trusting it: the central directory says which entries there
 * are and how big they claim to be (refused early when that is over a limit), and each wanted entry is inflated in
 * small steps whose output is counted as it comes, so an entry that lies about its size is refused as soon as it
 * passes a limit, long before it can fill the memory or a string.
 */
import { constants as bufferConstants } from 'node:buffer';
import { Inflate } from 'fflate';
import { formatCount } from '../../../src-shared/format-count';
import { TranscriptImportError } from './import-check';

const MIB = 1024 * 1024;

/**
 * The most one file of an import may inflate to. Real exports hold a conversations.json of several hundred MB; its
 * text must also fit in one JavaScript string (V8's longest is 2^29 - 24 code units, about 512 MiB), since JSON.parse
 * reads a string.
 */
export const MAX_IMPORT_ENTRY_BYTES = 500 * MIB;
/** The most all the files an import reads may inflate to together (an export in shards). */
export const MAX_IMPORT_INFLATED_BYTES = 1024 * MIB;
/** The most entries the zip may list: a ChatGPT export holds a file per image and attachment besides its JSON. */
export const MAX_IMPORT_ZIP_ENTRIES = 100_000;

/** How much compressed input one inflation step takes: its output (at most about 1,000 times more) is counted before the next. */
const INFLATE_STEP_BYTES = 16 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly encrypted: boolean;
  readonly compressedSize: number;
  /** What the directory claims; checked against the limits, never trusted while inflating. */
  readonly declaredSize: number;
  readonly localHeaderOffset: number;
}

function formatMib(bytes: number): string {
  return bytes % (1024 * MIB) === 0 ? `${bytes / (1024 * MIB)} GiB` : `${bytes / MIB} MiB`;
}

export function entryTooLarge(name: string): TranscriptImportError {
  return new TranscriptImportError(`${name} inflates past ${formatMib(MAX_IMPORT_ENTRY_BYTES)} (the limit for one file in an import): the file was not imported.`);
}

export function importTooLarge(): TranscriptImportError {
  return new TranscriptImportError(
    `The zip's conversations inflate past ${formatMib(MAX_IMPORT_INFLATED_BYTES)} together (the limit for one import): the file was not imported.`,
  );
}

function unreadable(problem: string): TranscriptImportError {
  return new TranscriptImportError(`The zip cannot be read (${problem}). Nothing was imported.`);
}

/** A 64-bit little-endian size; one past 2^53 is no size a real file has. */
function readUint64(view: DataView, offset: number): number {
  const value = view.getBigUint64(offset, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw unreadable('a size in its directory is impossibly large');
  return Number(value);
}

function endOfDirectoryOffset(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let offset = view.byteLength - 22; offset >= lowest; offset -= 1) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  throw unreadable('it has no central directory');
}

/** Where the directory starts and how many entries it lists, from the zip64 record when the classic one is full. */
function directoryBounds(view: DataView): { start: number; count: number } {
  const end = endOfDirectoryOffset(view);
  let count = view.getUint16(end + 10, true);
  let start = view.getUint32(end + 16, true);
  const locator = end - 20;
  if ((count === 0xffff || start === 0xffffffff) && locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR) {
    const record = readUint64(view, locator + 8);
    if (record + 56 > view.byteLength || view.getUint32(record, true) !== ZIP64_END_OF_DIRECTORY) throw unreadable('its zip64 directory record is missing');
    count = readUint64(view, record + 32);
    start = readUint64(view, record + 48);
  }
  return { start, count };
}

/** The sizes and offset the zip64 extra field holds for the classic fields that are full, in the order the format sets. */
function withZip64Fields(view: DataView, extraStart: number, extraEnd: number, fields: { declaredSize: number; compressedSize: number; localHeaderOffset: number }) {
  let offset = extraStart;
  while (offset + 4 <= extraEnd) {
    const id = view.getUint16(offset, true);
    const length = view.getUint16(offset + 2, true);
    if (id === ZIP64_EXTRA) {
      let field = offset + 4;
      const next = (): number => {
        const value = readUint64(view, field);
        field += 8;
        return value;
      };
      return {
        declaredSize: fields.declaredSize === 0xffffffff ? next() : fields.declaredSize,
        compressedSize: fields.compressedSize === 0xffffffff ? next() : fields.compressedSize,
        localHeaderOffset: fields.localHeaderOffset === 0xffffffff ? next() : fields.localHeaderOffset,
      };
    }
    offset += 4 + length;
  }
  return fields;
}

/** Every entry the central directory lists, refused when there are more than an import takes. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { start, count } = directoryBounds(view);
  if (count > MAX_IMPORT_ZIP_ENTRIES) {
    throw new TranscriptImportError(
      `The zip lists ${formatCount(count)} files, more than ${formatCount(MAX_IMPORT_ZIP_ENTRIES)} (the limit for an import): the file was not imported.`,
    );
  }
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let offset = start;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== DIRECTORY_ENTRY) throw unreadable(`its directory entry ${index + 1} is damaged`);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const nameEnd = offset + 46 + nameLength;
    if (nameEnd + extraLength > view.byteLength) throw unreadable(`its directory entry ${index + 1} is damaged`);
    const sizes = withZip64Fields(view, nameEnd, nameEnd + extraLength, {
      compressedSize: view.getUint32(offset + 20, true),
      declaredSize: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    entries.push({
      name: decoder.decode(bytes.subarray(offset + 46, nameEnd)),
      method: view.getUint16(offset + 10, true),
      encrypted: (view.getUint16(offset + 8, true) & 1) === 1,
      ...sizes,
    });
    offset = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/** Refuses, before inflating anything, entries whose claimed sizes are over the limits. */
export function checkDeclaredSizes(entries: readonly ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    if (entry.declaredSize > MAX_IMPORT_ENTRY_BYTES) throw entryTooLarge(entry.name);
    total += entry.declaredSize;
    if (total > MAX_IMPORT_INFLATED_BYTES) throw importTooLarge();
  }
}

/** The budget all of an import's inflated bytes share, and who hears how many have come. */
export interface InflationBudget {
  inflated: number;
  readonly onInflated?: (inflated: number) => void;
}

/** One entry's bytes, inflated step by step under the limits: refused the moment its output passes one. */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflationBudget): Uint8Array {
  if (entry.encrypted) throw new TranscriptImportError(`${entry.name} in the zip is encrypted, and Anybrain cannot read encrypted zips. Nothing was imported.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER) throw unreadable(`the header of ${entry.name} is damaged`);
  const dataStart = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const compressed = bytes.subarray(dataStart, Math.min(bytes.length, dataStart + entry.compressedSize));
  const chunks: Uint8Array[] = [];
  let size = 0;
  const take = (chunk: Uint8Array): void => {
    size += chunk.length;
    budget.inflated += chunk.length;
    if (size > MAX_IMPORT_ENTRY_BYTES) throw entryTooLarge(entry.name);
    if (budget.inflated > MAX_IMPORT_INFLATED_BYTES) throw importTooLarge();
    chunks.push(chunk);
  };
  switch (entry.method) {
    case STORED:
      take(compressed);
      break;
    case DEFLATED: {
      let ended = false;
      const inflate = new Inflate((chunk, final) => {
        take(chunk);
        if (final) ended = true;
      });
      try {
        for (let step = 0; step < compressed.length && !ended; step += INFLATE_STEP_BYTES) {
          inflate.push(compressed.subarray(step, step + INFLATE_STEP_BYTES), step + INFLATE_STEP_BYTES >= compressed.length);
          budget.onInflated?.(budget.inflated);
        }
      } catch (error) {
        if (error instanceof TranscriptImportError) throw error;
        throw unreadable(`${entry.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!ended) throw unreadable(`${entry.name} ends before its data does`);
      break;
    }
    default:
      throw new TranscriptImportError(`${entry.name} in the zip is compressed with method ${entry.method}, which Anybrain cannot read. Nothing was imported.`);
  }
  budget.onInflated?.(budget.inflated);
  return chunks.length === 1 ? chunks[0]! : concatenate(chunks, size);
}

function concatenate(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}

/**
 * UTF-8 bytes as text, refused rather than decoded when the text could be longer than V8's longest string (decoding
 * such bytes ends the process, not just the import). Each UTF-16 code unit comes from at least one byte.
 */
export function decodeImportText(bytes: Uint8Array, what: string): string {
  if (bytes.length > bufferConstants.MAX_STRING_LENGTH) {
    throw new TranscriptImportError(`${what} is ${formatCount(bytes.length)} bytes, longer than a text Anybrain can read at once: the file was not imported.`);
  }
  return new TextDecoder().decode(bytes);
}
