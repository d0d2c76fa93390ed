// A ZIP writer that will lie. The fuzzer needs archives no honest writer produces — sizes that disagree, methods that do
// not match the bytes, names that climb out of the archive, a directory pointing at the wrong place — so every field
// a reader trusts can be set by hand here. Also the reverse: a sample .xlsx opened into its parts, to mutate and repack.
import zlib from 'node:zlib';

import { inflateEntry, readZipDirectory } from '../../src/quotation/zip-archive.js';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const U32_MAX = 0xffffffff;

export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;
export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DATA_DESCRIPTOR = 0x0008;
export const FLAG_UTF8_NAME = 0x0800;

export interface Part {
  name: string;
  data: Buffer;
}

export interface HostileEntry {
  /** A Buffer to write name bytes that are not valid UTF-8. */
  name: string | Buffer;
  /** The entry's content before compression. */
  data: Buffer;
  /** The method written in both headers. */
  method?: number;
  /** The bytes written as the entry's data; by default `data` compressed as `method` says (stored for anything else). */
  raw?: Buffer;
  /** The uncompressed size in the central directory (default: the true one). */
  size?: number;
  /** The uncompressed size in the local header (default: `size`). */
  localSize?: number;
  /** The compressed size in both headers (default: the true one). */
  compressedSize?: number;
  flags?: number;
  /** Sizes saturated to 0xFFFFFFFF with the real ones in ZIP64 extra fields. */
  zip64?: boolean;
  /** Sizes saturated to 0xFFFFFFFF and no ZIP64 extra field to resolve them. */
  saturatedWithoutExtra?: boolean;
}

export interface HostileArchiveOptions {
  /** The entry count the end record declares (default: the true one). */
  entryCount?: number;
  /** Added to the central directory offset the end record declares. */
  directoryOffsetDelta?: number;
  /** Added to the central directory size the end record declares. */
  directorySizeDelta?: number;
  /** The disk numbers of the end record (a split archive). */
  disk?: number;
  comment?: Buffer;
  /** Bytes written before the first local header (a self-extractor's stub), offsets left unadjusted. */
  prefix?: Buffer;
}

const crc32 = (data: Buffer): number => (typeof zlib.crc32 === 'function' ? zlib.crc32(data) : 0);

function zip64Extra(uncompressed: number, compressed: number): Buffer {
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeBigUInt64LE(BigInt(uncompressed), 4);
  extra.writeBigUInt64LE(BigInt(compressed), 12);
  return extra;
}

/** Sizes above 32 bits only fit a ZIP64 entry; anything else is written modulo 2^32, as a careless writer would. */
const u32 = (value: number) => value >>> 0;

export function writeHostileZip(entries: readonly HostileEntry[], options: HostileArchiveOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const prefix = options.prefix ?? Buffer.alloc(0);
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? METHOD_DEFLATED;
    // Level 1: building thousands of cases must stay cheap, and a reader cannot tell the level from the stream.
    const raw = entry.raw ?? (method === METHOD_DEFLATED ? zlib.deflateRawSync(entry.data, { level: 1 }) : entry.data);
    const size = entry.size ?? entry.data.length;
    const localSize = entry.localSize ?? size;
    const compressedSize = entry.compressedSize ?? raw.length;
    const name = typeof entry.name === 'string' ? Buffer.from(entry.name, 'utf8') : entry.name;
    const flags = entry.flags ?? (typeof entry.name === 'string' ? FLAG_UTF8_NAME : 0);
    const saturate = entry.zip64 === true || entry.saturatedWithoutExtra === true;
    const localExtra = entry.zip64 ? zip64Extra(localSize, compressedSize) : Buffer.alloc(0);
    const centralExtra = entry.zip64 ? zip64Extra(size, compressedSize) : Buffer.alloc(0);
    const field = (value: number) => (saturate ? U32_MAX : u32(value));
    const crc = crc32(entry.data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(saturate ? 45 : 20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method & 0xffff, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(field(compressedSize), 18);
    local.writeUInt32LE(field(localSize), 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtra.length, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(saturate ? 45 : 20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method & 0xffff, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(field(compressedSize), 20);
    central.writeUInt32LE(field(size), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(centralExtra.length, 30);
    central.writeUInt32LE(u32(offset), 42);

    locals.push(local, name, localExtra, raw);
    centrals.push(central, name, centralExtra);
    offset += local.length + name.length + localExtra.length + raw.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = options.comment ?? Buffer.alloc(0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(options.disk ?? 0, 4);
  end.writeUInt16LE(options.disk ?? 0, 6);
  const count = options.entryCount ?? entries.length;
  end.writeUInt16LE(count & 0xffff, 8);
  end.writeUInt16LE(count & 0xffff, 10);
  end.writeUInt32LE(u32(directory.length + (options.directorySizeDelta ?? 0)), 12);
  end.writeUInt32LE(u32(offset + (options.directoryOffsetDelta ?? 0)), 16);
  end.writeUInt16LE(Math.min(comment.length, 0xffff), 20);
  return Buffer.concat([prefix, ...locals, directory, end, comment.subarray(0, 0xffff)]);
}

/** Where the central directory of an archive written by `writeHostileZip` starts and ends (for corrupting it). */
export function centralDirectoryRange(archive: Buffer): { start: number; end: number } | null {
  const endRecord = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endRecord < 0 || endRecord + 22 > archive.length) return null;
  const size = archive.readUInt32LE(endRecord + 12);
  const start = archive.readUInt32LE(endRecord + 16);
  if (start + size > archive.length) return null;
  return { start, end: start + size };
}

/** An honest archive of the parts, deflated. */
export function writeParts(parts: readonly Part[]): Buffer {
  return writeHostileZip(parts.map((part) => ({ name: part.name, data: part.data })));
}

/** The parts of a well-formed archive (a sample .xlsx), inflated. */
export async function readParts(archive: Buffer): Promise<Part[]> {
  const entries = readZipDirectory(archive, { maxEntries: 10_000 });
  const parts: Part[] = [];
  for (const entry of entries) parts.push({ name: entry.name, data: await inflateEntry(archive, entry) });
  return parts;
}
