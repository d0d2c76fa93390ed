// `npm run demo`: the whole story on the embedded defaults. It grows with the product; today it migrates, seeds,
// shows what is in the database, reads a bundled supplier quotation the way the buyer's review step will show it,
// negotiates it offline with the three suppliers and prints the recommendation. The Slack thread is the next step;
// until then the demo prints the negotiation as a transcript — nothing it cannot do yet.
import { readFile } from 'node:fs/promises';
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { seedWorkspace } from '../db/seed.js';
import { scopeToWorkspace } from '../db/scoped.js';
import { loadCatalogIndex } from '../catalog/load-catalog.js';
import { parseQuotation } from '../quotation/parse-quotation.js';
import { toParseTable } from '../quotation/parse-report.js';
import { negotiateQuotation } from '../negotiation/negotiate-quotation.js';
import { negotiationTranscript } from '../negotiation/report.js';
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

  const catalog = await loadCatalogIndex(scoped);
  const negotiated = await negotiateQuotation({
    parsed,
    catalogNames: new Map(catalog.entries.map((entry) => [entry.sku, entry.name])),
    brandName: workspace.brandName,
    seed: 1,
    mode: 'balanced',
    maxRounds: 4,
    mandate: { targetTotal: null, walkAwayTotal: null },
    answers: 'auto',
    llm: null,
  });
  console.log('\nParley negotiates with the quoting supplier and two competitors (questions answered with the first');
  console.log('suggested answer, as the buyer would by clicking it):');
  console.log(negotiationTranscript(negotiated.state, negotiated.events));
  if (negotiated.decision) {
    const { text, numbers } = negotiated.decision;
    console.log(`\n══ Recommendation (${numbers.mode} mode)\n${text.summary}`);
    if (text.cheapestNotChosenReason) console.log(text.cheapestNotChosenReason);
    console.log(`Trade-offs: ${text.tradeOffs}`);
  }
  console.log(`\nReady in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await db.close();
}
