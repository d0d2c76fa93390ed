// exceljs zips through JSZip, which stamps every entry with the time of writing and offers no way to pass a date, so
// two runs a second apart differ in a few header bytes. Rewriting those stamps makes the committed samples
// reproducible byte for byte. The stamps are not covered by any checksum, so the archive stays valid.

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** The EOCD record is 22 bytes plus a comment of up to 65,535 bytes. */
const MAX_EOCD_SEARCH = 22 + 0xffff;

/** MS-DOS date and time fields (what zip headers carry), UTC as JSZip writes them. */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

function findEndOfCentralDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - MAX_EOCD_SEARCH);
  for (let offset = zip.length - 22; offset >= lowest; offset--) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new Error('not a zip archive: no end-of-central-directory record');
}

/** Returns a copy of `zip` with every entry's modification time set to `stamp`. */
export function stampZipEntries(zip: Buffer, stamp: Date): Buffer {
  const out = Buffer.from(zip);
  const { time, date } = dosDateTime(stamp);
  const eocd = findEndOfCentralDirectory(out);
  const entryCount = out.readUInt16LE(eocd + 10);
  let offset = out.readUInt32LE(eocd + 16);

  for (let i = 0; i < entryCount; i++) {
    if (out.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`zip entry ${i}: bad central header`);
    out.writeUInt16LE(time, offset + 12);
    out.writeUInt16LE(date, offset + 14);

    const localOffset = out.readUInt32LE(offset + 42);
    if (out.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) throw new Error(`zip entry ${i}: bad local header`);
    out.writeUInt16LE(time, localOffset + 10);
    out.writeUInt16LE(date, localOffset + 12);

    const nameLength = out.readUInt16LE(offset + 28);
    const extraLength = out.readUInt16LE(offset + 30);
    const commentLength = out.readUInt16LE(offset + 32);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}
