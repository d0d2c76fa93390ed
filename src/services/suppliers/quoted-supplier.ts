// The workspace's real suppliers as rows: found by name (a quotation's, or one typed when connecting a supplier to its
// Slack Connect channel), or created with a quoting supplier's defaults and the next free code; and the connected
// ones a negotiation may invite beside the quoting supplier, as the engine's profiles.
import { QUOTED_SUPPLIER_DEFAULTS, type SupplierProfile } from '../../config/business-rules.js';
import { supplierColumns } from '../../db/seed.js';
import type { WorkspaceDb, WorkspaceTx } from '../../db/scoped.js';

/**
 * The quoting supplier named `name`: the workspace's supplier of that name when there is one (a second quotation
 * from it, read before the first one's supplier existed), else a new row with a quoting supplier's defaults and the
 * next free code.
 */
export async function quotedSupplierNamed(tx: WorkspaceTx, workspaceId: string, name: string): Promise<string> {
  const existing = await tx.supplier.findFirst({
    where: { isSimulated: false, name: { equals: name.slice(0, 120), mode: 'insensitive' } },
    select: { id: true },
  });
  if (existing) return existing.id;
  const codes = await tx.supplier.findMany({ select: { code: true } });
  const highest = Math.max(0, ...codes.map(({ code }) => Number(/^SUP-(\d+)$/.exec(code)?.[1] ?? 0)));
  const supplier = await tx.supplier.create({
    data: {
      workspaceId,
      ...supplierColumns({ ...QUOTED_SUPPLIER_DEFAULTS, name: name.slice(0, 120) }),
      code: `SUP-${String(highest + 1).padStart(3, '0')}`,
    },
  });
  return supplier.id;
}

/** A connected supplier a negotiation may invite, with its row's id and what the engine plays it with. */
export interface InvitableConnectedSupplier {
  id: string;
  profile: SupplierProfile;
}

/**
 * The suppliers connected in Slack Connect (channel still shared) other than the quoting one, by name; at most the ten
 * the start modal can list. Each is played as itself (counterpart 'connected'), with a quoting supplier's defaults
 * for what it has not stated yet — lead time and terms stay assumptions until it offers (facts.ts). The quoting role's
 * code is never one of theirs: the engine tells its suppliers apart by code.
 */
export async function invitableConnectedSuppliers(
  db: WorkspaceDb,
  quotingSupplierId: string | null,
): Promise<InvitableConnectedSupplier[]> {
  const rows = await db.supplier.findMany({
    where: {
      isSimulated: false,
      slackChannelId: { not: null },
      connectionLostAt: null,
      code: { not: QUOTED_SUPPLIER_DEFAULTS.code },
      ...(quotingSupplierId === null ? {} : { id: { not: quotingSupplierId } }),
    },
    select: {
      id: true,
      code: true,
      name: true,
      qualityRating: true,
      onTimeDeliveryRate: true,
      defectRate: true,
      responseTimeDays: true,
      totalOrdersCount: true,
    },
    orderBy: [{ name: 'asc' }, { code: 'asc' }],
    take: 10,
  });
  return rows.map(({ id, ...known }) => ({
    id,
    profile: { ...QUOTED_SUPPLIER_DEFAULTS, ...known, isSimulated: false, counterpart: 'connected' },
  }));
}
