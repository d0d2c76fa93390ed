// The buyer's Send and Skip on Alex's drafts for a connected supplier, on a real database: nothing is written for the
// supplier's channel before Send; Send writes the request there once, Skip closes the round for the supplier; each is
// decided once and only by the people who may work on the quotation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../db/stores/negotiation-store.js';
import { draftKey, supplierMessageKey } from '../../thread/thread.js';
import { APPROVERS, BUYER, createJobsFixture } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { ServiceContext } from '../service-context.js';
import { decideDraft } from './supplier-drafts.js';

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
    const send = { negotiationId, sequence, send: true, by: BUYER };
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
    expect(await decideDraft(ctx, { ...send, send: false })).toMatchObject({ ok: false, error: 'conflict' });
    const audits = await fixture.ws.auditLog.findMany({
      where: { entityId: negotiationId, action: 'negotiation.draft_sent' },
    });
    expect(audits.map((a) => a.actorSlackUserId)).toEqual([BUYER]);
  });

  it('skipped, sends nothing and closes the round for the supplier; then Send is refused', async () => {
    const { negotiationId, sequence, toSupplier } = await waitingDraft(2);
    const before = (await toSupplier()).length;
    const skip = { negotiationId, sequence, send: false, by: APPROVERS[0] };
    expect(await decideDraft(ctx, skip)).toMatchObject({ ok: true, changed: true, value: { resume: true } });
    const { state } = await loadCheckpoint(fixture.ws, negotiationId);
    expect(state.suppliers['SUP-001']?.awaitingReply).toBe(false);
    expect(state.status).toBe('running');
    expect(await decideDraft(ctx, { ...skip, send: true })).toMatchObject({ ok: false, error: 'conflict' });
    expect(await toSupplier()).toHaveLength(before);
  });

  it('is the buyer’s and the approvers’ to decide, and names a draft of this negotiation', async () => {
    const { negotiationId, sequence, toSupplier } = await waitingDraft(3);
    const before = (await toSupplier()).length;
    expect(await decideDraft(ctx, { negotiationId, sequence, send: true, by: 'U0COLLEAG1' })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    expect(await decideDraft(ctx, { negotiationId, sequence: sequence + 500, send: true, by: BUYER })).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    expect(await toSupplier()).toHaveLength(before);
  });
});
