// What must not happen, through the stand-in and the real Bolt receiver: forged or stale requests, the same upload
// counted twice, a corrupt file half-read, someone else's click changing anything, a double approval, a message lost
// or doubled when Slack rate-limits.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, CALLBACK } from '../../src/slack/ids.js';
import type { WorkspaceDb } from '../../src/db/scoped.js';
import { approvePurchaseOrder } from '../../src/services/purchase-order/approve-purchase-order.js';
import { createContextFactory, type ServiceContext } from '../../src/services/service-context.js';

const sample = (name: string) => readFile(new URL(`../../data/samples/${name}`, import.meta.url));

const running = useSandboxedParley();

const threadOf = (ts: string) => running.parley.sandbox.model.thread(CHANNEL.id, ts);

/** The approver clicks the decision's "Review and approve PO" and waits for the modal. */
async function openPoModal(threadTs: string) {
  const { driver, model } = running.parley.sandbox;
  const decision = threadOf(threadTs).find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo));
  const open = decision && buttonsIn(decision).find((b) => b.actionId === ACTION.decisionOpenPo);
  if (!decision || !open) throw new Error('no decision');
  await driver.clickButton(PEOPLE.approver.id, { channel: CHANNEL.id, ts: decision.ts }, open.actionId, {
    value: open.value,
  });
  return running.parley.sandbox.waitFor(
    () => model.openViews(PEOPLE.approver.id).find((view) => view.view.callback_id === CALLBACK.poModal),
    { what: 'the PO modal' },
  );
}
/**
 * The workspace's database as a process that dies after writing the change but before writing its messages: inside
 * every transaction, the first outbox write fails (the transaction is then rolled back, as a crash would leave it).
 */
function dyingBeforeItsMessages(db: WorkspaceDb): WorkspaceDb {
  const dyingTx = (tx: object) =>
    new Proxy(tx, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (property !== 'slackOutbox') return value;
        return { createMany: () => Promise.reject(new Error('the process died')) };
      },
    });
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property !== '$transaction' || typeof value !== 'function') return value;
      return (work: (tx: object) => Promise<unknown>, ...rest: unknown[]): unknown =>
        Reflect.apply(value, target, [(tx: object) => work(dyingTx(tx)), ...rest]);
    },
  });
}
const statusCards = (ts: string) => threadOf(ts).filter((m) => m.botId && /shared by/.test(JSON.stringify(m.blocks)));

describe('requests Slack did not sign', () => {
  it('rejects a bad signature and a stale timestamp, and nothing is created', async () => {
    const event = { type: 'file_shared', file_id: 'F0FORGED01', channel_id: CHANNEL.id, user_id: PEOPLE.buyer.id };
    const forged = await running.parley.sandbox.driver.sendEvent(event, { badSignature: true });
    const stale = await running.parley.sandbox.driver.sendEvent(event, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(forged.status).toBe(401);
    expect(stale.status).toBe(401);
    await running.parley.settle();
    expect(await running.db.prisma.quotation.count({ where: { slackFileId: 'F0FORGED01' } })).toBe(0);
  });
});

describe('the same upload delivered several times', () => {
  it('creates one quotation and one status card', async () => {
    const { driver } = running.parley.sandbox;
    const shared = await driver.shareFile(
      PEOPLE.buyer.id,
      CHANNEL.id,
      { name: 'twice.xlsx', bytes: await sample('01-clean-baseline.xlsx') },
      { order: 'concurrent' },
    );
    // Slack retries the event it thinks was not acknowledged.
    await driver.retry(shared.message, { retryNum: 1, retryReason: 'http_timeout' });
    await running.parley.settle();
    const file = threadOf(shared.ts)[0]?.fileIds[0];
    expect(await running.db.prisma.quotation.count({ where: { slackFileId: file } })).toBe(1);
    expect(statusCards(shared.ts)).toHaveLength(1);
    expect(
      running.parley.sandbox.model.reactions(CHANNEL.id, shared.ts).find((r) => r.name === 'eyes')?.users,
    ).toHaveLength(1);
  });
});

describe('a file Parley cannot read', () => {
  it('gets a clear reply, a failed status card and no lines', async () => {
    const shared = await running.parley.sandbox.driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
      name: 'quote.xlsx',
      bytes: Buffer.from('PK\u0003\u0004 this is not really a workbook'),
    });
    await running.parley.settle();
    const text = running.parley.sandbox.renderThread(CHANNEL.id, shared.ts);
    expect(text).toMatch(/couldn't read quote\.xlsx/);
    expect(JSON.stringify(statusCards(shared.ts)[0]?.blocks)).toMatch(/could(n't| not)|fail/i);
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: shared.ts } });
    expect(quotation.status).toBe('failed');
    expect(quotation.errorCode).toBe('corrupt');
    expect(await running.db.prisma.quotationItem.count({ where: { quotationId: quotation.id } })).toBe(0);
  });
});

describe('clicks by someone who may not act', () => {
  it('are refused privately and change nothing', async () => {
    const { driver, model } = running.parley.sandbox;
    const shared = await driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
      name: 'ocr.xlsx',
      bytes: await sample('10-ocr-sku-errors-custom-items.xlsx'),
    });
    await running.parley.settle();
    // Found by its line buttons: "Confirm all" is offered only when it would confirm something (issue 16), and this
    // file's open lines are custom items the matcher is unsure of.
    const review = threadOf(shared.ts).find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.reviewNotInCatalog));
    if (!review) throw new Error('no review message');
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: shared.ts } });
    const before = await running.db.prisma.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { id: 'asc' },
    });

    for (const actionId of [ACTION.reviewConfirmAll, ACTION.reviewSupplierCreate, ACTION.reviewNotInCatalog]) {
      const button = buttonsIn(review).find((b) => b.actionId === actionId);
      if (!button) continue;
      const response = await driver.clickButton(PEOPLE.colleague.id, { channel: CHANNEL.id, ts: review.ts }, actionId, {
        value: button.value,
      });
      expect(response.status).toBe(200);
      await running.parley.settle();
    }
    const refusals = model.ephemerals(PEOPLE.colleague.id);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((e) => /Only <@U0MAYA0001>/.test(e.text))).toBe(true);
    const after = await running.db.prisma.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { id: 'asc' },
    });
    expect(after.map((i) => [i.reviewState, i.productId])).toEqual(before.map((i) => [i.reviewState, i.productId]));
    expect(
      (await running.db.prisma.quotation.findUniqueOrThrow({ where: { id: quotation.id } })).supplierId,
    ).toBeNull();
  });
});

describe('an approver who clicks Approve twice', () => {
  it('approves once', async () => {
    const { driver } = running.parley.sandbox;
    const story = await playStory(running.parley, {
      file: { name: 'double.xlsx', bytes: await sample('01-clean-baseline.xlsx') },
      stopBeforeApproval: true,
    });
    const openModal = () => openPoModal(story.threadTs);
    const first = await openModal();
    await Promise.all(
      [driver.submitView(PEOPLE.approver.id, first.id, {}), driver.submitView(PEOPLE.approver.id, first.id, {})].map(
        (p) => p.catch(() => null),
      ),
    );
    await running.parley.settle();
    const second = await openModal();
    await driver.submitView(PEOPLE.approver.id, second.id, {});
    await running.parley.settle();

    const quotation = await running.db.prisma.quotation.findFirstOrThrow({
      where: { slackThreadTs: story.threadTs },
      include: { negotiation: { include: { purchaseOrders: { include: { approvals: true } } } } },
    });
    const po = quotation.negotiation?.purchaseOrders.find((p) => p.status !== 'superseded');
    expect(po?.approvals.map((a) => a.approverSlackUserId)).toEqual([PEOPLE.approver.id]);
    const confirmations = threadOf(story.threadTs).filter((m) => /approved by/.test(m.text));
    expect(confirmations).toHaveLength(1);
  }, 120_000);
});

describe('an approval whose process died before writing its messages', () => {
  it('is not recorded either (one transaction); the approver’s next submission records and tells it once', async () => {
    const { driver } = running.parley.sandbox;
    const story = await playStory(running.parley, {
      file: { name: 'crashed-approval.xlsx', bytes: await sample('01-clean-baseline.xlsx') },
      stopBeforeApproval: true,
    });
    const modal = await openPoModal(story.threadTs);

    // The first submission's process dies between recording the approval and writing the thread's messages.
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({
      where: { slackThreadTs: story.threadTs },
      include: { negotiation: { include: { purchaseOrders: true } } },
    });
    const po = quotation.negotiation?.purchaseOrders.find((p) => p.status === 'draft');
    if (!po) throw new Error('no draft PO');
    const contexts = createContextFactory({ prisma: running.db.prisma, env: running.parley.env, llm: null });
    const ctx = await contexts.forWorkspace(quotation.workspaceId);
    if (!ctx) throw new Error('no workspace');
    const dying: ServiceContext = { ...ctx, db: dyingBeforeItsMessages(ctx.db) };
    const committed = approvePurchaseOrder(dying, {
      purchaseOrderId: po.id,
      by: PEOPLE.approver.id,
      expectedVersion: po.version,
    });
    await expect(committed).rejects.toThrow('the process died');
    expect(await running.db.prisma.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } })).toBe(0);
    await running.parley.settle();
    const confirmations = () => threadOf(story.threadTs).filter((m) => /approved by/.test(m.text));
    expect(confirmations()).toHaveLength(0);

    // No answer came back, so the approver submits the same modal again: the approval is recorded once, and told.
    await driver.submitView(PEOPLE.approver.id, modal.id, {});
    await running.parley.settle();
    expect(confirmations()).toHaveLength(1);
    const approvals = await running.db.prisma.purchaseOrderApproval.count({ where: { purchaseOrderId: po.id } });
    expect(approvals).toBe(1);
  }, 120_000);
});

describe('Slack answering 429', () => {
  it('retries after Retry-After and the message arrives once', async () => {
    const { driver, model, faults } = running.parley.sandbox;
    faults.set('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, { times: 1 });
    const shared = await driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
      name: 'ratelimited.xlsx',
      bytes: await sample('01-clean-baseline.xlsx'),
    });
    await running.parley.settle();
    faults.clear();
    const limited = model.calls.filter((c) => c.method === 'chat.postMessage' && c.status === 429);
    expect(limited).toHaveLength(1);
    expect(statusCards(shared.ts)).toHaveLength(1);
    const keys = threadOf(shared.ts).flatMap((m) => (m.metadata ? [JSON.stringify(m.metadata)] : []));
    expect(new Set(keys).size).toBe(keys.length);
  }, 60_000);
});
