// `npm run -s bench -- catalog-import`: a brand's 100,000-product catalog imported the way `/parley catalog` does it —
// the CSV read and checked, the preview compared with the catalog and stored, then Replace applied — on PGlite and, when
// one answers at 127.0.0.1:5432, on PostgreSQL. The target: under a minute per backend, end to end.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readCatalogFile } from '../../src/catalog/catalog-file.js';
import { loadEnv } from '../../src/config/env.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { seedWorkspace } from '../../src/db/seed.js';
import { cancelCatalogImport } from '../../src/services/catalog/cancel-catalog-import.js';
import { applyCatalogImport, claimCatalogImport } from '../../src/services/catalog/import-catalog.js';
import { previewCatalogImport } from '../../src/services/catalog/preview-catalog-import.js';
import type { SlackFiles } from '../../src/services/quotation/download-shared-file.js';
import { createContextFactory } from '../../src/services/service-context.js';
import { POSTGRES_ADMIN_URL, postgresAvailable } from '../reliability/bench-databases.js';

const TEAM = 'T0CATBENCH';
const APPROVER = 'U0CATBENCH';
const COLORS = ['Black', 'Navy', 'Forest Green', 'Glacier White', 'Ember Red', 'Slate Grey', 'Sand', 'Ocean Blue'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const CATEGORIES = ['Jackets', 'Tents', 'Packs', 'Footwear', 'Base layers', 'Accessories'];

/** A brand's catalog as a CSV: `rows` products, SKUs in the brand's own scheme (not Valden's STYLE-COLOR-SIZE). */
export function syntheticCatalogCsv(rows: number): Buffer {
  const lines = ['Item code,Product name,Colour,Size,Category'];
  for (let i = 0; i < rows; i++) {
    const style = Math.floor(i / (COLORS.length * SIZES.length));
    const color = COLORS[Math.floor(i / SIZES.length) % COLORS.length] ?? 'Black';
    const size = SIZES[i % SIZES.length] ?? 'M';
    const category = CATEGORIES[style % CATEGORIES.length] ?? 'Gear';
    const code = color
      .replace(/[^A-Z]/g, '')
      .padEnd(3, 'X')
      .slice(0, 3);
    lines.push(
      `BR-${String(style).padStart(5, '0')}-${code}${i % 7}-${size},"Trail ${category} ${style}, mk ${i % 3}",${color},${size},${category}`,
    );
  }
  return Buffer.from(lines.join('\n'));
}

export interface CatalogImportFigures {
  backend: string;
  rows: number;
  parseMs: number;
  previewMs: number;
  importMs: number;
  totalMs: number;
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, Math.round(performance.now() - started)];
}

/** One backend: a fresh workspace with the demo's 10K catalog, then the file previewed and applied with Replace. */
async function runOn(backend: string, db: Database, csv: Buffer, rows: number): Promise<CatalogImportFigures> {
  await applyMigrations(db);
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Bench Outdoor' });
  await db.prisma.workspace.update({ where: { slackTeamId: TEAM }, data: { settings: { approvers: [APPROVER] } } });
  const env = loadEnv({ MAX_UPLOAD_MB: '50' });
  const ctx = await createContextFactory({ prisma: db.prisma, env, llm: null }).forTeam(TEAM);
  if (!ctx) throw new Error('bench workspace missing');
  const files: SlackFiles = {
    info: async () => ({
      name: 'catalog.csv',
      filetype: 'csv',
      sizeBytes: csv.length,
      sharedBy: APPROVER,
      userTeam: TEAM,
      downloadUrl: 'https://files.slack.com/files-pri/bench/catalog.csv',
      share: () => null,
    }),
    download: async () => csv,
    channel: async () => ({ isMember: true, isIm: false, isExternal: false, connectedTeamIds: [] }),
    recentFiles: async () => [],
  };
  const [, parseMs] = await timed(() =>
    readCatalogFile({
      data: csv,
      fileName: 'catalog.csv',
      defaultBrand: 'Bench',
      maxBytes: env.MAX_UPLOAD_MB * 2 ** 20,
    }),
  );
  const [preview, previewMs] = await timed(() =>
    previewCatalogImport(ctx, { by: APPROVER, fileId: 'F0CATBENCH', files }),
  );
  if (!preview.ok) throw new Error(`preview refused: ${preview.message}`);
  const [report, importMs] = await timed(async () => {
    const claim = await claimCatalogImport(ctx, { importId: preview.value.importId, by: APPROVER, mode: 'replace' });
    if (!claim.ok) throw new Error(`claim refused: ${claim.message}`);
    return applyCatalogImport(ctx, { importId: preview.value.importId });
  });
  if (report?.catalogSize !== rows) throw new Error(`imported ${report?.catalogSize ?? 0} products, not ${rows}`);
  // Keep the database tidy for a second run against the same server.
  await cancelCatalogImport(ctx, { importId: preview.value.importId, by: APPROVER });
  // previewMs includes reading the file again (the service downloads and parses it itself).
  return { backend, rows, parseMs, previewMs, importMs, totalMs: previewMs + importMs };
}

export async function runCatalogImportBench(options: { rows: number; print: (line: string) => void }) {
  const csv = syntheticCatalogCsv(options.rows);
  const figures: CatalogImportFigures[] = [];
  const pglite = await openDatabase({ kind: 'pglite' });
  try {
    figures.push(await runOn('pglite', pglite, csv, options.rows));
  } finally {
    await pglite.close();
  }
  if (await postgresAvailable()) {
    const schema = `catalog_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const postgres = await openDatabase({ kind: 'postgres', url: POSTGRES_ADMIN_URL, schema, poolSize: 4 });
    try {
      figures.push(await runOn('postgres', postgres, csv, options.rows));
    } finally {
      await postgres.close();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    }
  } else {
    options.print('(no PostgreSQL at 127.0.0.1:5432: PGlite only)');
  }
  options.print('backend    rows      parse ms  preview ms  import ms  total ms');
  options.print('---------  --------  --------  ----------  ---------  --------');
  for (const f of figures) {
    options.print(
      [
        f.backend.padEnd(9),
        String(f.rows).padEnd(8),
        String(f.parseMs).padEnd(8),
        String(f.previewMs).padEnd(10),
        String(f.importMs).padEnd(9),
        String(f.totalMs),
      ].join('  '),
    );
  }
  return Object.fromEntries(
    figures.map((f) => [
      f.backend,
      { rows: f.rows, parseMs: f.parseMs, previewMs: f.previewMs, importMs: f.importMs, totalMs: f.totalMs },
    ]),
  );
}
