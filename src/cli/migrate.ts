// `npm run db:migrate`: applies the committed migrations to the configured database (the app also does this on start).
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';

const db = await openAppDatabase(env);
try {
  const rows = await db.withScriptConnection((connection) =>
    connection.query<{ count: string }>('SELECT count(*)::text AS count FROM "_prisma_migrations"'),
  );
  console.log(`${db.kind} at ${db.location}: ${rows[0]?.count ?? 0} migrations applied, schema up to date`);
} finally {
  await db.close();
}
