// A small, defensive ZIP reader and writer. An .xlsx is a ZIP archive, and exceljs (through JSZip) inflates every
// entry into memory without questioning the sizes the archive declares, so a 40 KB upload can ask for gigabytes. We
// read the central directory ourselves, let the caller decide which declared sizes are acceptable, inflate only what
// it needs with a hard cap on the output, and write a fresh uncompressed archive out of those bytes. exceljs only
// ever sees an archive we built, so nothing in the original can make it inflate more than we already did.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const inflateRaw = promisify(zlib.inflateRaw);

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_EXTRA_FIELD = 0x0001;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const END_RECORD_SIZE = 22;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8_NAME = 0x0800;

export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;

/**
 * - `malformed`: the bytes are not a readable archive (truncated, bad signatures, offsets out of range).
 * - `encrypted`: an entry uses ZIP's own encryption.
 * - `unsupported`: a compression method other than stored/deflated, or an archive split over several disks.
 * - `size_mismatch`: an entry's local header and central directory disagree about its sizes.
 * - `inflates_larger`: an entry inflates to more bytes than it declares — declared sizes were a lie.
 * - `too_many_entries`: more entries than the caller allows.
 */
export type ZipProblem =
  'malformed' | 'encrypted' | 'unsupported' | 'size_mismatch' | 'inflates_larger' | 'too_many_entries';

export class ZipError extends Error {
  override name = 'ZipError';

  constructor(
    readonly problem: ZipProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ZipEntry {
  /** With `\` turned into `/` and leading `/` dropped, as exceljs and most readers see it. */
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's (compressed) data starts: just past its local header. */
  dataOffset: number;
}

function need(data: Buffer, offset: number, length: number, what: string): void {
  if (offset < 0 || length < 0 || offset + length > data.length) {
    throw new ZipError('malformed', `${what} runs past the end of the archive`);
  }
}

function readUInt64(data: Buffer, offset: number, what: string): number {
  need(data, offset, 8, what);
  const value = data.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError('malformed', `${what} is out of range`);
  return Number(value);
}

function findEndOfCentralDirectory(data: Buffer): number {
  // The record is the last thing in the file, followed only by a comment of at most 65,535 bytes.
  const last = data.length - END_RECORD_SIZE;
  const lowest = Math.max(0, last - U16_MAX);
  for (let offset = last; offset >= lowest; offset--) {
    if (data.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new ZipError('malformed', 'no end-of-central-directory record (truncated or not a zip)');
}

interface DirectoryLocation {
  entryCount: number;
  size: number;
  offset: number;
}

function locateCentralDirectory(data: Buffer, end: number): DirectoryLocation {
  let disk = data.readUInt16LE(end + 4);
  let directoryDisk = data.readUInt16LE(end + 6);
  let entryCount = data.readUInt16LE(end + 10);
  let size = data.readUInt32LE(end + 12);
  let offset = data.readUInt32LE(end + 16);

  if (entryCount === U16_MAX || size === U32_MAX || offset === U32_MAX) {
    // ZIP64: the real values live in a second record that a locator just before this one points at.
    const locator = end - 20;
    need(data, locator, 20, 'ZIP64 locator');
    if (data.readUInt32LE(locator) !== ZIP64_END_LOCATOR) throw new ZipError('malformed', 'missing ZIP64 locator');
    const record = readUInt64(data, locator + 8, 'ZIP64 record offset');
    need(data, record, 56, 'ZIP64 end record');
    if (data.readUInt32LE(record) !== ZIP64_END_OF_CENTRAL_DIRECTORY) {
      throw new ZipError('malformed', 'bad ZIP64 end record');
    }
    disk = data.readUInt32LE(record + 16);
    directoryDisk = data.readUInt32LE(record + 20);
    entryCount = readUInt64(data, record + 32, 'ZIP64 entry count');
    size = readUInt64(data, record + 40, 'ZIP64 directory size');
    offset = readUInt64(data, record + 48, 'ZIP64 directory offset');
  }
  if (disk !== 0 || directoryDisk !== 0) throw new ZipError('unsupported', 'archive is split over several disks');
  need(data, offset, size, 'central directory');
  return { entryCount, size, offset };
}

/** The ZIP64 extra field holds, in this order, only the values whose 32-bit fields are saturated. */
function readZip64Extra(
  data: Buffer,
  extraStart: number,
  extraLength: number,
  saturated: { uncompressed: boolean; compressed: boolean; offset: boolean },
): { uncompressed?: number; compressed?: number; offset?: number } {
  let at = extraStart;
  const end = extraStart + extraLength;
  while (at + 4 <= end) {
    const id = data.readUInt16LE(at);
    const length = data.readUInt16LE(at + 2);
    const body = at + 4;
    if (body + length > end) break;
    if (id === ZIP64_EXTRA_FIELD) {
      const found: { uncompressed?: number; compressed?: number; offset?: number } = {};
      let field = body;
      const take = () => {
        if (field + 8 > body + length) throw new ZipError('malformed', 'ZIP64 extra field is too short');
        const value = readUInt64(data, field, 'ZIP64 size');
        field += 8;
        return value;
      };
      if (saturated.uncompressed) found.uncompressed = take();
      if (saturated.compressed) found.compressed = take();
      if (saturated.offset) found.offset = take();
      return found;
    }
    at = body + length;
  }
  return {};
}

export interface ReadDirectoryOptions {
  /** Reject archives with more entries than this before looking at any of them. */
  maxEntries: number;
}

/**
 * Lists the archive's entries from its central directory and checks each against its local header. Nothing is
 * inflated. Throws `ZipError`.
 */
export function readZipDirectory(data: Buffer, options: ReadDirectoryOptions): ZipEntry[] {
  if (data.length < END_RECORD_SIZE) throw new ZipError('malformed', 'too short to be a zip archive');
  const end = findEndOfCentralDirectory(data);
  const directory = locateCentralDirectory(data, end);
  if (directory.entryCount > options.maxEntries) {
    throw new ZipError('too_many_entries', `${directory.entryCount} entries (limit ${options.maxEntries})`);
  }

  const entries: ZipEntry[] = [];
  const directoryEnd = directory.offset + directory.size;
  let at = directory.offset;
  for (let index = 0; index < directory.entryCount; index++) {
    if (at + 46 > directoryEnd) throw new ZipError('malformed', 'central directory is shorter than its entry count');
    if (data.readUInt32LE(at) !== CENTRAL_HEADER) throw new ZipError('malformed', 'bad central directory entry');
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const crc32 = data.readUInt32LE(at + 16);
    let compressedSize = data.readUInt32LE(at + 20);
    let uncompressedSize = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    let localOffset = data.readUInt32LE(at + 42);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > directoryEnd) throw new ZipError('malformed', 'central directory entry runs past the directory');
    const nameBytes = data.subarray(nameStart, extraStart);

    if (compressedSize === U32_MAX || uncompressedSize === U32_MAX || localOffset === U32_MAX) {
      const zip64 = readZip64Extra(data, extraStart, extraLength, {
        uncompressed: uncompressedSize === U32_MAX,
        compressed: compressedSize === U32_MAX,
        offset: localOffset === U32_MAX,
      });
      uncompressedSize = zip64.uncompressed ?? uncompressedSize;
      compressedSize = zip64.compressed ?? compressedSize;
      localOffset = zip64.offset ?? localOffset;
    }

    const name = nameBytes
      .toString(flags & FLAG_UTF8_NAME ? 'utf8' : 'latin1')
      .replace(/\\/g, '/')
      .replace(/^\/+/, '');
    if (flags & FLAG_ENCRYPTED) throw new ZipError('encrypted', `entry ${name} is encrypted`);
    if (method !== METHOD_STORED && method !== METHOD_DEFLATED) {
      throw new ZipError('unsupported', `entry ${name} uses compression method ${method}`);
    }
    if (method === METHOD_STORED && compressedSize !== uncompressedSize) {
      throw new ZipError('size_mismatch', `stored entry ${name} has different compressed and uncompressed sizes`);
    }

    const dataOffset = checkLocalHeader(data, localOffset, {
      name,
      nameBytes,
      flags,
      method,
      compressedSize,
      uncompressedSize,
    });
    need(data, dataOffset, compressedSize, `data of ${name}`);
    entries.push({ name, method, crc32, compressedSize, uncompressedSize, dataOffset });
    at = next;
  }
  return entries;
}

/** Returns where the entry's data starts. */
function checkLocalHeader(
  data: Buffer,
  offset: number,
  central: {
    name: string;
    nameBytes: Buffer;
    flags: number;
    method: number;
    compressedSize: number;
    uncompressedSize: number;
  },
): number {
  need(data, offset, 30, `local header of ${central.name}`);
  if (data.readUInt32LE(offset) !== LOCAL_HEADER)
    throw new ZipError('malformed', `bad local header of ${central.name}`);
  const method = data.readUInt16LE(offset + 8);
  let compressedSize = data.readUInt32LE(offset + 18);
  let uncompressedSize = data.readUInt32LE(offset + 22);
  const nameLength = data.readUInt16LE(offset + 26);
  const extraLength = data.readUInt16LE(offset + 28);
  const nameStart = offset + 30;
  const extraStart = nameStart + nameLength;
  need(data, nameStart, nameLength + extraLength, `local header of ${central.name}`);
  if (!data.subarray(nameStart, extraStart).equals(central.nameBytes) || method !== central.method) {
    throw new ZipError('malformed', `local header of ${central.name} does not match the central directory`);
  }

  // With a data descriptor (flag bit 3) the writer did not know the sizes when it wrote this header and leaves zeros
  // or placeholders; the central directory is authoritative. Otherwise the two copies must agree: when they do not,
  // one of them lies about how much the entry inflates to.
  if ((central.flags & FLAG_DATA_DESCRIPTOR) === 0) {
    if (compressedSize === U32_MAX || uncompressedSize === U32_MAX) {
      const zip64 = readZip64Extra(data, extraStart, extraLength, {
        uncompressed: uncompressedSize === U32_MAX,
        compressed: compressedSize === U32_MAX,
        offset: false,
      });
      uncompressedSize = zip64.uncompressed ?? uncompressedSize;
      compressedSize = zip64.compressed ?? compressedSize;
    }
    if (compressedSize !== central.compressedSize || uncompressedSize !== central.uncompressedSize) {
      throw new ZipError('size_mismatch', `local header of ${central.name} declares different sizes`);
    }
  }
  return extraStart + extraLength;
}

/**
 * Inflates one entry, refusing to produce more than the size it declares: zlib stops at `maxOutputLength`, so a
 * lying entry costs at most its declared size in memory and time. Runs on the libuv thread pool.
 */
export async function inflateEntry(data: Buffer, entry: ZipEntry): Promise<Buffer> {
  const raw = data.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === METHOD_STORED) return raw;
  let inflated: Buffer;
  try {
    // zlib rejects a zero limit; one byte more than declared is still caught by the length check below.
    inflated = await inflateRaw(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (error) {
    if (error instanceof RangeError && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ZipError('inflates_larger', `${entry.name} inflates past its declared size`, { cause: error });
    }
    throw new ZipError('malformed', `${entry.name} does not inflate`, { cause: error });
  }
  if (inflated.length > entry.uncompressedSize) {
    throw new ZipError('inflates_larger', `${entry.name} inflates past its declared size`);
  }
  if (inflated.length < entry.uncompressedSize) {
    throw new ZipError('malformed', `${entry.name} inflates to fewer bytes than declared`);
  }
  return inflated;
}

export interface ZipFile {
  name: string;
  data: Buffer;
}

/**
 * An uncompressed archive holding `files`, in order, in one fresh ArrayBuffer (what exceljs's `load` is typed to take,
 * and no copy for JSZip). Every size must fit in 32 bits: no ZIP64.
 */
export function writeStoredZip(files: readonly ZipFile[]): ArrayBuffer {
  const names = files.map((file) => Buffer.from(file.name, 'utf8'));
  const namesLength = names.reduce((sum, name) => sum + name.length, 0);
  const dataLength = files.reduce((sum, file) => sum + file.data.length, 0);
  const directoryOffset = 30 * files.length + namesLength + dataLength;
  const directorySize = 46 * files.length + namesLength;
  if (files.length >= U16_MAX || directoryOffset + directorySize >= U32_MAX) {
    throw new RangeError('writeStoredZip: too large for a ZIP32 archive');
  }
  const archive = new ArrayBuffer(directoryOffset + directorySize + END_RECORD_SIZE);
  const out = Buffer.from(archive);

  let local = 0;
  let central = directoryOffset;
  for (const [index, file] of files.entries()) {
    const name = names[index] ?? Buffer.alloc(0);
    const size = file.data.length;
    // zlib.crc32 arrived in Node 20.15. JSZip only checks CRCs when asked (exceljs never asks), so on an older Node
    // a zero keeps the archive readable for its one consumer.
    const crc = typeof zlib.crc32 === 'function' ? zlib.crc32(file.data) : 0;

    out.writeUInt32LE(LOCAL_HEADER, local);
    out.writeUInt16LE(10, local + 4); // version needed: 1.0, stored
    out.writeUInt16LE(FLAG_UTF8_NAME, local + 6);
    out.writeUInt16LE(METHOD_STORED, local + 8);
    out.writeUInt32LE(crc, local + 14);
    out.writeUInt32LE(size, local + 18);
    out.writeUInt32LE(size, local + 22);
    out.writeUInt16LE(name.length, local + 26);
    name.copy(out, local + 30);
    file.data.copy(out, local + 30 + name.length);

    out.writeUInt32LE(CENTRAL_HEADER, central);
    out.writeUInt16LE(20, central + 4); // made by: 2.0
    out.writeUInt16LE(10, central + 6);
    out.writeUInt16LE(FLAG_UTF8_NAME, central + 8);
    out.writeUInt16LE(METHOD_STORED, central + 10);
    out.writeUInt32LE(crc, central + 16);
    out.writeUInt32LE(size, central + 20);
    out.writeUInt32LE(size, central + 24);
    out.writeUInt16LE(name.length, central + 28);
    out.writeUInt32LE(local, central + 42);
    name.copy(out, central + 46);

    local += 30 + name.length + size;
    central += 46 + name.length;
  }

  const end = directoryOffset + directorySize;
  out.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, end);
  out.writeUInt16LE(files.length, end + 8);
  out.writeUInt16LE(files.length, end + 10);
  out.writeUInt32LE(directorySize, end + 12);
  out.writeUInt32LE(directoryOffset, end + 16);
  return archive;
}
