// What is left to do in the database, for /healthz (src/server.ts): outbox rows not yet sent, negotiations running (or
// completed but not yet concluded: their decision not posted) and quotations being read. One statement: a bench or a
// load balancer asks every 50 ms, and three counts were three turns on PGlite's one connection (three round trips on
// PostgreSQL) each time.
import type { PrismaClient } from '../client.js';

export interface UnfinishedWork {
  outboxUnsent: number;
  negotiating: number;
  reading: number;
}

export async function countUnfinishedWork(prisma: Pick<PrismaClient, '$queryRaw'>): Promise<UnfinishedWork> {
  // A negotiation's quotation is required (a foreign key that is not null): the inner join keeps every negotiation.
  const [row] = await prisma.$queryRaw<{ outboxUnsent: bigint; negotiating: bigint; reading: bigint }[]>`
    SELECT
      (SELECT count(*) FROM "SlackOutbox" WHERE status IN ('pending', 'sending')) AS "outboxUnsent",
      (SELECT count(*) FROM "Negotiation" n JOIN "Quotation" q ON q.id = n."quotationId"
        WHERE n.status = 'negotiating' OR (n.status = 'completed' AND q.status = 'negotiating')) AS "negotiating",
      (SELECT count(*) FROM "Quotation" WHERE status IN ('received', 'parsing')) AS "reading"`;
  return {
    outboxUnsent: Number(row?.outboxUnsent ?? 0),
    negotiating: Number(row?.negotiating ?? 0),
    reading: Number(row?.reading ?? 0),
  };
}
