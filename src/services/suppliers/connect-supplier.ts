// A real supplier connected to Parley: an approver (or a Slack workspace admin) names a Slack Connect channel shared
// with the supplier's organisation, Parley checks with Slack that it is in the channel and that the channel is shared
// with exactly one other organisation, and records that organisation as the supplier's. Whatever Parley posts there
// is read by that organisation, so a channel shared with two (or with none yet) is refused. Slack's channel_shared and
// channel_unshared events, and every later check, re-read the channel and keep the connection current.
import type { ConnectSupplierInput } from '../../app-types.js';
import { writeAudit } from '../../db/audit.js';
import { Prisma } from '../../generated/prisma/client.js';
import { enqueueSupplierWelcome } from '../../thread/supplier-channel.js';
import { channelMention, inline, type SupplierRow } from '../../slack/views/index.js';
import type { SharedChannelInfo } from '../quotation/download-shared-file.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { mayChangeSettings } from '../workspace/workspace-settings.js';
import { quotedSupplierNamed } from './quoted-supplier.js';

/** conversations.info for one channel, as the workspace's bot sees it. */
export type ChannelLookup = (channelId: string) => Promise<SharedChannelInfo>;

export const NOT_SUPPLIER_ADMIN =
  'Only Parley’s approvers and this Slack workspace’s admins can connect suppliers to channels.';

/** Why a channel cannot carry a supplier's negotiations, in the words shown to the approver. */
export type ChannelUnfit = 'not_member' | 'not_shared' | 'shared_with_several';

/** The one other organisation a channel is shared with, or why it is not fit to be a supplier's channel. */
export function supplierTeamOf(
  info: SharedChannelInfo,
  ownTeamId: string,
): { ok: true; teamId: string } | { ok: false; why: ChannelUnfit } {
  if (!info.isMember) return { ok: false, why: 'not_member' };
  const others = [...new Set(info.connectedTeamIds)].filter((teamId) => teamId !== ownTeamId);
  if (others.length === 0) return { ok: false, why: 'not_shared' };
  if (others.length > 1) return { ok: false, why: 'shared_with_several' };
  const [teamId = ''] = others;
  return { ok: true, teamId };
}

function unfitMessage(why: ChannelUnfit, channelId: string): string {
  const where = channelMention(channelId);
  switch (why) {
    case 'not_member':
      return `Parley is not in ${where}. Invite it there first (\`/invite @Parley\` in the channel), then connect.`;
    case 'not_shared':
      return (
        `${where} is not shared with another organisation (an invitation may still be pending). Connect a Slack ` +
        'Connect channel the supplier has joined.'
      );
    case 'shared_with_several':
      return (
        `${where} is shared with more than one other organisation: all of them would read what Parley sends the ` +
        'supplier. Use a channel shared with this supplier only.'
      );
  }
}

export interface ConnectedSupplier {
  supplierId: string;
  supplierName: string;
  channelId: string;
  /** The supplier organisation's Slack team. */
  teamId: string;
}

export async function connectSupplier(
  ctx: ServiceContext,
  input: ConnectSupplierInput,
  channels: ChannelLookup,
): Promise<ServiceResult<ConnectedSupplier>> {
  if (!(await mayChangeSettings(ctx.workspace, input.by, ctx.directory))) {
    return refused('not_allowed', NOT_SUPPLIER_ADMIN);
  }
  // Slack first, outside the transaction: a slow conversations.info holds no connection.
  const fit = supplierTeamOf(await channels(input.channelId), ctx.workspace.slackTeamId);
  if (!fit.ok) return refused('invalid_input', unfitMessage(fit.why, input.channelId));
  try {
    return await ctx.db.$transaction(async (tx) => {
      const taken = await tx.supplier.findFirst({
        where: { slackChannelId: input.channelId },
        select: { id: true, name: true },
      });
      const supplierId =
        'id' in input.supplier
          ? input.supplier.id
          : await quotedSupplierNamed(tx, ctx.workspace.id, input.supplier.name);
      if (taken && taken.id !== supplierId) {
        return refused(
          'conflict',
          `${channelMention(input.channelId)} is already *${inline(taken.name, 80)}*’s channel.`,
        );
      }
      const supplier = await tx.supplier.findFirst({
        where: { id: supplierId, isSimulated: false },
        select: { id: true, name: true, slackChannelId: true, slackTeamId: true, connectionLostAt: true },
      });
      if (!supplier) return refused('not_found', 'That supplier no longer exists. Close this and try again.');
      const result = { supplierId, supplierName: supplier.name, channelId: input.channelId, teamId: fit.teamId };
      const unchanged =
        supplier.slackChannelId === input.channelId &&
        supplier.slackTeamId === fit.teamId &&
        supplier.connectionLostAt === null;
      // A submission Slack sent again after it was saved: nothing new, and no second welcome.
      if (unchanged) return done(result, false);

      const connectedAt = ctx.now();
      await tx.supplier.update({
        where: { id: supplierId },
        data: {
          slackChannelId: input.channelId,
          slackTeamId: fit.teamId,
          connectedAt,
          connectedBySlackUserId: input.by,
          connectionLostAt: null,
        },
      });
      await writeAudit(tx, input.by, {
        action: 'supplier.connected',
        entityType: 'supplier',
        entityId: supplierId,
        data: {
          channelId: input.channelId,
          teamId: fit.teamId,
          previous: supplier.slackChannelId
            ? { channelId: supplier.slackChannelId, teamId: supplier.slackTeamId }
            : null,
        },
      });
      if (supplier.slackChannelId !== input.channelId) {
        await enqueueSupplierWelcome(tx, {
          supplierId,
          supplierName: supplier.name,
          channelId: input.channelId,
          brandName: ctx.workspace.brandName,
          by: input.by,
        });
      }
      return done(result);
    });
  } catch (error) {
    // Two approvers connecting two suppliers to one channel at the same moment: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return refused('conflict', `${channelMention(input.channelId)} was just connected to another supplier.`);
    }
    throw error;
  }
}

/**
 * Slack says a channel's sharing changed (channel_shared, channel_unshared): the channel is read again, and the
 * supplier connected to it stays connected only while it is shared with that supplier's organisation alone. Events
 * can arrive late or out of order; reading the channel's present state makes the order not matter.
 */
export async function channelSharingChanged(
  ctx: ServiceContext,
  input: { channelId: string },
  channels: ChannelLookup,
): Promise<ServiceResult<{ supplierId: string; connected: boolean } | null>> {
  const supplier = await ctx.db.supplier.findFirst({
    where: { slackChannelId: input.channelId },
    select: { id: true, slackTeamId: true, connectionLostAt: true },
  });
  if (!supplier) return done(null, false);
  const fit = supplierTeamOf(await channels(input.channelId), ctx.workspace.slackTeamId);
  const connected = fit.ok && fit.teamId === supplier.slackTeamId;
  if (connected === (supplier.connectionLostAt === null)) return done({ supplierId: supplier.id, connected }, false);
  return ctx.db.$transaction(async (tx) => {
    // Only if nobody changed it meanwhile (a reconnect by an approver, the other event of a pair).
    const { count } = await tx.supplier.updateMany({
      where: { id: supplier.id, slackChannelId: input.channelId, connectionLostAt: supplier.connectionLostAt },
      data: { connectionLostAt: connected ? null : ctx.now() },
    });
    if (count === 0) return done({ supplierId: supplier.id, connected }, false);
    await writeAudit(tx, null, {
      action: connected ? 'supplier.connection_restored' : 'supplier.connection_lost',
      entityType: 'supplier',
      entityId: supplier.id,
      data: { channelId: input.channelId, ...(fit.ok ? { sharedWith: fit.teamId } : { why: fit.why }) },
    });
    return done({ supplierId: supplier.id, connected });
  });
}

/** The suppliers `/parley suppliers` lists, connected ones first; for approvers and Slack admins. */
export async function describeSuppliers(
  ctx: ServiceContext,
  by: string,
  /** A supplier to list first (the one a review card's Connect button is about), wherever it would stand. */
  firstId: string | null = null,
): Promise<ServiceResult<SupplierRow[]>> {
  if (!(await mayChangeSettings(ctx.workspace, by, ctx.directory))) return refused('not_allowed', NOT_SUPPLIER_ADMIN);
  const select = {
    id: true,
    name: true,
    slackChannelId: true,
    connectedAt: true,
    connectedBySlackUserId: true,
    connectionLostAt: true,
  } as const;
  const [first, listed] = await Promise.all([
    firstId === null ? null : ctx.db.supplier.findFirst({ where: { id: firstId, isSimulated: false }, select }),
    ctx.db.supplier.findMany({
      where: { isSimulated: false },
      orderBy: [{ connectedAt: { sort: 'desc', nulls: 'last' } }, { name: 'asc' }],
      take: 100,
      select,
    }),
  ]);
  const rows = first ? [first, ...listed.filter((row) => row.id !== first.id)] : listed;
  return done(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      channelId: row.slackChannelId,
      state: row.slackChannelId === null ? 'none' : row.connectionLostAt === null ? 'connected' : 'not_shared',
      connectedBy: row.connectedBySlackUserId,
      connectedAt: row.connectedAt,
    })),
    false,
  );
}
