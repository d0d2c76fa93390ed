// `npm start`: the Parley service — the database (migrated, seeded on first start), the outbox poster and the Slack
// app (Socket Mode, or HTTP on PORT). Without Slack credentials it says what to set and points to the demo.
import { env } from './config/env.js';
import { openAppDatabase } from './db/app-database.js';
import { log } from './log.js';
import { missingSlackCredentials, startParley } from './server.js';

const missing = missingSlackCredentials(env);
if (missing) {
  console.error(`Parley cannot connect to Slack yet. ${missing}`);
  process.exit(1);
}

const db = await openAppDatabase(env);
const server = await startParley({ env, db });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    log.info('stopping', { signal });
    await server.stop();
    await db.close();
    process.exit(0);
  });
}
