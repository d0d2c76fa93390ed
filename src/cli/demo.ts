// `npm run demo`: the whole story on the embedded defaults. It grows with the product; today Parley has its data
// layer and catalog, so the demo migrates, seeds and shows what is in the database — nothing it cannot do yet.
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { seedWorkspace } from '../db/seed.js';

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
  console.log(`\nReady in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await db.close();
}
