// `npm run seed`: the brand's workspace, its two simulated suppliers and the 10K catalog. Idempotent.
// The last line of output is JSON with the database's counts.
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { countSeededData, seedWorkspace } from '../db/seed.js';

const started = performance.now();
const db = await openAppDatabase(env);
try {
  const report = await seedWorkspace(db.prisma, {
    slackTeamId: env.SEED_SLACK_TEAM_ID,
    brandName: env.SEED_BRAND_NAME,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `${db.kind} at ${db.location}: workspace ${env.SEED_SLACK_TEAM_ID} (${env.SEED_BRAND_NAME}), ` +
      `${report.productsInserted} products inserted, ${report.suppliersUpserted} simulated suppliers, in ${seconds} s`,
  );
  console.log(JSON.stringify(await countSeededData(db.prisma)));
} finally {
  await db.close();
}
