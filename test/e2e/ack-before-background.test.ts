// Acknowledged means saved, and saved soon, on PGlite's single connection: through the real receiver and the
// stand-in, a review click (whose save must commit before Slack is answered) is not queued behind background work that
// asked for the connection first — the large story's clicks waited up to 5.6 s behind the reader and the engine
// (issue 15). Timings are the benchmark's; this checks the order.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { buttonsIn } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, reviewConfirmCodec } from '../../src/slack/ids.js';

const SAMPLE = new URL('../../data/samples/10-ocr-sku-errors-custom-items.xlsx', import.meta.url);

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
    const { driver, model } = running.parley.sandbox;
    const buyer = PEOPLE.buyer.id;

    // A quotation in review, with a line whose suggestion the buyer confirms: the click saves before it is answered.
    const shared = await driver.shareFile(buyer, CHANNEL.id, { name: 'ocr.xlsx', bytes: await readFile(SAMPLE) });
    await running.parley.settle();
    const confirmable = (b: { actionId: string; value?: string }) =>
      b.actionId === ACTION.reviewConfirm && Boolean(reviewConfirmCodec.decode(b.value ?? '')?.p);
    const review = model.thread(CHANNEL.id, shared.ts).find((m) => buttonsIn(m).some(confirmable));
    const confirm = review && buttonsIn(review).find(confirmable);
    const itemId = confirm && reviewConfirmCodec.decode(confirm.value ?? '')?.i;
    if (!review || !confirm || !itemId) throw new Error('no line to confirm');
    const reviewState = async () =>
      (await prisma.quotationItem.findUniqueOrThrow({ where: { id: itemId } })).reviewState;
    const before = await reviewState();

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
    const clicked = driver
      .clickButton(buyer, { channel: CHANNEL.id, ts: review.ts }, confirm.actionId, { value: confirm.value })
      .then((response) => {
        finished.push('review click answered');
        return response;
      });
    // The click reaches the listener and queues its save behind the transaction too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release.resolve();
    const [response] = await Promise.all([clicked, holding, ...background]);

    expect(response.status).toBe(200);
    // Answered once saved: the line is confirmed.
    expect(await reviewState()).not.toBe(before);
    // First come, first served, the click would be answered last, after all twenty.
    expect(finished.indexOf('review click answered')).toBeLessThan(5);
    await running.parley.settle();
  }, 120_000);
});
