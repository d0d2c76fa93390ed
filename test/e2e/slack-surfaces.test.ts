// The surfaces around the thread: the App Home (what waits for me), `/parley` help, status and settings.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { BLOCK, CALLBACK, SLASH_COMMAND } from '../../src/slack/ids.js';
import { resolveSettings } from '../../src/services/workspace/workspace-settings.js';

const running = useSandboxedParley({
  afterStart: async ({ parley }) => {
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    await playStory(parley, { file: { name: 'home.xlsx', bytes }, stopBeforeApproval: true });
  },
});

const viewText = (view: unknown) => JSON.stringify(view);

describe('the App Home', () => {
  it('shows an approver the PO waiting for them, with a link to the thread', async () => {
    const { driver, model } = running.parley.sandbox;
    await driver.openHome(PEOPLE.approver.id);
    const home = await running.parley.sandbox.waitFor(() => model.home(PEOPLE.approver.id), { what: 'the Home tab' });
    const po = await running.db.prisma.purchaseOrder.findFirstOrThrow({ where: { status: 'draft' } });
    expect(viewText(home.view)).toContain(po.number);
    expect(viewText(home.view)).toContain(`https://slack.com/archives/${CHANNEL.id}/p`);
  });

  it('shows a colleague no PO to approve', async () => {
    const { driver, model } = running.parley.sandbox;
    await driver.openHome(PEOPLE.colleague.id);
    const home = await running.parley.sandbox.waitFor(() => model.home(PEOPLE.colleague.id), { what: 'the Home tab' });
    expect(viewText(home.view)).not.toMatch(/PO-\d{4}-\d{4}/);
  });

  it('acknowledges the open before it publishes the Home: a publish Slack is slow to take comes after the answer', async () => {
    const { driver, model, faults } = running.parley.sandbox;
    const who = PEOPLE.secondApprover.id;
    // Slack holds the publish for 2 s. The listener used to publish before returning, so the receiver answered only
    // after it: the Home was there by the time the open was answered.
    faults.set('views.publish', { hangMs: 2_000 }, { times: 1 });
    try {
      const opened = await driver.openHome(who);
      expect(opened.status).toBe(200);
      expect(model.home(who)).toBeUndefined();
      const home = await running.parley.sandbox.waitFor(() => model.home(who), { what: 'the Home tab' });
      const po = await running.db.prisma.purchaseOrder.findFirstOrThrow({ where: { status: 'draft' } });
      expect(viewText(home.view)).toContain(po.number);
    } finally {
      faults.clear();
    }
  });
});

describe('/parley', () => {
  it('answers help and status privately, within the acknowledgement', async () => {
    const { driver } = running.parley.sandbox;
    const help = await driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'help');
    expect(help.status).toBe(200);
    expect(JSON.stringify(help.body)).toMatch(/negotiate/);
    const status = await driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'status');
    expect(JSON.stringify(status.body)).toContain('home.xlsx');
  });

  it('lets an approver change the settings and refuses a colleague', async () => {
    const { driver, model } = running.parley.sandbox;
    await driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'settings');
    // The modal opens at once (loading), and the refusal takes its place: nothing to submit.
    const refusal = await running.parley.sandbox.waitFor(
      () => model.openViews(PEOPLE.colleague.id).find((view) => /:lock: Only/.test(JSON.stringify(view.view))),
      { what: 'the refusal' },
    );
    expect(refusal.view.submit).toBeUndefined();
    await driver.closeView(PEOPLE.colleague.id, refusal.id);

    await driver.slashCommand(PEOPLE.approver.id, CHANNEL.id, SLASH_COMMAND, 'settings');
    const modal = await running.parley.sandbox.waitFor(
      () => model.openViews(PEOPLE.approver.id).find((view) => view.view.callback_id === CALLBACK.settingsModal),
      { what: 'settings' },
    );
    await driver.submitView(PEOPLE.approver.id, modal.id, { [BLOCK.settingsDualApproval]: '250000' });
    await running.parley.settle();
    const workspace = await running.db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
    const settings = resolveSettings(workspace.settings, running.parley.env);
    expect(settings.dualApprovalAboveUsd).toBe(250000);
    expect(settings.approvers).toEqual(expect.arrayContaining([PEOPLE.approver.id]));
  });
});

describe('the thread’s live status (assistant.threads.setStatus)', () => {
  it('says what runs while each agent or Claude call runs, and clears it after every call', async () => {
    const { model } = running.parley.sandbox;
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { fileName: 'home.xlsx' } });
    const threadTs = quotation.slackThreadTs ?? quotation.slackMessageTs;
    const changes = model.threadStatusLog.filter((s) => s.channel === CHANNEL.id && s.threadTs === threadTs);
    const shown = changes.map((s) => s.status);
    expect(shown).toContain("is waiting for RapidGear Co's reply…");
    expect(shown).toContain('is writing to RapidGear Co…');
    expect(shown).toContain('is scoring the offers and writing the recommendation…');
    // Every status is followed by its clearing, so none is left standing when the run stops.
    shown.forEach((status, i) => expect(status === '').toBe(i % 2 === 1));
    expect(model.threadStatus.has(`${CHANNEL.id}:${threadTs}`)).toBe(false);
  });
});
