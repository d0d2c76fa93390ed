// The workspace's real suppliers as rows: found by name (a quotation's, or one typed when connecting a supplier to its
// Slack Connect channel), or created with a quoting supplier's defaults and the next free code.
import { QUOTED_SUPPLIER_DEFAULTS } from '../../config/business-rules.js';
import { supplierColumns } from '../../db/seed.js';
import type { WorkspaceTx } from '../../db/scoped.js';

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
