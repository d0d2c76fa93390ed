// A supplier connected through Slack: an approver runs `/parley suppliers`, names the supplier and picks the Slack
// Connect channel shared with its organisation; Parley checks the channel with conversations.info, records the
// supplier's organisation and welcomes it there. The supplier's organisation leaving the channel (channel_unshared)
// loses the connection, its return (channel_shared) restores it. A colleague, and an admin of the supplier's own
// workspace, are refused in the modal, and a channel that is not shared is refused under the channel field. Every
// Web API call passes the call-log checker.
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { BLOCK, CALLBACK, SLASH_COMMAND } from '../../src/slack/ids.js';

const SUPPLIER_TEAM = 'T0NINGBO01';
const SUPPLIER_PERSON = {
  id: 'U0WEI00001',
  name: 'wei',
  realName: 'Wei Zhang',
  isBot: false,
  teamId: SUPPLIER_TEAM,
  isAdmin: true,
};
const SHARED = { id: 'C0NINGBO01', name: 'valden-ningbo' };

const running = useSandboxedParley({
  afterStart: async ({ db, parley }) => {
    await db.prisma.workspace.update({
      where: { slackTeamId: TEAM_ID },
      data: { settings: { approvers: [PEOPLE.approver.id] } },
    });
    const { model } = parley.sandbox;
    model.addUser(SUPPLIER_PERSON);
    model.addChannel({
      ...SHARED,
      isPrivate: false,
      members: [PEOPLE.approver.id, SUPPLIER_PERSON.id, model.botUserId],
      sharedWith: { teamId: SUPPLIER_TEAM },
    });
  },
});

/** `/parley suppliers` by `userId`: the modal Slack shows them once Parley answered. */
async function openSuppliers(userId: string, channelId: string = CHANNEL.id) {
  const { sandbox } = running.parley;
  await sandbox.driver.slashCommand(userId, channelId, SLASH_COMMAND, 'suppliers');
  return sandbox.waitFor(
    () =>
      sandbox.model
        .openViews(userId)
        .findLast(
          (view) => view.view.callback_id === CALLBACK.suppliersModal || /:lock:/.test(JSON.stringify(view.view)),
        ),
    { what: 'the suppliers modal' },
  );
}

async function supplier() {
  return running.db.prisma.supplier.findFirst({ where: { name: 'Ningbo Everbright' } });
}

describe('connecting a supplier to its Slack Connect channel', () => {
  it('refuses a colleague in the modal itself', async () => {
    const shown = await openSuppliers(PEOPLE.colleague.id);
    expect(JSON.stringify(shown.view)).toMatch(/approvers and this Slack workspace’s admins/);
    expect(JSON.stringify(shown.view)).not.toContain(BLOCK.supplierChannel);
  });

  it('refuses an admin of the supplier’s own workspace: they are no admin of this one', async () => {
    const shown = await openSuppliers(SUPPLIER_PERSON.id, SHARED.id);
    expect(JSON.stringify(shown.view)).toMatch(/approvers and this Slack workspace’s admins/);
    expect(JSON.stringify(shown.view)).not.toContain(BLOCK.supplierChannel);
  });

  it('refuses a channel shared with nobody, under the channel field', async () => {
    const { sandbox } = running.parley;
    const modal = await openSuppliers(PEOPLE.approver.id);
    const submitted = await sandbox.driver.submitView(PEOPLE.approver.id, modal.id, {
      [BLOCK.supplierNewName]: 'Ningbo Everbright',
      [BLOCK.supplierChannel]: CHANNEL.id,
    });
    expect(submitted.responseAction).toBe('errors');
    expect(sandbox.model.openViews(PEOPLE.approver.id).at(-1)?.errors[BLOCK.supplierChannel]).toMatch(
      /not shared with another organisation/,
    );
    expect(await supplier()).toBeNull();
  });

  it('connects it, welcomes the supplier in its channel, and follows the channel’s sharing', async () => {
    const { sandbox } = running.parley;
    const modal = await openSuppliers(PEOPLE.approver.id);
    const submitted = await sandbox.driver.submitView(PEOPLE.approver.id, modal.id, {
      [BLOCK.supplierNewName]: 'Ningbo Everbright',
      [BLOCK.supplierChannel]: SHARED.id,
    });
    expect(submitted.responseAction).toBe('close');
    expect(await supplier()).toMatchObject({
      slackChannelId: SHARED.id,
      slackTeamId: SUPPLIER_TEAM,
      connectedBySlackUserId: PEOPLE.approver.id,
      connectionLostAt: null,
    });
    const welcome = await sandbox.waitFor(() => sandbox.model.messages(SHARED.id).find((m) => m.botId !== undefined), {
      what: 'the welcome in the supplier’s channel',
    });
    expect(JSON.stringify(welcome.blocks)).toContain('connected this channel to *Parley*');

    // The modal now lists it as connected.
    const again = await openSuppliers(PEOPLE.approver.id);
    expect(JSON.stringify(again.view)).toContain(`<#${SHARED.id}>, connected by <@${PEOPLE.approver.id}>`);
    expect(sandbox.model.messages(SHARED.id)).toHaveLength(1);

    const unshared = await sandbox.driver.unshareChannel(SHARED.id, SUPPLIER_TEAM);
    expect(unshared.status).toBe(200);
    expect((await supplier())?.connectionLostAt).not.toBeNull();
    const shared = await sandbox.driver.shareChannel(SHARED.id, SUPPLIER_TEAM);
    expect(shared.status).toBe(200);
    expect((await supplier())?.connectionLostAt).toBeNull();

    const { calls } = sandbox.model;
    expect(calls.filter((call) => !call.ok).map((call) => `${call.method}: ${call.error ?? ''}`)).toEqual([]);
    expect(calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  }, 60_000);
});
