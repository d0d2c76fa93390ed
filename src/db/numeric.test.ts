// storedNumeric must give what PostgreSQL stores for a number sent as JSON into a numeric(p, s) column: the review of
// a read file is built from it before the lines are written (read-quotation.ts), and shows the prices as stored.
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplateDump } from '../../test/support/test-database.js';
import { storedNumeric, sumNumeric } from './numeric.js';

let pglite: PGlite;
beforeAll(async () => {
  pglite = new PGlite({ loadDataDir: new Blob([await readFile(pgliteTemplateDump('empty'))]) });
  await pglite.waitReady;
});
afterAll(async () => {
  await pglite?.close();
});

/** What the database stores, as the reader's INSERT sends it (a JSON number unpacked by jsonb_to_recordset). */
async function asStored(values: readonly number[], scale: number): Promise<string[]> {
  const { rows } = await pglite.query<{ v: string }>(
    `SELECT (r.v::numeric(20, ${scale}))::text AS v FROM jsonb_to_recordset($1::jsonb) AS r(v numeric, n integer) ORDER BY r.n`,
    [JSON.stringify(values.map((v, n) => ({ v, n })))],
  );
  return rows.map((row) => row.v);
}

describe('storedNumeric', () => {
  it('rounds half away from zero at the scale, from the number’s shortest decimal form', () => {
    expect(storedNumeric(1.00005, 4)).toBe('1.0001');
    expect(storedNumeric(0.125, 2)).toBe('0.13');
    expect(storedNumeric(-0.125, 2)).toBe('-0.13');
    expect(storedNumeric(-2.5, 0)).toBe('-3');
    expect(storedNumeric(-0.001, 2)).toBe('0.00');
    expect(storedNumeric(1e-7, 4)).toBe('0.0000');
    expect(storedNumeric(12, 4)).toBe('12.0000');
    expect(storedNumeric(1.5e21, 2)).toBe('1500000000000000000000.00');
    expect(() => storedNumeric(Number.NaN, 2)).toThrow(RangeError);
  });

  it('gives what PostgreSQL stores, for prices of every size and awkward fractions', async () => {
    // A fixed pseudo-random sequence: the same values on every run.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const values = [
      ...Array.from({ length: 1500 }, () => Math.round(next() * 1e8) / 1e5),
      ...Array.from({ length: 1500 }, () => (next() - 0.5) * 10 ** Math.floor(next() * 12 - 6)),
      ...[0.005, 0.015, 2.675, 1.005, 0.00005, 0.00015, 123.45675, -0.00005, 1e-10, 99999.99995],
    ];
    for (const scale of [2, 4]) {
      expect(values.map((value) => storedNumeric(value, scale))).toEqual(await asStored(values, scale));
    }
  });
});

describe('sumNumeric', () => {
  it('sums exactly, as SQL sums numeric', () => {
    expect(sumNumeric([], 2)).toBeNull();
    expect(sumNumeric(['0.10', '0.20'], 2)).toBe('0.30');
    expect(sumNumeric(['-1.25', '0.05', '10.00'], 2)).toBe('8.80');
  });
});
