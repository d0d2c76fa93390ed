// PostgreSQL's pool keeps connections for acknowledgements: with background work holding every connection it may
// have and more of it queued, a save Slack waits on still gets a connection at once (a real PostgreSQL server; the
// file is skipped without DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileSlackWaits } from '../ack-path.js';
import { env } from '../config/env.js';
import { type Database, openDatabase } from './client.js';

describe.skipIf(!env.DATABASE_URL)('the PostgreSQL pool, with connections reserved for acknowledgements', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL ?? '', poolSize: 4 });
  });
  afterAll(async () => {
    await db.close();
  });

  it('runs a save Slack waits on before background queries that were queued for a connection first', async () => {
    const finished: string[] = [];
    // Six slow background queries: more than the pool's four connections.
    const background = Array.from({ length: 6 }, (_, i) =>
      db.prisma.$queryRaw`SELECT pg_sleep(1)::text`.then(() => finished.push(`background ${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const save = whileSlackWaits(async () => {
      await db.prisma.$queryRaw`SELECT 1`;
      finished.push('save');
    });
    await Promise.all([save, ...background]);
    // Without a reserve, the save would wait in the pool's queue behind the last two, until the first four end.
    expect(finished[0]).toBe('save');
  });
});
