// `npm start`: the Parley service — the database (migrated), the outbox poster and the Slack app (Socket Mode, or
// HTTP on PORT). It reads `.env` from the directory it runs in (the repository's root under `npm start`), the shell's
// variables winning; `--no-env-file` skips it (benchmarks that spawn this with an exact environment). Without Slack
// credentials it says what to set and points to the demo.
import { applyEnvFile } from './config/env-file.js';

// Before src/config/env.ts is loaded: it parses process.env once, at import, hence the dynamic imports below.
const envFile = process.argv.includes('--no-env-file')
  ? { found: false, applied: [] }
  : applyEnvFile('.env', process.env);

const { env } = await import('./config/env.js');
const { openAppDatabase } = await import('./db/app-database.js');
const { log } = await import('./log.js');
const { missingSlackCredentials, startParley } = await import('./server.js');

if (envFile.found) log.info('read .env', { variables: envFile.applied.length });
const missing = missingSlackCredentials(env);
if (missing) {
  console.error(`Parley cannot connect to Slack yet. ${missing}`);
  process.exit(1);
}

// What to fix, in one sentence (a folder another process holds, a refused token, a port in use); the whole error goes
// to the log.
function cannotStart(error: unknown): never {
  log.error('parley could not start', { error });
  console.error(`Parley could not start. ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const db = await openAppDatabase(env).catch(cannotStart);
const server = await startParley({ env, db }).catch(async (error: unknown) => {
  await db.close();
  return cannotStart(error);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    log.info('stopping', { signal });
    await server.stop();
    await db.close();
    process.exit(0);
  });
}
