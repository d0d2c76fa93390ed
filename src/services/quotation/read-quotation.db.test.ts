// The read lease fences a quotation's readers: a reader that was overtaken — its lease expired and
// the recovery sweep's second reader recorded the quotation — writes nothing when it finally finishes, so the second
// reader's lines and the buyer's supplier choice stand; and a long read renews its lease so it is not overtaken at
// all. Real readers (parseQuotation on a real sample) against a real database (PGlite, or PostgreSQL with
// DATABASE_URL); only the Slack download is a function the test controls.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { chooseSupplier } from './review-quotation.js';
import { giveUpReading, READ_GAVE_UP, READ_LEASE_MS, readQuotation } from './read-quotation.js';
import { jobLeaseOwner } from '../../jobs/job-lease.js';
import { quotationTruthSchema } from '../../../dev/sample-corpus/truth.js';

const TEAM = 'T0READLEAS';
const BUYER = 'U0BUYER001';
const MINUTE = 60_000;

let db: TestDatabase;
let ctx: ServiceContext;
let clock = new Date('2026-03-02T09:00:00.000Z');
let sample: Buffer;
let files = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  // No catalog: every line needs the buyer's review, so a read ends in `review`, where the buyer can choose.
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor', catalog: [] });
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null, now: () => clock });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
  sample = await readFile(new URL('../../../data/samples/01-clean-baseline.xlsx', import.meta.url));
});
afterAll(() => db?.destroy());

/** A quotation as receiveSlackFile claims it: `received`, nobody reading it yet. */
async function receivedQuotation() {
  const n = ++files;
  return ctx.db.quotation.create({
    data: {
      workspaceId: ctx.workspace.id,
      slackFileId: `F0READ${n}`,
      slackChannelId: 'C0READLEAS',
      slackThreadTs: `1767225600.00010${n}`,
      slackMessageTs: `1767225600.00010${n}`,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
    },
  });
}

/** A download that hangs until the test lets it finish: a slow Slack, or a slow Claude re-read after it. */
function heldDownload() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const started = vi.fn();
  const download = async () => {
    started();
    await released;
    return sample;
  };
  return { download, started, release };
}

const row = (id: string) => ctx.db.quotation.findUniqueOrThrow({ where: { id } });
const itemIds = async (quotationId: string) =>
  (await ctx.db.quotationItem.findMany({ where: { quotationId }, orderBy: { position: 'asc' } })).map((i) => i.id);

describe('readQuotation: readers fenced by the read lease', () => {
  it('refuses the write of a reader whose lease expired and was taken: the second reading and the buyer’s choice stand', async () => {
    const quotation = await receivedQuotation();
    const slow = heldDownload();
    const first = readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-a', download: slow.download });
    await vi.waitFor(() => expect(slow.started).toHaveBeenCalled());
    expect(await row(quotation.id)).toMatchObject({ status: 'parsing', readLeaseOwner: 'instance-a' });

    // The first reader's lease runs out; the sweep's reader on another instance takes the quotation and records it.
    clock = new Date(clock.getTime() + READ_LEASE_MS + MINUTE);
    const second = await readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-b',
      download: async () => sample,
    });
    expect(second).toBe('review');
    const secondItems = await itemIds(quotation.id);
    expect(secondItems.length).toBeGreaterThan(0);

    // The buyer reviews the second reading: names the supplier.
    const chosen = await chooseSupplier(ctx, {
      quotationId: quotation.id,
      by: BUYER,
      choice: { kind: 'new' },
      page: 1,
    });
    if (!chosen.ok) throw new Error(`the choice was refused: ${chosen.message}`);
    const outboxBefore = await ctx.db.slackOutbox.count();

    // Only now does the first reader finish: it no longer holds the lease, so it writes nothing.
    slow.release();
    await first;
    const after = await row(quotation.id);
    expect(after.supplierId).toBe(chosen.value.supplierId);
    expect(after.status).toBe('review');
    expect(await itemIds(quotation.id)).toEqual(secondItems);
    expect(await ctx.db.slackOutbox.count()).toBe(outboxBefore);
    expect(await first).toBe('lease_lost');
  });

  it('lets a read job’s retry take a half-read quotation from its dead attempt at once, not when the lease expires', async () => {
    const quotation = await receivedQuotation();
    const slow = heldDownload();
    // Attempt 0 of the job on an instance that then dies (frozen here: its download never returns until released).
    const dead = jobLeaseOwner('instance-dead', { id: 'read-job-1', retryCount: 0 });
    const first = readQuotation(ctx, { quotationId: quotation.id, owner: dead, download: slow.download });
    await vi.waitFor(() => expect(slow.started).toHaveBeenCalled());
    expect(await row(quotation.id)).toMatchObject({ status: 'parsing', readLeaseOwner: dead });

    // pg-boss retries the job on another instance; the dead attempt's lease has minutes left, and is taken over.
    clock = new Date(clock.getTime() + 15_000);
    const retry = jobLeaseOwner('instance-new', { id: 'read-job-1', retryCount: 1 });
    expect(await readQuotation(ctx, { quotationId: quotation.id, owner: retry, download: async () => sample })).toBe(
      'review',
    );
    const items = await itemIds(quotation.id);
    expect(items.length).toBeGreaterThan(0);
    // A reader outside the jobs still waits for the lease to expire.
    const other = await receivedQuotation();
    const held = heldDownload();
    const cli = readQuotation(ctx, { quotationId: other.id, owner: 'cli-parse', download: held.download });
    await vi.waitFor(() => expect(held.started).toHaveBeenCalled());
    expect(await readQuotation(ctx, { quotationId: other.id, owner: retry, download: async () => sample })).toBe(
      'already_read',
    );
    held.release();
    await cli;

    // The frozen attempt wakes: its lease is gone, it writes nothing.
    slow.release();
    expect(await first).toBe('lease_lost');
    expect(await itemIds(quotation.id)).toEqual(items);
  });

  it('refuses the failure of an overtaken reader too: a file it could not read does not fail a quotation read since', async () => {
    const quotation = await receivedQuotation();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const started = vi.fn();
    const first = readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-a',
      download: async () => {
        started();
        await released;
        return Buffer.from('not a spreadsheet');
      },
    });
    await vi.waitFor(() => expect(started).toHaveBeenCalled());
    clock = new Date(clock.getTime() + READ_LEASE_MS + MINUTE);
    expect(
      await readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-b', download: async () => sample }),
    ).toBe('review');
    release();
    expect(await first).toBe('lease_lost');
    expect(await row(quotation.id)).toMatchObject({ status: 'review', errorCode: null });
  });

  it('renews the lease of a long read, so no second reader takes it, and the long read is recorded', async () => {
    const quotation = await receivedQuotation();
    const slow = heldDownload();
    const first = readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-a',
      download: slow.download,
      heartbeatMs: 20,
    });
    await vi.waitFor(() => expect(slow.started).toHaveBeenCalled());
    // Twelve minutes of reading, in steps the heartbeat sees: each renewal pushes the expiry past the clock.
    for (let step = 0; step < 6; step++) {
      clock = new Date(clock.getTime() + 2 * MINUTE);
      await vi.waitFor(
        async () =>
          expect((await row(quotation.id)).readLeaseExpiresAt?.getTime()).toBe(clock.getTime() + READ_LEASE_MS),
        { timeout: 2000, interval: 10 },
      );
    }
    const second = await readQuotation(ctx, {
      quotationId: quotation.id,
      owner: 'instance-b',
      download: async () => sample,
    });
    expect(second).toBe('already_read');
    slow.release();
    expect(await first).toBe('review');
    expect(await row(quotation.id)).toMatchObject({ status: 'review', readLeaseOwner: 'instance-a' });
    expect((await itemIds(quotation.id)).length).toBeGreaterThan(0);
  });

  it('keeps each line’s colour and size as the file gave them, and the review shows them', async () => {
    const quotation = await receivedQuotation();
    const titled = await readFile(new URL('../../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url));
    const truth = quotationTruthSchema.parse(
      JSON.parse(
        await readFile(
          new URL('../../../data/samples/02-title-block-header-row-9.truth.json', import.meta.url),
          'utf8',
        ),
      ),
    );
    expect(
      await readQuotation(ctx, { quotationId: quotation.id, owner: 'instance-a', download: async () => titled }),
    ).toBe('review');
    const items = await ctx.db.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { position: 'asc' },
    });
    expect(items.map((item) => [item.rowNumber, item.color, item.size])).toEqual(
      truth.items.map((item) => [item.row, item.color, item.size]),
    );
    const posts = await ctx.db.slackOutbox.findMany({ where: { method: 'chat.postMessage' } });
    const review = posts.find(
      (row) => row.dedupeKey.includes(quotation.id) && JSON.stringify(row.payload).includes('Review'),
    );
    const first = truth.items[0];
    expect(JSON.stringify(review?.payload)).toContain(`colour ${first?.color} · size ${first?.size}`);
  });
});

describe('giveUpReading: a read whose job failed for good (the dead-letter queue)', () => {
  it('fails a half-read quotation and tells its thread once; a quotation read meanwhile is left alone', async () => {
    const quotation = await receivedQuotation();
    await ctx.db.quotation.update({
      where: { id: quotation.id },
      data: { status: 'parsing', readLeaseOwner: 'job:dead#12@instance-a', readLeaseExpiresAt: clock },
    });
    expect(await giveUpReading(ctx, quotation.id)).toBe(true);
    expect(await row(quotation.id)).toMatchObject({
      status: 'failed',
      errorCode: 'internal',
      errorMessage: READ_GAVE_UP,
      readLeaseOwner: null,
    });
    const told = await ctx.db.slackOutbox.findMany({ where: { dedupeKey: `q:${quotation.id}:error` } });
    expect(told).toHaveLength(1);
    expect(JSON.stringify(told[0]?.payload)).toContain('Parley could not read this file');
    // A second dead letter for the same read (a redelivery) says nothing more.
    expect(await giveUpReading(ctx, quotation.id)).toBe(false);

    // A reader outside the jobs (a CLI) still holds a live lease: it is reading, nothing has failed.
    const reading = await receivedQuotation();
    await ctx.db.quotation.update({
      where: { id: reading.id },
      data: { status: 'parsing', readLeaseOwner: 'cli-run', readLeaseExpiresAt: new Date(clock.getTime() + MINUTE) },
    });
    expect(await giveUpReading(ctx, reading.id)).toBe(false);
    expect((await row(reading.id)).status).toBe('parsing');

    const read = await receivedQuotation();
    await readQuotation(ctx, { quotationId: read.id, owner: 'instance-a', download: async () => sample });
    const before = await row(read.id);
    expect(await giveUpReading(ctx, read.id)).toBe(false);
    expect((await row(read.id)).status).toBe(before.status);
  });
});
