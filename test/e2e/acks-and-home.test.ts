// Acks in time and what waits for people, through the real receiver and the stand-in: a click that opens a modal
// opens a loading view at once and replaces it (views.update, by id and hash); a refusal is said in that modal; the
// draft PO @-mentions the approvers, and the second approval only the approver still to act; the App Home lists past
// negotiations and purchase orders with links to their threads.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { openPoModal } from './po-modal.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, SLASH_COMMAND } from '../../src/slack/ids.js';

// Every PO needs two approvals here, so the second approval's mention can be seen.
const running = useSandboxedParley({
  env: { PO_DUAL_APPROVAL_ABOVE_USD: '1' },
  afterStart: async ({ parley, db }) => {
    // The two approvers, set as `/parley settings` stores them (whatever the install made the first one).
    const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
    const stored = typeof workspace.settings === 'object' && workspace.settings !== null ? workspace.settings : {};
    await db.prisma.workspace.update({
      where: { id: workspace.id },
      data: { settings: { ...stored, approvers: [PEOPLE.approver.id, PEOPLE.secondApprover.id] } },
    });
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    const story = await playStory(parley, { file: { name: 'acks.xlsx', bytes }, stopBeforeApproval: true });
    threadTs = story.threadTs;
  },
});
let threadTs = '';

const thread = () => running.parley.sandbox.model.thread(CHANNEL.id, threadTs);
const json = (value: unknown) => JSON.stringify(value);

describe('a modal opened from a click', () => {
  it('opens as a loading view at once, then becomes the PO modal in place (same view)', async () => {
    const modal = await openPoModal(running.parley, PEOPLE.approver.id, threadTs);
    expect(modal.history).toHaveLength(1);
    expect(json(modal.history[0])).toContain('Loading…');
    expect(json(modal.view)).toMatch(/PO-\d{4}-\d{4}/);
    expect(running.parley.sandbox.model.openViews(PEOPLE.approver.id)).toHaveLength(1);
    await running.parley.sandbox.driver.closeView(PEOPLE.approver.id, modal.id);
  });

  it('shows a refusal in the modal it opened, not in the channel', async () => {
    const { driver, model } = running.parley.sandbox;
    const before = model.ephemerals(PEOPLE.colleague.id).length;
    await driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'settings');
    const modal = await running.parley.sandbox.waitFor(
      () => model.openViews(PEOPLE.colleague.id).find((view) => view.history.length > 0),
      { what: 'the refusal in the modal' },
    );
    expect(json(modal.history[0])).toContain('Loading…');
    expect(json(modal.view)).toContain(':lock:');
    expect(modal.view.submit).toBeUndefined();
    expect(model.ephemerals(PEOPLE.colleague.id)).toHaveLength(before);
    await driver.closeView(PEOPLE.colleague.id, modal.id);
  });
});

describe('approver mentions', () => {
  it('the draft PO mentions every approver, in its blocks and its notification text', () => {
    const decision = thread().find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo));
    if (!decision) throw new Error('no decision');
    for (const approver of [PEOPLE.approver, PEOPLE.secondApprover]) {
      expect(decision.text).toContain(`<@${approver.id}>`);
      expect(json(decision.blocks)).toContain(`<@${approver.id}>`);
    }
    expect(decision.text).toContain('is waiting for your approval');
  });

  it('after the first approval, mentions only the approver still to act', async () => {
    const modal = await openPoModal(running.parley, PEOPLE.approver.id, threadTs);
    await running.parley.sandbox.driver.submitView(PEOPLE.approver.id, modal.id, {});
    await running.parley.settle();
    const waiting = thread().find((m) => /\(1 of 2\)/.test(m.text));
    if (!waiting) throw new Error('no message for the first approval');
    expect(waiting.text).toContain(`<@${PEOPLE.secondApprover.id}>`);
    expect(waiting.text).toContain('is waiting for your approval');
    expect(waiting.text).not.toContain(`<@${PEOPLE.approver.id}>:`);
    expect(waiting.text).not.toMatch(new RegExp(`<@${PEOPLE.approver.id}> and|and <@${PEOPLE.approver.id}>`));
  });
});

describe('the App Home', () => {
  it('lists the past negotiation and the approved PO with links to the thread', async () => {
    const modal = await openPoModal(running.parley, PEOPLE.secondApprover.id, threadTs);
    await running.parley.sandbox.driver.submitView(PEOPLE.secondApprover.id, modal.id, {});
    await running.parley.settle();
    const po = await running.db.prisma.purchaseOrder.findFirstOrThrow({ where: { status: 'approved' } });
    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow({ where: { id: po.negotiationId } });
    expect(negotiation.status).toBe('completed');

    const { driver, model } = running.parley.sandbox;
    await driver.openHome(PEOPLE.approver.id);
    const home = await running.parley.sandbox.waitFor(
      () => {
        const view = model.home(PEOPLE.approver.id);
        return view && json(view.view).includes('Past purchase orders') ? view : undefined;
      },
      { what: 'the Home tab with its history' },
    );
    const text = json(home.view);
    const link = `https://slack.com/archives/${CHANNEL.id}/p${threadTs.replace('.', '')}`;
    expect(text).toContain(`<${link}|acks.xlsx>`);
    expect(text).toContain('*Completed*');
    expect(text).toContain(`<${link}|${po.number}>`);
    expect(text).toContain('*Approved*');
  });
});
