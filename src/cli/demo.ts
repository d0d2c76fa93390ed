// `npm run demo`: the whole story on the embedded defaults. It grows with the product; today Parley has its data
// layer, catalog and quotation ingestion, so the demo migrates, seeds, shows what is in the database and reads a
// bundled supplier quotation the way the buyer's review step will show it — nothing it cannot do yet.
import { readFile } from 'node:fs/promises';
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { seedWorkspace } from '../db/seed.js';
import { scopeToWorkspace } from '../db/scoped.js';
import { loadCatalogIndex } from '../catalog/load-catalog.js';
import { parseQuotation } from '../quotation/parse-quotation.js';
import { toParseTable } from '../quotation/parse-report.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

const started = performance.now();
const db = await openAppDatabase(env);
try {
  const seeded = await seedWorkspace(db.prisma, {
    slackTeamId: env.SEED_SLACK_TEAM_ID,
    brandName: env.SEED_BRAND_NAME,
  });
  const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { id: seeded.workspaceId } });
  const products = await db.prisma.product.count({ where: { workspaceId: workspace.id } });
  const suppliers = await db.prisma.supplier.findMany({
    where: { workspaceId: workspace.id },
    orderBy: { code: 'asc' },
  });
  const categories = await db.prisma.product.groupBy({
    by: ['category'],
    where: { workspaceId: workspace.id },
    _count: { _all: true },
    orderBy: { category: 'asc' },
  });
  const styles = await db.prisma.product.groupBy({ by: ['skuPrefix'], where: { workspaceId: workspace.id } });
  const sample = await db.prisma.product.findMany({
    where: { workspaceId: workspace.id },
    orderBy: { sku: 'asc' },
    take: 5,
  });

  console.log(`Parley demo — ${db.kind} database at ${db.location}\n`);
  console.log(`Workspace  ${workspace.name} (Slack team ${workspace.slackTeamId})`);
  console.log(`Catalog    ${products.toLocaleString('en-US')} products in ${styles.length} styles`);
  for (const { category, _count } of categories) {
    console.log(`           ${category.padEnd(14)} ${String(_count._all).padStart(6)}`);
  }
  console.log(
    '           e.g. ' + sample.map((p) => `${p.sku}(${p.name}, ${p.color}, ${p.size})`).join('\n                '),
  );
  console.log('\nSuppliers (SUP-001 is added from each uploaded quotation)');
  for (const s of suppliers) {
    console.log(
      `  ${s.code}  ${s.name.padEnd(16)} quality ${s.qualityRating.toFixed(1)}  ${s.priceLevel.padEnd(9)} ` +
        `${String(s.leadTimeDays).padStart(2)} days  pays ${s.paymentTerms.padEnd(8)} ${s.isSimulated ? 'simulated' : ''}`,
    );
  }

  const scoped = scopeToWorkspace(db.prisma, workspace.id);
  const parsed = await parseQuotation({
    data: await readFile(SAMPLE),
    catalog: await loadCatalogIndex(scoped),
    suppliers: suppliers.map(({ id, code, name }) => ({ id, code, name })),
    limits: readLimitsFrom(env),
    llm: null,
  });
  console.log(`\nA buyer shares ${SAMPLE.pathname.split('/').at(-1)} — Parley reads it (offline, no API key):\n`);
  console.log(toParseTable(parsed));
  console.log(`\nReady in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await db.close();
}
