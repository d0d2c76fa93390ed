// Acknowledged means saved, and saved soon, on PGlite's single connection: through the real receiver and the
// stand-in, an App Home open (whose save must commit before Slack is answered) is not queued behind background work
// that asked for the connection first — the large story's App Home opens waited up to 5.6 s behind the reader and the
// engine (issue 15). Timings are the benchmark's; this checks the order.
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';

const running = useSandboxedParley();

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('an acknowledgement on a busy PGlite', () => {
  it('is answered before the background statements that were queued ahead of it', async (context) => {
    // PostgreSQL has a pool: there the acks' connections are kept by sizing it, not by this order.
    if (running.db.kind !== 'pglite') context.skip();
    const { prisma } = running.db;
    const started = deferred();
    const release = deferred();
    // A background transaction holds the connection, as a big checkpoint or a quotation's items would.
    const holding = prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        started.resolve();
        await release.promise;
      },
      { timeout: 60_000, maxWait: 60_000 },
    );
    await started.promise;
    const finished: string[] = [];
    // Twenty statements of background work queue behind it (App Home builds, a reader, the outbox).
    const background = Array.from({ length: 20 }, (_, i) =>
      prisma.$queryRaw`SELECT count(*) FROM generate_series(1, 50000)`.then(() => finished.push(`background ${i}`)),
    );
    const opened = running.parley.sandbox.driver.openHome(PEOPLE.buyer.id).then((response) => {
      finished.push('App Home open answered');
      return response;
    });
    // The open reaches the listener and queues its save behind the transaction too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release.resolve();
    const [response] = await Promise.all([opened, holding, ...background]);

    expect(response.status).toBe(200);
    // First come, first served, the open would be answered last, after all twenty.
    expect(finished.indexOf('App Home open answered')).toBeLessThan(5);
  });
});
