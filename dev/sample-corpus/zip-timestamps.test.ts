import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { loadWorkbook } from './workbook.js';
import { stampZipEntries } from './zip-timestamps.js';

async function workbookBytes(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date('2025-01-01T00:00:00Z');
  workbook.modified = workbook.created;
  workbook.addWorksheet('Sheet1').getCell('A1').value = 'MC001-GLW-XL';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The DOS time and date of every local file header, in archive order. */
function localStamps(zip: Buffer): string[] {
  const stamps: string[] = [];
  for (let offset = zip.indexOf('PK\x03\x04'); offset >= 0; offset = zip.indexOf('PK\x03\x04', offset + 4)) {
    stamps.push(`${zip.readUInt16LE(offset + 12)}:${zip.readUInt16LE(offset + 10)}`);
  }
  return stamps;
}

describe('stampZipEntries', () => {
  it('sets every entry to the given instant, in local and central headers, and the archive still opens', async () => {
    const stamped = stampZipEntries(await workbookBytes(), new Date('2025-03-03T09:00:04Z'));
    // 2025-03-03 → (45 << 9) | (3 << 5) | 3; 09:00:04 → (9 << 11) | 2
    const expected = `${(45 << 9) | (3 << 5) | 3}:${(9 << 11) | 2}`;
    expect(new Set(localStamps(stamped))).toEqual(new Set([expected]));
    for (let at = stamped.indexOf('PK\x01\x02'); at >= 0; at = stamped.indexOf('PK\x01\x02', at + 4)) {
      expect(`${stamped.readUInt16LE(at + 14)}:${stamped.readUInt16LE(at + 12)}`).toBe(expected);
    }

    const workbook = await loadWorkbook(stamped);
    expect(workbook.getWorksheet('Sheet1')?.getCell('A1').value).toBe('MC001-GLW-XL');
  });

  it('makes two writes of the same workbook byte-identical whatever the clock said', async () => {
    const first = await workbookBytes();
    const second = Buffer.from(first);
    // Simulate a write two seconds later: JSZip's own stamp is the only difference between runs.
    for (let at = second.indexOf('PK\x03\x04'); at >= 0; at = second.indexOf('PK\x03\x04', at + 4)) {
      second.writeUInt16LE(second.readUInt16LE(at + 10) ^ 1, at + 10);
    }
    expect(first.equals(second)).toBe(false);
    const instant = new Date('2025-03-03T09:00:00Z');
    expect(stampZipEntries(first, instant).equals(stampZipEntries(second, instant))).toBe(true);
  });

  it('refuses bytes that are not a zip archive', () => {
    expect(() => stampZipEntries(Buffer.from('not a zip at all, just some text'), new Date())).toThrow(/not a zip/);
  });
});
