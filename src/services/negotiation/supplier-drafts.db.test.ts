// The buyer's Send and Skip on Alex's drafts for a connected supplier, on a real database: nothing is written for the
// supplier's channel before Send; Send writes the request there once, Skip closes the round for the supplier; each is
// decided once and only by the people who may work on the quotation. Once sent, the round waits for the supplier until
// its reply-by time, which the buyer can extend, or close the round sooner; the job reminds the supplier a day before
// and closes the round at it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expirePausedNegotiations } from '../../jobs/expire-paused-negotiations.js';
import { remindSuppliers } from '../../jobs/remind-suppliers.js';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { draftKey, supplierMessageKey } from '../../thread/thread.js';
import { APPROVERS, BUYER, createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { addBusinessDays, DAY_MS, HOUR_MS } from '../../time.js';
import { submitSupplierOffer } from './submit-supplier-offer.js';
import { decideDraft, draftForEditing, sendableWithoutAsking, sendDraftsWithinMandate } from './supplier-drafts.js';

const SUPPLIER_TEAM = 'T0NINGBO01';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, 'T0DRAFTS01');
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

/** The round's draft for the connected supplier: its sequence, and what the outbox holds for its channel. */
async function waitingDraft(seed: number) {
  const waiting = await fixture.waitingForConnectedSupplier(seed, SUPPLIER_TEAM);
  const draft = waiting.state.suppliers['SUP-001']?.messages.findLast((m) => m.from === 'brand');
  if (!draft?.sequence) throw new Error('no draft this round');
  const toSupplier = () => fixture.ws.slackOutbox.findMany({ where: { channelId: 'C0SHARED01' } });
  return { ...waiting, sequence: draft.sequence, toSupplier };
}

describe('a draft for a connected supplier', () => {
  it('reaches the supplier’s channel only when sent, once, and is shown sent in the buyer’s thread', async () => {
    const { negotiationId, sequence, toSupplier } = await waitingDraft(1);
    const draftCard = await fixture.ws.slackOutbox.findFirst({
      where: { dedupeKey: draftKey(negotiationId, sequence) },
    });
    expect(draftCard?.channelId).not.toBe('C0SHARED01');
    const before = (await toSupplier()).length;
    const send = { negotiationId, sequence, decision: 'send' as const, by: BUYER };
    expect(await decideDraft(ctx, send)).toMatchObject({ ok: true, changed: true });
    const written = await toSupplier();
    expect(written.map((row) => row.dedupeKey)).toContain(supplierMessageKey(negotiationId, sequence));
    expect(written.length).toBeGreaterThan(before);
    expect(await decideDraft(ctx, send)).toMatchObject({ ok: true, changed: false });
    expect(await toSupplier()).toHaveLength(written.length);
    const sentCard = await fixture.ws.slackOutbox.findFirst({
      where: { dedupeKey: `${draftKey(negotiationId, sequence)}:sent` },
    });
    expect(JSON.stringify(sentCard?.payload)).toContain(`Sent to`);
    // Sent cannot be taken back by Skip.
    expect(await decideDraft(ctx, { ...send, decision: 'skip' })).toMatchObject({ ok: false, error: 'conflict' });
    const audits = await fixture.ws.auditLog.findMany({
      where: { entityId: negotiationId, action: 'negotiation.draft_sent' },
    });
    expect(audits.map((a) => a.actorSlackUserId)).toEqual([BUYER]);
  });

  it('skipped, sends nothing and closes the round for the supplier; then Send is refused', async () => {
    const { negotiationId, sequence, toSupplier } = await waitingDraft(2);
    const before = (await toSupplier()).length;
    const skip = { negotiationId, sequence, decision: 'skip' as const, by: APPROVERS[0] };
    expect(await decideDraft(ctx, skip)).toMatchObject({ ok: true, changed: true, value: { resume: true } });
    const { state } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(state.suppliers['SUP-001']?.awaitingReply).toBe(false);
    expect(state.status).toBe('running');
    expect(await decideDraft(ctx, { ...skip, decision: 'send' })).toMatchObject({ ok: false, error: 'conflict' });
    expect(await toSupplier()).toHaveLength(before);
  });

  it('once sent, waits until its reply-by time, which the buyer extends or cuts short by closing the round', async () => {
    const { negotiationId, negotiationSupplierId, sequence, state } = await waitingDraft(4);
    const decide = (decision: 'send' | 'extend' | 'close', by: string = BUYER) =>
      decideDraft(ctx, { negotiationId, sequence, decision, by });
    expect(await decide('close')).toMatchObject({ ok: false, error: 'conflict' }); // not sent yet
    const sentAt = ctx.now();
    expect(await decide('send')).toMatchObject({ ok: true });
    const row = () => fixture.ws.negotiationSupplier.findUniqueOrThrow({ where: { id: negotiationSupplierId } });
    const sent = await row();
    expect(sent.replyRound).toBe(state.round);
    // Two business days (the default), counted from the send: never less than two days, never more than four.
    const waited = (sent.replyBy?.getTime() ?? 0) - sentAt.getTime();
    expect(waited).toBeGreaterThanOrEqual(2 * DAY_MS - 1000);
    expect(waited).toBeLessThanOrEqual(4 * DAY_MS + 1000);
    expect([0, 6]).not.toContain(sent.replyBy?.getUTCDay()); // never due on a weekend

    expect(await decide('extend', APPROVERS[0])).toMatchObject({ ok: true, changed: true });
    const extended = await row();
    expect(extended.replyBy).toEqual(addBusinessDays(sent.replyBy ?? sentAt, 2));
    const notices = await fixture.ws.slackOutbox.findMany({
      where: { channelId: 'C0SHARED01', dedupeKey: { startsWith: `${supplierMessageKey(negotiationId, sequence)}:` } },
    });
    expect(notices.map((n) => n.dedupeKey)).toEqual([
      `${supplierMessageKey(negotiationId, sequence)}:extended:${extended.replyBy?.getTime()}`,
    ]);

    expect(await decide('close', APPROVERS[0])).toMatchObject({ ok: true, changed: true, value: { resume: true } });
    const { state: after } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(after.suppliers['SUP-001']?.awaitingReply).toBe(false);
    expect((await row()).replyBy).toBeNull();
    const closedCard = await fixture.ws.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: `${draftKey(negotiationId, sequence)}:closed` },
    });
    // The card still says who sent it, and who closed the round.
    expect(JSON.stringify(closedCard.payload)).toContain(`<@${BUYER}>`);
    expect(JSON.stringify(closedCard.payload)).toContain(`<@${APPROVERS[0]}> closed round`);
    expect(await decide('close')).toMatchObject({ ok: false, error: 'conflict' });
    expect(await decide('extend')).toMatchObject({ ok: false, error: 'conflict' });
    const audits = await fixture.ws.auditLog.findMany({ where: { entityId: negotiationId } });
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['negotiation.supplier_reply_extended', 'negotiation.supplier_round_closed']),
    );
  });

  it('reminds the supplier a day before its reply-by time, once, then closes the round without it', async () => {
    const { negotiationId, negotiationSupplierId, sequence, state } = await waitingDraft(5);
    expect(await decideDraft(ctx, { negotiationId, sequence, decision: 'send', by: BUYER })).toMatchObject({
      ok: true,
    });
    const { replyBy } = await fixture.ws.negotiationSupplier.findUniqueOrThrow({
      where: { id: negotiationSupplierId },
    });
    if (!replyBy) throw new Error('a sent draft has a reply-by time');
    const work = { driveUnqueued: vi.fn(async () => 1) };
    const job = (now: Date) => remindSuppliers({ prisma: db.prisma, contexts: fixture.contexts, now, work });
    const key = supplierMessageKey(negotiationId, sequence);
    // Other tests' negotiations share the database: what this one's rows show is what counts.
    const reminders = () =>
      fixture.ws.slackOutbox.findMany({ where: { dedupeKey: { startsWith: `${key}:reminder` } } });
    const mine = [{ workspaceId: fixture.workspaceId, negotiationId }];

    await job(new Date(replyBy.getTime() - 2 * DAY_MS));
    expect(await reminders()).toEqual([]);
    expect((await job(new Date(replyBy.getTime() - 12 * HOUR_MS))).reminded).toBeGreaterThanOrEqual(1);
    await job(new Date(replyBy.getTime() - 6 * HOUR_MS));
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.channelId).toBe('C0SHARED01');
    expect(work.driveUnqueued).not.toHaveBeenCalledWith(mine);

    expect((await job(new Date(replyBy.getTime() + 60_000))).closed).toBeGreaterThanOrEqual(1);
    expect(work.driveUnqueued).toHaveBeenCalledWith(expect.arrayContaining(mine));
    const { state: after } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(after.suppliers['SUP-001']?.awaitingReply).toBe(false);
    expect(after.round).toBe(state.round);
    const card = await fixture.ws.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: `${draftKey(negotiationId, sequence)}:closed` },
    });
    expect(JSON.stringify(card.payload)).toContain('No answer from');
    const closed = await fixture.ws.auditLog.findFirstOrThrow({
      where: { entityId: negotiationId, action: 'negotiation.supplier_round_closed' },
    });
    expect(closed.actorSlackUserId).toBeNull();
    // Nothing left to do: a later run finds no row of this negotiation's due.
    expect(
      await fixture.ws.negotiationSupplier.findUniqueOrThrow({ where: { id: negotiationSupplierId } }),
    ).toMatchObject({ replyBy: null, replyRound: null });
  });

  it('leaves a round the supplier answered: its reply-by time passes without closing anything', async () => {
    const { negotiationId, negotiationSupplierId, sequence, state } = await waitingDraft(6);
    expect(await decideDraft(ctx, { negotiationId, sequence, decision: 'send', by: BUYER })).toMatchObject({
      ok: true,
    });
    const offer = {
      unitPrices: state.baseline.lines.map((line) => line.unitPrice),
      leadTimeDays: null,
      paymentTerms: null,
      validityDays: null,
      notes: null,
    };
    expect(
      await submitSupplierOffer(ctx, {
        negotiationId,
        negotiationSupplierId,
        round: state.round,
        offer,
        by: 'U0NINGBO01',
        byTeamId: SUPPLIER_TEAM,
      }),
    ).toMatchObject({ ok: true, changed: true });
    const { replyBy } = await fixture.ws.negotiationSupplier.findUniqueOrThrow({
      where: { id: negotiationSupplierId },
    });
    const work = { driveUnqueued: vi.fn(async () => 1) };
    const late = new Date((replyBy?.getTime() ?? 0) + 60_000);
    const before = await loadCheckpoint(fixture.ws, negotiationId);
    await remindSuppliers({ prisma: db.prisma, contexts: fixture.contexts, now: late, work });
    expect((await loadCheckpoint(fixture.ws, negotiationId)).version).toBe(before.version);
    const row = await fixture.ws.negotiationSupplier.findUniqueOrThrow({ where: { id: negotiationSupplierId } });
    expect(row.replyBy).toBeNull();
    expect(work.driveUnqueued).not.toHaveBeenCalledWith(
      expect.arrayContaining([expect.objectContaining({ negotiationId })]),
    );
  });

  it('with auto-send on, goes out within the mandate without a click, audited as automatic; above it, waits', async () => {
    const { negotiationId, sequence, state, toSupplier } = await waitingDraft(7);
    // Off (the default): nothing is sent.
    expect(await sendDraftsWithinMandate(ctx, negotiationId)).toBe(0);
    expect((await toSupplier()).map((row) => row.dedupeKey)).not.toContain(supplierMessageKey(negotiationId, sequence));
    // Above the walk-away total, the draft waits for the buyer even with auto-send on.
    const ask = state.suppliers['SUP-001']?.brandAsks.at(-1)?.targetTotal ?? 0;
    expect(ask).toBeGreaterThan(0);
    const strict = { ...state, mandate: { ...state.mandate, walkAwayTotal: ask - 1 } };
    expect(sendableWithoutAsking(strict, 'SUP-001', sequence)).toBe(false);
    expect(
      sendableWithoutAsking({ ...state, mandate: { ...state.mandate, walkAwayTotal: ask } }, 'SUP-001', sequence),
    ).toBe(true);

    const autoSend = {
      ...ctx,
      workspace: { ...ctx.workspace, settings: { ...ctx.workspace.settings, autoSendToSuppliers: true } },
    };
    expect(await sendDraftsWithinMandate(autoSend, negotiationId)).toBe(1);
    expect(await sendDraftsWithinMandate(autoSend, negotiationId)).toBe(0); // sent once
    expect((await toSupplier()).map((row) => row.dedupeKey)).toContain(supplierMessageKey(negotiationId, sequence));
    const audit = await fixture.ws.auditLog.findFirstOrThrow({
      where: { entityId: negotiationId, action: 'negotiation.draft_sent' },
    });
    expect(audit).toMatchObject({ actorSlackUserId: BUYER, data: expect.objectContaining({ automatic: true }) });
    const card = await fixture.ws.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: `${draftKey(negotiationId, sequence)}:sent` },
    });
    expect(JSON.stringify(card.payload)).toContain('automatically');
  });

  it('is not expired as stale while the supplier’s reply-by time is ahead', async () => {
    const { negotiationId, negotiationSupplierId, sequence } = await waitingDraft(8);
    expect(await decideDraft(ctx, { negotiationId, sequence, decision: 'send', by: BUYER })).toMatchObject({
      ok: true,
    });
    const later = new Date(Date.now() + 30 * DAY_MS);
    const expire = () =>
      expirePausedNegotiations({ prisma: db.prisma, contexts: fixture.contexts, now: later, afterDays: 7 });
    const status = async () =>
      (await fixture.ws.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).status;
    // Extended past the expiry's 7 days: still waiting for the supplier.
    await fixture.ws.negotiationSupplier.update({
      where: { id: negotiationSupplierId },
      data: { replyBy: new Date(later.getTime() + DAY_MS) },
    });
    await expire();
    expect(await status()).toBe('paused');
    // Its reply-by time gone by too: stale, and expired like any paused negotiation.
    await fixture.ws.negotiationSupplier.update({
      where: { id: negotiationSupplierId },
      data: { replyBy: new Date(later.getTime() - DAY_MS) },
    });
    await expire();
    expect(await status()).toBe('expired');
  });

  it('edited, is sent as the buyer wrote it, and the history holds those words', async () => {
    const { negotiationId, sequence } = await waitingDraft(9);
    const editing = await draftForEditing(ctx, { negotiationId, sequence, by: BUYER });
    expect(editing).toMatchObject({ ok: true, value: { sequence, text: expect.any(String) } });
    const words = 'Thanks, Wei. Could you sharpen the shell jackets by 5% for a firm order this week?';
    expect(await decideDraft(ctx, { negotiationId, sequence, decision: 'send', text: words, by: BUYER })).toMatchObject(
      {
        ok: true,
        changed: true,
      },
    );
    const request = await fixture.ws.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: supplierMessageKey(negotiationId, sequence) },
    });
    expect(JSON.stringify(request.payload)).toContain(words);
    const { state } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(state.suppliers['SUP-001']?.messages.find((m) => m.sequence === sequence)?.text).toBe(words);
    const audits = await fixture.ws.auditLog.findMany({ where: { entityId: negotiationId } });
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['negotiation.draft_edited', 'negotiation.draft_sent']),
    );
    // Sent: nothing left to edit, and another edit sends nothing new.
    expect(await draftForEditing(ctx, { negotiationId, sequence, by: BUYER })).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    expect(
      await decideDraft(ctx, { negotiationId, sequence, decision: 'send', text: 'Something else', by: BUYER }),
    ).toMatchObject({ ok: true, changed: false });
    expect(await draftForEditing(ctx, { negotiationId, sequence, by: 'U0COLLEAG1' })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
  });

  it('sent by two clicks at once, is sent, timed and audited once', async () => {
    const { negotiationId, sequence } = await waitingDraft(10);
    const send = { negotiationId, sequence, decision: 'send' as const, by: BUYER };
    const results = await Promise.all([decideDraft(ctx, send), decideDraft(ctx, { ...send, by: APPROVERS[0] })]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(results.filter((result) => result.ok && result.changed)).toHaveLength(1);
    const audits = await fixture.ws.auditLog.findMany({
      where: { entityId: negotiationId, action: 'negotiation.draft_sent' },
    });
    expect(audits).toHaveLength(1);
  });

  it('is the buyer’s and the approvers’ to decide, and names a draft of this negotiation', async () => {
    const { negotiationId, sequence, toSupplier } = await waitingDraft(3);
    const before = (await toSupplier()).length;
    expect(await decideDraft(ctx, { negotiationId, sequence, decision: 'send', by: 'U0COLLEAG1' })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    expect(
      await decideDraft(ctx, { negotiationId, sequence: sequence + 500, decision: 'send', by: BUYER }),
    ).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    expect(await toSupplier()).toHaveLength(before);
  });
});
