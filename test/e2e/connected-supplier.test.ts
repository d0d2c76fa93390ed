// The quoting supplier as a real counterpart, end to end through the stand-in: an approver connects Ningbo Everbright
// to its Slack Connect channel; the buyer shares Ningbo's quotation and starts. Each message Alex writes to Ningbo is a
// draft in the buyer's thread; the buyer sends it; a person of Ningbo's own organisation answers it in Ningbo's channel
// with Submit offer, 2% under their last price each round. What they submit is what is recorded; the channel shows no
// other supplier and no mandate figure; nobody but Ningbo's people can open or submit the form.
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import type { SandboxView } from '../../dev/slack-stand-in/model.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import { loadCheckpoint } from '../../src/db/stores/negotiation-store.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { ACTION, CALLBACK } from '../../src/slack/ids.js';
import {
  addSupplierOrganisation,
  NINGBO,
  playConnectSupplier,
  SHARED_CHANNEL,
  twoPercentLess,
  WEI,
  WEI_WORDS,
  weiAnswering,
} from '../../dev/slack-stand-in/supplier-org.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);
const SHARED = SHARED_CHANNEL;

const running = useSandboxedParley({
  afterStart: async ({ db, parley }) => {
    await db.prisma.workspace.update({
      where: { slackTeamId: TEAM_ID },
      data: { settings: { approvers: [PEOPLE.approver.id, PEOPLE.secondApprover.id] } },
    });
    addSupplierOrganisation(parley.sandbox.model, [PEOPLE.approver.id, PEOPLE.buyer.id]);
  },
});

describe('negotiating with a connected supplier', () => {
  it('sends only what the buyer sent, records what the supplier submitted, and keeps the channel discreet', async () => {
    const { sandbox } = running.parley;
    const { model } = sandbox;
    // The approver connects Ningbo to its shared channel.
    await playConnectSupplier(running.parley, PEOPLE.approver.id, CHANNEL.id);

    const submitted: SandboxView[] = [];
    const story = await playStory(running.parley, {
      file: { name: 'ningbo-quote.xlsx', bytes: await readFile(SAMPLE) },
      suppliers: [
        weiAnswering((form) => {
          submitted.push(form);
          return twoPercentLess(form);
        }),
      ],
    });
    expect(story.actions.some((action) => /clicks \[Send to the supplier\]/.test(action))).toBe(true);
    expect(submitted.length).toBeGreaterThan(0);

    // Recorded as submitted: Ningbo's offers after its quotation are each 2% under the one before, to the cent.
    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow();
    expect(negotiation.status).toBe('completed');
    const ws = scopeToWorkspace(running.db.prisma, negotiation.workspaceId);
    const { state } = await loadCheckpoint(ws, negotiation.id);
    expect(state.profiles[0]).toMatchObject({ name: NINGBO, counterpart: 'connected' });
    const offers = state.suppliers['SUP-001']?.offers ?? [];
    expect(offers.length).toBe(submitted.length + 1);
    for (let i = 1; i < offers.length; i++) {
      const before = new Map(offers[i - 1]?.lines.map((line) => [line.sku, line.unitPrice]));
      for (const line of offers[i]?.lines ?? []) {
        expect(line.unitPrice, line.sku).toBe(Math.round((before.get(line.sku) ?? 0) * 98) / 100);
      }
      expect(offers[i]).toMatchObject({ leadTimeDays: 40, paymentTerms: '30/70' });
    }

    // Ningbo's channel: the thread Parley started and each request sent, and nothing of the other suppliers or mandate.
    const channel = JSON.stringify(model.messages(SHARED.id).map((m) => [m.text, m.blocks]));
    expect(channel).toContain('an AI agent negotiating for');
    for (const other of SIMULATED_SUPPLIERS) expect(channel).not.toContain(other.name);
    expect(channel).not.toMatch(/walk-away|target total|score/i);

    // Every draft in the buyer's thread was decided, as the buyer's click said; Ningbo's words are its people's.
    const thread = model.thread(CHANNEL.id, story.threadTs);
    const transcript = sandbox.renderThread(CHANNEL.id, story.threadTs);
    expect(transcript).toContain(`*${NINGBO}:* Offer submitted through the form.`);
    expect(transcript).not.toContain(`${NINGBO} (simulated)`);
    // The PO stands on the supplier's own last offer: each line at the price Wei submitted.
    const last = new Map(offers.at(-1)?.lines.map((line) => [line.sku, line.unitPrice]));
    const items = await running.db.prisma.purchaseOrderItem.findMany();
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(Number(item.unitPrice), item.sku).toBe(last.get(item.sku));
    expect(thread.some((m) => buttonsIn(m).some((b) => b.actionId === ACTION.draftSend))).toBe(false);
    expect(JSON.stringify(thread.map((m) => m.blocks))).toContain('Sent to');

    // Wei's words: kept, passed to the buyer in the thread, and answered in Ningbo's thread with Submit offer.
    expect(transcript).toContain(WEI_WORDS);
    const words = await running.db.prisma.threadReply.findMany({ where: { outcome: 'supplier_words' } });
    expect(words).toMatchObject([{ userId: WEI.id, text: WEI_WORDS, channelId: SHARED.id }]);
    const noted = model.messages(SHARED.id).find((m) => m.text === 'Your message was passed to the buyer');
    expect(noted && buttonsIn(noted).map((b) => b.actionId)).toEqual([ACTION.offerOpen]);

    // The approved PO went to Ningbo's thread with its own lines, and Wei accepted it: recorded, audited, shown.
    const allocation = await running.db.prisma.purchaseOrderAllocation.findFirstOrThrow({
      where: { supplier: { name: NINGBO } },
    });
    expect(allocation).toMatchObject({ acceptedBySlackUserId: WEI.id });
    expect(allocation.acceptedAt).toBeInstanceOf(Date);
    const audit = await running.db.prisma.auditLog.findMany({
      where: { action: 'purchase_order.accepted_by_supplier' },
    });
    expect(audit).toMatchObject([{ actorSlackUserId: WEI.id }]);
    const po = model.messages(SHARED.id).find((m) => /PO-\d{4}-\d{4}/.test(m.text ?? ''));
    if (!po) throw new Error('no PO in the supplier’s channel');
    expect(JSON.stringify(po.blocks)).toContain('Accepted by');
    expect(buttonsIn(po)).toEqual([]);
    expect(sandbox.renderThread(CHANNEL.id, story.threadTs)).toMatch(/accepted PO-\d{4}-\d{4}/);
    const card = model.thread(CHANNEL.id, story.threadTs).find((m) => /approved/.test(JSON.stringify(m.blocks)));
    expect(JSON.stringify(card?.blocks ?? null)).toContain(`Accepted by ${NINGBO}`);

    // Still discreet once the PO is in: no other supplier, no mandate figure, no landed-cost assumption.
    const after = JSON.stringify(model.messages(SHARED.id).map((m) => [m.text, m.blocks]));
    for (const other of SIMULATED_SUPPLIERS) expect(after).not.toContain(other.name);
    expect(after).not.toMatch(/walk-away|target total|score|landed|freight|duty/i);

    const { calls } = model;
    expect(calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  }, 300_000);

  it('reads a revised quotation Wei shares in the thread as his offer, and records it only once he submits it', async () => {
    const { sandbox } = running.parley;
    const proposals: string[] = [];
    const story = await playStory(running.parley, {
      file: { name: 'ningbo-quote-2.xlsx', bytes: await readFile(SAMPLE) },
      suppliers: [
        {
          ...weiAnswering(),
          writesFirst: undefined,
          acceptsPo: false,
          sharesFile: async (round) => {
            if (round !== 1) return null;
            const negotiation = await running.db.prisma.negotiation.findFirstOrThrow({
              orderBy: { createdAt: 'desc' },
            });
            const ws = scopeToWorkspace(running.db.prisma, negotiation.workspaceId);
            const { state } = await loadCheckpoint(ws, negotiation.id);
            return { name: 'ningbo-revised.xlsx', bytes: await revisedQuotation(state.baseline.lines) };
          },
        },
      ],
      stopBeforeApproval: true,
    });
    expect(story.actions.join('\n')).toContain('shares ningbo-revised.xlsx in their thread');
    for (const m of sandbox.model.messages(SHARED.id)) {
      if (/read .*ningbo-revised\.xlsx/.test(JSON.stringify(m.blocks))) proposals.push(JSON.stringify(m.blocks));
    }
    // The status card became the proposal, and once submitted says so, with no button left.
    expect(proposals).toHaveLength(1);
    expect(proposals[0]).toContain('Submitted by <@U0WEI00001>');
    expect(proposals[0]).not.toContain(ACTION.offerFileSubmit);

    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
    const ws = scopeToWorkspace(running.db.prisma, negotiation.workspaceId);
    const { state } = await loadCheckpoint(ws, negotiation.id);
    const [quote, fromFile] = state.suppliers['SUP-001']?.offers ?? [];
    // Exactly the file's figures: every line 5% under the quotation, to the cent, the file's lead time and terms.
    expect(fromFile?.round).toBe(1);
    expect(fromFile?.lines.map((line) => [line.sku, line.unitPrice])).toEqual(
      quote?.lines.map((line) => [line.sku, fivePercentLess(line.unitPrice)]),
    );
    expect(fromFile).toMatchObject({ leadTimeDays: 35, paymentTerms: '30/70' });
    const file = await running.db.prisma.quotation.findFirstOrThrow({ where: { fileName: 'ningbo-revised.xlsx' } });
    expect(file).toMatchObject({ status: 'completed', offerRound: 1, uploadedBySlackUserId: WEI.id });
    // Nothing of the revised file became a quotation of the brand's: no lines, no review, no negotiation of its own.
    expect(await running.db.prisma.quotationItem.count({ where: { quotationId: file.id } })).toBe(0);
    expect(await running.db.prisma.negotiation.count({ where: { quotationId: file.id } })).toBe(0);
  }, 300_000);

  it('opens the offer form to nobody but the supplier’s own people', async () => {
    const { sandbox } = running.parley;
    const { driver, model } = sandbox;
    const request = model
      .messages(SHARED.id)
      .flatMap((message) => buttonsIn(message).map((button) => ({ message, button })))
      .find(({ button }) => button.actionId === ACTION.offerOpen);
    if (!request) throw new Error('no request in the supplier’s channel');
    // The buyer, in the same shared channel: of the brand, not of Ningbo.
    await driver.clickButton(PEOPLE.buyer.id, { channel: SHARED.id, ts: request.message.ts }, ACTION.offerOpen, {
      value: request.button.value,
    });
    const shown = await sandbox.waitFor(
      () => model.openViews(PEOPLE.buyer.id).find((view) => /Only people of/.test(JSON.stringify(view.view))),
      { what: 'the refusal in the buyer’s modal' },
    );
    expect(JSON.stringify(shown.view)).not.toContain(CALLBACK.offerModal);

    // The brand's own people writing in the supplier's thread talk to the supplier: nothing is recorded for Ningbo.
    const before = await running.db.prisma.threadReply.count({ where: { outcome: 'supplier_words' } });
    await driver.replyInThread(PEOPLE.buyer.id, SHARED.id, request.message.threadTs ?? request.message.ts, 'Hi Wei!');
    await running.parley.settle();
    expect(await running.db.prisma.threadReply.count({ where: { outcome: 'supplier_words' } })).toBe(before);
    expect(await running.db.prisma.threadReply.count({ where: { text: 'Hi Wei!', outcome: 'not_addressed' } })).toBe(1);

    // A file Wei shares outside a negotiation's thread is no offer, and no quotation of the brand's: not read.
    await driver.shareFile(WEI.id, SHARED.id, { name: 'price-list.xlsx', bytes: await readFile(SAMPLE) });
    await running.parley.settle();
    expect(await running.db.prisma.quotation.count({ where: { fileName: 'price-list.xlsx' } })).toBe(0);

    // Once accepted, the PO in Ningbo's channel has no buttons left to press, for anyone.
    const po = model
      .messages(SHARED.id)
      .flatMap((message) => buttonsIn(message).map((button) => ({ message, button })))
      .find(({ button }) => button.actionId === ACTION.poSupplierAccept);
    expect(po).toBeUndefined();
  }, 60_000);
});

const fivePercentLess = (price: number) => Math.round(price * 95) / 100;

/** Wei's revised quotation: his terms above the table, each requested line 5% under the quote, and a freight line. */
async function revisedQuotation(
  lines: readonly { sku: string; description: string; quantity: number; unitPrice: number }[],
) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Revised quotation');
  sheet.addRow(['Ningbo Everbright Garments Co., Ltd. — revised quotation']);
  sheet.addRow(['Lead time: 35 days']);
  sheet.addRow(['Payment terms: 30% deposit, 70% before shipment']);
  sheet.addRow([]);
  sheet.addRow(['Item No.', 'Description', 'Qty', 'Unit Price (USD)', 'Amount (USD)']);
  for (const line of lines) {
    const price = fivePercentLess(line.unitPrice);
    sheet.addRow([line.sku, line.description, line.quantity, price, Math.round(price * line.quantity * 100) / 100]);
  }
  sheet.addRow(['FRT-01', 'Sea freight to Rotterdam', 1, 850, 850]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
