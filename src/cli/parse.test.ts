// The parse CLI as a buyer's script would run it: a real process, a real (temporary) embedded database.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'parley-parse-cli-'));

async function runParse(...args: string[]) {
  const { DATABASE_URL: _serverDb, ...inherited } = process.env;
  try {
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'tsx', 'src/cli/parse.ts', ...args], {
      cwd: ROOT,
      env: { ...inherited, PGLITE_DATA_DIR: dataDir, ANTHROPIC_API_KEY: '' },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { stdout: failed.stdout, code: failed.code };
  }
}

describe('npm run parse', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints exactly one JSON document for a quotation, seeding the catalog on first use', async () => {
    const { stdout, code } = await runParse('--json', 'data/samples/02-title-block-header-row-9.xlsx');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.items).toHaveLength(16);
    expect(report.terms.leadTimeDays).toEqual(expect.any(Number));
    expect(report.supplier.name).toEqual(expect.any(String));
    expect(report.items[0].match.sku).toMatch(/^[A-Z]{2}\d{3}-/);
  }, 120_000);

  it('answers a file that is not a workbook with one JSON error and a non-zero exit', async () => {
    const { stdout, code } = await runParse('--json', 'README.md');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'not_xlsx', message: expect.stringContaining('.xlsx') } });
  }, 120_000);
});
