// The CLIs as a buyer's script would run them: a real process, a real (temporary) embedded database.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'parley-cli-'));

async function runCli(script: string, ...args: string[]) {
  const { DATABASE_URL: _serverDb, ...inherited } = process.env;
  try {
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'tsx', `src/cli/${script}.ts`, ...args], {
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
    const { stdout, code } = await runCli('parse', '--json', 'data/samples/02-title-block-header-row-9.xlsx');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.items).toHaveLength(16);
    expect(report.terms.leadTimeDays).toEqual(expect.any(Number));
    expect(report.supplier.name).toEqual(expect.any(String));
    expect(report.items[0].match.sku).toMatch(/^[A-Z]{2}\d{3}-/);
  }, 120_000);

  it('answers a file that is not a workbook with one JSON error and a non-zero exit', async () => {
    const { stdout, code } = await runCli('parse', '--json', 'README.md');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'not_xlsx', message: expect.stringContaining('.xlsx') } });
  }, 120_000);
});

// Seconds each: every run is a process of its own (tsx, PGlite, the catalog), and this one negotiates three times.
describe('npm run negotiate', () => {
  it('answers a file with no priced catalog line (an RFQ) with one JSON error and a non-zero exit', async () => {
    const { stdout, code } = await runCli('negotiate', '--json', 'data/samples/24-rfq-blank-prices.xlsx');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'nothing_to_negotiate', message: expect.stringContaining('quantity and a price') },
    });
  }, 120_000);

  it('negotiates a sample offline with three suppliers, the curveball and its cap, the same way for the same seed', async () => {
    const args = ['--json', '--seed', '11', 'data/samples/01-clean-baseline.xlsx'];
    const [first, second] = [await runCli('negotiate', ...args), await runCli('negotiate', ...args)];
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.status).toBe('completed');
    expect(report.suppliers.map((s: { code: string }) => s.code)).toEqual(['SUP-001', 'SUP-002', 'SUP-003']);
    expect(report.curveball).toMatchObject({ supplierCode: 'SUP-002', capacityShare: 0.6, afterRound: 1 });
    const capped = report.suppliers[1].rounds.filter((r: { round: number }) => r.round > 1);
    expect(capped.length).toBeGreaterThan(0);
    expect(capped.every((r: { capacityShare: number }) => r.capacityShare <= 0.6)).toBe(true);
    expect(report.questions.some((q: { status: string }) => q.status === 'answered')).toBe(true);
    // Phase 4: a decision from code's numbers, a draft PO, its workbook and the price chart.
    expect(report.decision.summary).toEqual(expect.any(String));
    expect(report.decision.scores).toHaveLength(3);
    expect(report.po.status).toBe('draft');
    expect(report.po.allocations.length).toBeGreaterThan(0);
    expect(readFileSync(report.poWorkbook).subarray(0, 2).toString()).toBe('PK');
    expect(readFileSync(report.chart).subarray(1, 4).toString()).toBe('PNG');
    const { wallTimeMs: _a, ...same } = report;
    const { wallTimeMs: _b, ...again } = JSON.parse(second.stdout);
    expect(again).toEqual(same);
  }, 120_000);
});
