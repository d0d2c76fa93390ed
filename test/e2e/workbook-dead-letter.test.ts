// A workbook job that used up its retries (pg-boss's dead-letter queue) is told to its thread, once, escaped: the PO
// workbook's says the PO itself is approved and stands, the review workbook's says to download again. Before, the
// dead letter was only logged and the person waited for a file that never came. Here the workbooks cannot be written
// at all; the dead letter is handed to Parley's handler as pg-boss hands it over (that pg-boss moves a job past its
// retries to that queue is src/outbox/send-outbox-jobs.db.test.ts's), twice, as a redelivery would.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { SEND_PO_WORKBOOK, SEND_REVIEW_WORKBOOK, type JobHandlers } from '../../src/jobs/background-work.js';
import { queueUnqueuedWork } from '../../src/jobs/queue-unqueued-work.js';
import { approvePurchaseOrder } from '../../src/services/purchase-order/approve-purchase-order.js';
import { type Compute, computeInProcess } from '../../src/worker/compute.js';

/** Workbooks that can never be written: every attempt of their jobs fails. */
const broken: Compute = {
  ...computeInProcess,
  purchaseOrderWorkbook: () => Promise.reject(new Error('the workbook writer is broken')),
  reviewWorkbook: () => Promise.reject(new Error('the workbook writer is broken')),
};

let threadTs = '';
const running = useSandboxedParley({
  compute: broken,
  env: { PO_DUAL_APPROVAL_ABOVE_USD: '1000000000' },
  afterStart: async ({ parley }) => {
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    threadTs = (await playStory(parley, { file: { name: 'dead.xlsx', bytes }, stopBeforeApproval: true })).threadTs;
  },
});

const botPosts = () =>
  running.parley.sandbox.model.thread(CHANNEL.id, threadTs).filter((m) => m.botId !== undefined && m.ts !== threadTs);
const saying = (words: string) => botPosts().filter((m) => JSON.stringify([m.text, m.blocks]).includes(words));

async function deadLetter(queue: string, data: object, id: string) {
  const jobs: JobHandlers = running.parley.server.parley.jobs;
  await jobs.deadLetter?.({ queue, data, id, retryCount: 12 });
  await running.parley.settle();
}

describe('a workbook job that failed for good', () => {
  it('tells the PO thread once that the workbook could not be made and the PO stands', async () => {
    const ctx = await running.parley.server.parley.context(TEAM_ID);
    if (!ctx) throw new Error('no workspace');
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: threadTs } });
    const drafted = await running.db.prisma.purchaseOrder.findFirstOrThrow({
      where: { negotiation: { quotationId: quotation.id }, status: { not: 'superseded' } },
    });
    const approved = await approvePurchaseOrder(ctx, {
      purchaseOrderId: drafted.id,
      by: PEOPLE.approver.id,
      expectedVersion: drafted.version,
    });
    expect(approved).toMatchObject({ ok: true, value: { po: { status: 'approved' } } });
    await running.parley.settle();

    const job = { workspaceId: ctx.workspace.id, purchaseOrderId: drafted.id };
    await deadLetter(SEND_PO_WORKBOOK, job, 'po-job-1');
    const told = saying('could not be made');
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(`The workbook of ${drafted.number} could not be made`);
    expect(told[0]?.text).toContain(`${drafted.number} itself is approved and stands`);
    // A redelivered dead letter, or a second job of the same PO that died too, says nothing more.
    await deadLetter(SEND_PO_WORKBOOK, job, 'po-job-1');
    await deadLetter(SEND_PO_WORKBOOK, job, 'po-job-2');
    expect(saying('could not be made')).toHaveLength(1);

    // The sweep does not queue a workbook that failed for good again (it would fail again, and the thread was told).
    const sweep = await queueUnqueuedWork({
      prisma: running.db.prisma,
      now: new Date(Date.now() + 60_000),
      work: {
        driveUnqueued: async () => 0,
        readUnqueued: async () => 0,
        sendOutboxUnqueued: async () => 0,
        sendPurchaseOrderWorkbookUnqueued: async (jobs) => jobs.length,
      },
    });
    expect(sweep.workbooksQueued).toBe(0);
  }, 120_000);

  it('tells the quotation thread, escaped, once per failed request, to download the lines again', async () => {
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: threadTs } });
    // The file's name is the sharer's text.
    await running.db.prisma.quotation.update({
      where: { id: quotation.id },
      data: { fileName: '<!channel> *urgent* & <https://evil.example|quote>.xlsx' },
    });
    const job = { workspaceId: quotation.workspaceId, quotationId: quotation.id };
    await deadLetter(SEND_REVIEW_WORKBOOK, job, 'review-job-1');
    const told = saying('The review workbook of');
    expect(told).toHaveLength(1);
    const shown = JSON.stringify([told[0]?.text, told[0]?.blocks]);
    expect(shown).toContain('Download all lines');
    expect(shown).toContain('&lt;!channel&gt;');
    expect(shown).not.toContain('<!channel>');
    expect(shown).not.toContain('<https://evil.example');

    await deadLetter(SEND_REVIEW_WORKBOOK, job, 'review-job-1');
    expect(saying('The review workbook of')).toHaveLength(1);
    // A later click whose job failed too is a new request: told again.
    await deadLetter(SEND_REVIEW_WORKBOOK, job, 'review-job-2');
    expect(saying('The review workbook of')).toHaveLength(2);
  }, 120_000);
});
