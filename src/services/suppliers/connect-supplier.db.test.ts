// Connecting a real supplier to its Slack Connect channel, behind the Slack layer: who may, which channels are fit
// (Parley in it, shared with exactly one other organisation), the welcome posted once, two suppliers on one channel,
// and the connection following channel_shared / channel_unshared. Against a real database; Slack's conversations.info
// is a fake whose answer each test sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { SharedChannelInfo } from '../quotation/download-shared-file.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { channelSharingChanged, connectSupplier, describeSuppliers, supplierTeamOf } from './connect-supplier.js';

const TEAM = 'T0BRAND001';
const SUPPLIER_TEAM = 'T0NINGBO01';
const OTHER_TEAM = 'T0OTHERORG';
const APPROVER = 'U0APPROVE1';
const BUYER = 'U0BUYER001';
const CHANNEL = 'C0NINGBO01';

let db: TestDatabase;
let ctx: ServiceContext;
const channelsSeen = new Map<string, SharedChannelInfo>();
const lookup = async (channelId: string): Promise<SharedChannelInfo> =>
  channelsSeen.get(channelId) ?? { isMember: false, isIm: false, isExternal: false, connectedTeamIds: [] };

function sharedWith(...teams: string[]): SharedChannelInfo {
  return { isMember: true, isIm: false, isExternal: teams.length > 0, connectedTeamIds: [...teams, TEAM] };
}

async function supplierRow(name: string) {
  return db.prisma.supplier.findFirstOrThrow({ where: { name } });
}

async function welcomes(channelId: string) {
  return db.prisma.slackOutbox.findMany({ where: { channelId, method: 'chat.postMessage' } });
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, {
    slackTeamId: TEAM,
    brandName: 'Valden Outdoor',
    approvers: [APPROVER],
    catalog: [],
  });
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
});

afterAll(async () => {
  await db?.close();
});

describe('supplierTeamOf', () => {
  it('takes the one organisation beside the workspace’s own, and refuses none, several, or Parley absent', () => {
    expect(supplierTeamOf(sharedWith(SUPPLIER_TEAM), TEAM)).toEqual({ ok: true, teamId: SUPPLIER_TEAM });
    expect(supplierTeamOf(sharedWith(), TEAM)).toEqual({ ok: false, why: 'not_shared' });
    expect(supplierTeamOf(sharedWith(SUPPLIER_TEAM, OTHER_TEAM), TEAM)).toEqual({
      ok: false,
      why: 'shared_with_several',
    });
    expect(supplierTeamOf({ ...sharedWith(SUPPLIER_TEAM), isMember: false }, TEAM)).toEqual({
      ok: false,
      why: 'not_member',
    });
  });
});

describe('connectSupplier', () => {
  it('refuses someone who is neither an approver nor a Slack admin, and records nothing', async () => {
    channelsSeen.set(CHANNEL, sharedWith(SUPPLIER_TEAM));
    const result = await connectSupplier(
      ctx,
      { by: BUYER, channelId: CHANNEL, supplier: { name: 'Ningbo Everbright' } },
      lookup,
    );
    expect(result).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(await db.prisma.supplier.count({ where: { name: 'Ningbo Everbright' } })).toBe(0);
  });

  it.each([
    ['Parley is not in it', { ...sharedWith(SUPPLIER_TEAM), isMember: false }, /Invite it there first/],
    ['it is not shared', sharedWith(), /not shared with another organisation/],
    ['it is shared with two organisations', sharedWith(SUPPLIER_TEAM, OTHER_TEAM), /more than one other organisation/],
  ])('refuses a channel where %s, saying why, and records nothing', async (_, info, why) => {
    channelsSeen.set('C0UNFIT001', info);
    const result = await connectSupplier(
      ctx,
      { by: APPROVER, channelId: 'C0UNFIT001', supplier: { name: 'Unfit Channel Co' } },
      lookup,
    );
    expect(result).toMatchObject({ ok: false, error: 'invalid_input', message: expect.stringMatching(why) });
    expect(await db.prisma.supplier.count({ where: { slackChannelId: 'C0UNFIT001' } })).toBe(0);
    expect(await welcomes('C0UNFIT001')).toHaveLength(0);
  });

  it('connects a new supplier by name: its organisation recorded, audited, welcomed once even when submitted twice', async () => {
    channelsSeen.set(CHANNEL, sharedWith(SUPPLIER_TEAM));
    const input = { by: APPROVER, channelId: CHANNEL, supplier: { name: 'Ningbo  Everbright' } };
    const first = await connectSupplier(ctx, input, lookup);
    expect(first).toMatchObject({ ok: true, changed: true, value: { channelId: CHANNEL, teamId: SUPPLIER_TEAM } });
    const again = await connectSupplier(ctx, input, lookup);
    expect(again).toMatchObject({ ok: true, changed: false });

    const supplier = await supplierRow('Ningbo  Everbright');
    expect(supplier).toMatchObject({
      isSimulated: false,
      slackChannelId: CHANNEL,
      slackTeamId: SUPPLIER_TEAM,
      connectedBySlackUserId: APPROVER,
      connectionLostAt: null,
    });
    const sent = await welcomes(CHANNEL);
    expect(sent).toHaveLength(1);
    // The welcome reaches the supplier's organisation: it names the brand and who connected it, nothing internal.
    expect(JSON.stringify(sent[0]?.payload)).toContain('Valden Outdoor');
    expect(await db.prisma.auditLog.count({ where: { action: 'supplier.connected', entityId: supplier.id } })).toBe(1);
  });

  it('refuses a second supplier on a channel that is already another’s', async () => {
    const result = await connectSupplier(
      ctx,
      { by: APPROVER, channelId: CHANNEL, supplier: { name: 'Shenzhen Rival Textiles' } },
      lookup,
    );
    expect(result).toMatchObject({ ok: false, error: 'conflict', message: expect.stringContaining('Everbright') });
  });

  it('never connects a simulated reference supplier', async () => {
    channelsSeen.set('C0SIMULAT1', sharedWith('T0SIMULAT1'));
    const simulated = await db.prisma.supplier.findFirstOrThrow({ where: { isSimulated: true } });
    const result = await connectSupplier(
      ctx,
      { by: APPROVER, channelId: 'C0SIMULAT1', supplier: { id: simulated.id } },
      lookup,
    );
    expect(result).toMatchObject({ ok: false, error: 'not_found' });
    expect((await db.prisma.supplier.findUniqueOrThrow({ where: { id: simulated.id } })).slackChannelId).toBeNull();
  });
});

describe('channelSharingChanged', () => {
  it('loses the connection when the supplier’s organisation leaves, and keeps it lost while a stranger is in', async () => {
    channelsSeen.set(CHANNEL, sharedWith());
    const lost = await channelSharingChanged(ctx, { channelId: CHANNEL }, lookup);
    expect(lost).toMatchObject({ ok: true, changed: true, value: { connected: false } });
    expect((await supplierRow('Ningbo  Everbright')).connectionLostAt).not.toBeNull();

    // Another organisation joins instead: not the supplier's, so still nothing may be sent there.
    channelsSeen.set(CHANNEL, sharedWith(OTHER_TEAM));
    expect(await channelSharingChanged(ctx, { channelId: CHANNEL }, lookup)).toMatchObject({
      ok: true,
      changed: false,
      value: { connected: false },
    });
    const rows = await describeSuppliers(ctx, APPROVER);
    expect(rows.ok && rows.value.find((row) => row.channelId === CHANNEL)?.state).toBe('not_shared');
  });

  it('restores it once the channel is shared with the supplier alone again, and audits both changes', async () => {
    channelsSeen.set(CHANNEL, sharedWith(SUPPLIER_TEAM, OTHER_TEAM));
    expect(await channelSharingChanged(ctx, { channelId: CHANNEL }, lookup)).toMatchObject({
      value: { connected: false },
    });
    channelsSeen.set(CHANNEL, sharedWith(SUPPLIER_TEAM));
    expect(await channelSharingChanged(ctx, { channelId: CHANNEL }, lookup)).toMatchObject({
      changed: true,
      value: { connected: true },
    });
    const supplier = await supplierRow('Ningbo  Everbright');
    expect(supplier.connectionLostAt).toBeNull();
    const actions = await db.prisma.auditLog.findMany({
      where: { entityId: supplier.id },
      orderBy: { createdAt: 'asc' },
      select: { action: true },
    });
    expect(actions.map((a) => a.action)).toEqual([
      'supplier.connected',
      'supplier.connection_lost',
      'supplier.connection_restored',
    ]);
  });

  it('does nothing for a channel no supplier is connected to', async () => {
    expect(await channelSharingChanged(ctx, { channelId: 'C0NOBODY01' }, lookup)).toEqual({
      ok: true,
      value: null,
      changed: false,
    });
  });
});
