/**
 * Zips an attacker could send, built in memory from a few kilobytes: an entry that inflates to gigabytes, one whose
 * directory lies about its size, one with more entries than an import takes. Tests and benchmarks share them.
 */
import { constants, deflateRawSync } from 'node:zlib';

const MIB = 1024 * 1024;
/** One flushed deflate segment of this many zero bytes: repeated, it inflates to any multiple of it. */
const SEGMENT_BYTES = 16 * MIB;

let zeroSegment: Buffer | null = null;

/**
 * Raw deflate data inflating to `bytes` zero bytes (a multiple of 16 MiB), about a thousandth of that on disk: a full
 * flush ends each segment on a byte boundary with an empty window, so one compressed segment can be repeated.
 */
export function deflatedZeros(bytes: number): Uint8Array {
  if (bytes % SEGMENT_BYTES !== 0) throw new Error(`deflatedZeros takes a multiple of ${SEGMENT_BYTES} bytes.`);
  zeroSegment ??= deflateRawSync(Buffer.alloc(SEGMENT_BYTES), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array.from({ length: bytes / SEGMENT_BYTES }, () => zeroSegment!), finalBlock]);
}

export interface HostileEntry {
  readonly name: string;
  /** The entry's data as stored in the zip (deflated when `method` is 8). */
  readonly data: Uint8Array;
  readonly method: 0 | 8;
  /** What the directory and the local header claim the entry inflates to. */
  readonly declaredSize: number;
}

/** A zip of these entries, zip64 records added when it lists more than 65,535 (sizes stay 32-bit: below 4 GiB). */
export function zipOf(entries: readonly HostileEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(Math.min(entry.declaredSize, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, Buffer.from(entry.data));
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(Math.min(entry.declaredSize, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const zip64 = entries.length > 0xffff;
  const tail: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(entries.length), 24);
    record.writeBigUInt64LE(BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(directorySize), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directorySize), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(zip64 ? 0xffffffff : offset, 16);
  return Buffer.concat([...parts, ...directory, ...tail, end]);
}

/** A zip whose conversations.json inflates to `inflatedBytes` zeros while claiming `declaredSize` (the truth by default). */
export function zipBomb(inflatedBytes: number, declaredSize: number = inflatedBytes, name = 'conversations.json'): Uint8Array {
  return zipOf([{ name, data: deflatedZeros(inflatedBytes), method: 8, declaredSize }]);
}

/** A zip of `count` empty files beside a small conversations.json. */
export function zipOfManyEntries(count: number, conversations: Uint8Array): Uint8Array {
  const empty = new Uint8Array(0);
  return zipOf([
    { name: 'conversations.json', data: conversations, method: 0, declaredSize: conversations.length },
    ...Array.from({ length: count - 1 }, (_, index) => ({ name: `f/${index.toString(36)}`, data: empty, method: 0 as const, declaredSize: 0 })),
  ]);
}
