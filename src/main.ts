// `npm start`: the Parley service. Today it prepares the database (migrations, first-start seed); the Slack
// listeners, scheduled jobs and recovery arrive with their issues and start here.
import { env } from './config/env.js';
import { openAppDatabase } from './db/app-database.js';
import { seedWorkspace } from './db/seed.js';
import { log } from './log.js';

const db = await openAppDatabase(env);
await seedWorkspace(db.prisma, { slackTeamId: env.SEED_SLACK_TEAM_ID, brandName: env.SEED_BRAND_NAME });
log.info('database ready', { kind: db.kind, location: db.location });

if (!env.SLACK_BOT_TOKEN || !env.SLACK_SIGNING_SECRET) {
  log.warn('Slack credentials are not set (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET); see README "Run it in Slack"');
}
log.warn('The Slack surface is not built yet; nothing to serve. Exiting.');
await db.close();
