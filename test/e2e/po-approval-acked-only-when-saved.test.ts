// Issue 15, defect 1, for the PO approval modal, through the real receiver and the stand-in: an approval that cannot be
// saved (the approvals table renamed away: a real fault) must not close the modal as if it were done. The submission is
// answered with a notice pushed over the PO modal ("did not go through", with a reference), the PO modal stays open
// under it, nothing is approved and nothing is told in the thread; submitting again once the database is back
// records the approval. Before the change the modal closed silently and the approval was lost. And what the buyer did
// in the story (review clicks, answers, the early-termination choice) is in the audit log.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { openPoModal } from './po-modal.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';

let threadTs = '';
let storyActions: string[] = [];
const running = useSandboxedParley({
  afterStart: async ({ parley }) => {
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    const story = await playStory(parley, { file: { name: 'outage.xlsx', bytes }, stopBeforeApproval: true });
    threadTs = story.threadTs;
    storyActions = story.actions;
  },
});

async function approvalsTable(rename: 'away' | 'back'): Promise<void> {
  const [from, to] =
    rename === 'away'
      ? ['PurchaseOrderApproval', 'PurchaseOrderApproval_outage']
      : ['PurchaseOrderApproval_outage', 'PurchaseOrderApproval'];
  await running.db.prisma.$executeRawUnsafe(`ALTER TABLE "${from}" RENAME TO "${to}"`);
}

describe('a PO approval that cannot be saved', () => {
  it('keeps the modal open with a notice over it; submitting again once the database is back records it', async () => {
    const { driver, model } = running.parley.sandbox;
    const approver = PEOPLE.approver.id;
    const modal = await openPoModal(running.parley, approver, threadTs);
    const threadBefore = model.thread(CHANNEL.id, threadTs).length;

    await approvalsTable('away');
    let failed;
    try {
      failed = await driver.submitView(approver, modal.id, {});
    } finally {
      await approvalsTable('back');
    }
    expect(failed.status).toBe(200);
    expect(failed.responseAction).toBe('push');
    const stack = model.openViews(approver);
    expect(stack.map((v) => v.id)[0]).toBe(modal.id);
    expect(JSON.stringify(stack.at(-1)?.view)).toMatch(
      /did not go through \(ref `[0-9a-f]{8}`\)\. Please submit again/,
    );
    expect(await running.db.prisma.purchaseOrder.count({ where: { status: 'approved' } })).toBe(0);
    expect(await running.db.prisma.purchaseOrderApproval.count()).toBe(0);
    expect(await running.db.prisma.slackOutbox.count({ where: { dedupeKey: { contains: ':approval:' } } })).toBe(0);
    expect(model.thread(CHANNEL.id, threadTs)).toHaveLength(threadBefore);

    // The person closes the notice and presses Approve again on the PO modal under it.
    const notice = stack.at(-1);
    if (notice && notice.id !== modal.id) await driver.closeView(approver, notice.id);
    const again = await driver.submitView(approver, modal.id, {});
    expect(again.status).toBe(200);
    expect(again.responseAction).toBe('close');
    // Recorded once (the PO may need a second approver, depending on its amount), and the thread is told.
    expect(await running.db.prisma.purchaseOrderApproval.count({ where: { approverSlackUserId: approver } })).toBe(1);
    expect(await running.db.prisma.slackOutbox.count({ where: { dedupeKey: { contains: ':approval:' } } })).toBe(1);
  }, 120_000);
});

describe('what the buyer did in the story', () => {
  it('is in the audit log, each once, by the buyer: review clicks, answers and the early-termination choice', async () => {
    const entries = await running.db.prisma.auditLog.findMany({ where: { actorSlackUserId: PEOPLE.buyer.id } });
    const count = (...actions: string[]) => entries.filter((e) => actions.includes(e.action)).length;
    const clicks = (pattern: RegExp) => storyActions.filter((a) => /clicks \[/.test(a) && pattern.test(a)).length;
    expect(clicks(/in the review/)).toBeGreaterThan(0);
    expect(
      count(
        'quotation.supplier_chosen',
        'quotation.suggestions_confirmed',
        'quotation_item.match_confirmed',
        'quotation_item.not_in_catalog',
      ),
    ).toBe(clicks(/in the review/));
    // Every other click of the buyer's (the start aside) answered a question or the early-termination offer.
    const answers = clicks(/^(?!.*(in the review|Start negotiation|Next|Prev)).*$/);
    expect(answers).toBeGreaterThan(0);
    expect(count('negotiation.question_answered', 'negotiation.early_termination_decided')).toBe(answers);
  });
});
