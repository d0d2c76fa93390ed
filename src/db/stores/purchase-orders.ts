// Purchase orders on the database: reading a PO with its allocations, lines and approvals, and writing its rows. What
// may be written when is decided by the PO's rules (src/decision/purchase-order-rules.ts), called by the use cases in
// src/services/purchase-order/, which hold the transaction.
//
// Every status change is one conditional `updateMany … where { id, version, status in <statuses that may lead to the
// new one> }` that bumps `version` and reports whether it matched, so a stale click, a double click and two people
// clicking at once each do the work at most once. An approval bumps the version even when it is not the last one
// needed, which serialises two approvers clicking at once: one wins, the other matches nothing.
import { z } from 'zod';
import { toJsonColumn } from '../json.js';
import type { WorkspaceDb, WorkspaceTx } from '../scoped.js';
import { Prisma } from '../../generated/prisma/client.js';
import { priceTierSchema } from '../../negotiation/types.js';
import type { DecisionNumbers } from '../../decision/decide.js';
import type { DecisionText } from '../../decision/write-decision.js';
import {
  type PlannedPurchaseOrder,
  poMoney,
  poUnitPrice,
  type PurchaseOrderStatus,
  type PurchaseOrderView,
  purchaseOrderNumberPrefix,
} from '../../decision/purchase-order-rules.js';

/** Transactions that draft, approve or reject: long enough to queue behind a concurrent draft of the same negotiation. */
export const PO_TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * A write that lost a race and may be tried again: a concurrent insert took a unique key (a PO number, a second
 * approval row of the same person) or the transaction lost a write conflict.
 */
export function isWriteRace(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2002' || error.code === 'P2034');
}

// ───────────────────────────── Reading ─────────────────────────────

// Allocations and lines come back in the order they were written (the award's, which is the quotation's line order):
// Prisma's cuid ids start with a timestamp and a per-process counter, so within one draft they sort by insertion.
const poInclude = {
  decision: { select: { summary: true } },
  approvals: { orderBy: [{ approvedAt: 'asc' }, { id: 'asc' }] },
  allocations: {
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: {
      supplier: { select: { code: true, name: true } },
      items: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    },
  },
} satisfies Prisma.PurchaseOrderInclude;

type PoRow = Prisma.PurchaseOrderGetPayload<{ include: typeof poInclude }>;

const tiersSchema = z.array(priceTierSchema);

function toView(row: PoRow): PurchaseOrderView {
  const num = (value: Prisma.Decimal) => value.toNumber();
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    version: row.version,
    negotiationId: row.negotiationId,
    decisionId: row.decisionId,
    decisionSummary: row.decision?.summary ?? null,
    basisOfAward: row.basisOfAward,
    currency: row.currency,
    fobCost: num(row.fobCost),
    cashFlowCost: num(row.cashFlowCost),
    otherCosts: num(row.otherCosts),
    splitOverhead: num(row.splitOverhead),
    effectiveLandedCost: num(row.effectiveLandedCost),
    approvals: row.approvals.map((a) => ({ approverSlackUserId: a.approverSlackUserId, approvedAt: a.approvedAt })),
    approvedAt: row.approvedAt,
    rejectedReason: row.rejectedReason,
    rejectedBySlackUserId: row.rejectedBySlackUserId,
    rejectedAt: row.rejectedAt,
    createdAt: row.createdAt,
    allocations: row.allocations.map((a) => ({
      supplierId: a.supplierId,
      supplierCode: a.supplier.code,
      supplierName: a.supplier.name,
      share: a.share,
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: a.incoterm,
      fobCost: num(a.fobCost),
      cashFlowCost: num(a.cashFlowCost),
      otherCosts: num(a.otherCosts),
      effectiveLandedCost: num(a.effectiveLandedCost),
      accepted: a.acceptedAt && a.acceptedBySlackUserId ? { by: a.acceptedBySlackUserId, at: a.acceptedAt } : null,
      items: a.items.map((item) => ({
        sku: item.sku,
        description: item.description,
        productId: item.productId,
        quantity: item.quantity,
        unitPrice: num(item.unitPrice),
        lineTotal: num(item.lineTotal),
        tiers: tiersSchema.parse(item.tiers),
      })),
    })),
  };
}

/** A PO with its allocations, lines and approvals, or null (also for an id of another workspace). */
export async function loadPurchaseOrder(db: WorkspaceDb | WorkspaceTx, id: string): Promise<PurchaseOrderView | null> {
  const row = await db.purchaseOrder.findUnique({ where: { id }, include: poInclude });
  return row === null ? null : toView(row);
}

/** The negotiation's newest PO that is not superseded (the one a repeated draft compares itself with), or null. */
export async function loadLatestPurchaseOrder(
  tx: WorkspaceTx,
  negotiationId: string,
): Promise<PurchaseOrderView | null> {
  const row = await tx.purchaseOrder.findFirst({
    where: { negotiationId, status: { not: 'superseded' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: poInclude,
  });
  return row === null ? null : toView(row);
}

/** The negotiation's POs in these statuses: id, number and status. */
export function listPurchaseOrdersOf(tx: WorkspaceTx, negotiationId: string, statuses: PurchaseOrderStatus[]) {
  return tx.purchaseOrder.findMany({
    where: { negotiationId, status: { in: statuses } },
    select: { id: true, number: true, status: true },
  });
}

/** The suppliers taking part in a negotiation: id and the workspace's code. */
export async function loadNegotiationSuppliers(
  tx: WorkspaceTx,
  negotiationId: string,
): Promise<{ id: string; code: string }[]> {
  const rows = await tx.negotiationSupplier.findMany({
    where: { negotiationId },
    select: { supplier: { select: { id: true, code: true } } },
  });
  return rows.map((r) => r.supplier);
}

/** Supplier codes by id (ids of another workspace, or of no supplier, are absent). */
export async function loadSupplierCodes(tx: WorkspaceTx, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await tx.supplier.findMany({ where: { id: { in: [...ids] } }, select: { id: true, code: true } });
  return new Map(rows.map((r) => [r.id, r.code]));
}

/**
 * The PO numbers of `now`'s year in the workspace. Drafts concluded at the same moment would all read the same
 * numbers, so the read is serialised per workspace by a transaction-level advisory lock (released at commit or
 * rollback): call it in the transaction that inserts the next number.
 */
export async function lockAndListPurchaseOrderNumbers(tx: WorkspaceTx, now: Date): Promise<string[]> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`po-number:${tx.$workspaceId}`}))`;
  const rows = await tx.purchaseOrder.findMany({
    where: { number: { startsWith: purchaseOrderNumberPrefix(now) } },
    select: { number: true },
  });
  return rows.map((row) => row.number);
}

// ───────────────────────────── Writing ─────────────────────────────

/**
 * Touches the negotiation row, which locks it for the rest of the transaction: concurrent drafts of one negotiation
 * queue here, and the second finds the first's PO. False when the negotiation does not exist.
 */
export async function lockNegotiation(tx: WorkspaceTx, negotiationId: string, now: Date): Promise<boolean> {
  const { count } = await tx.negotiation.updateMany({ where: { id: negotiationId }, data: { updatedAt: now } });
  return count > 0;
}

/** Writes the negotiation's Decision row (one per negotiation): created, or updated when it was there already. */
export async function saveDecision(
  tx: WorkspaceTx,
  negotiationId: string,
  numbers: DecisionNumbers,
  text: DecisionText,
): Promise<{ id: string; revised: boolean }> {
  const data = {
    mode: numbers.mode,
    recommendation: toJsonColumn({
      ...numbers.recommendation,
      cheapestNotChosen: numbers.cheapestNotChosen,
      excluded: numbers.excluded,
    }),
    scores: toJsonColumn(numbers.scores),
    allocation: toJsonColumn(numbers.allocation),
    summary: text.summary,
    keyPoints: toJsonColumn(text.keyPoints),
    tradeOffs: text.tradeOffs,
    cheapestNotChosenReason: text.cheapestNotChosenReason,
    savings: toJsonColumn(numbers.savings),
    writer: text.writer,
  };
  const existing = await tx.decision.findUnique({ where: { negotiationId }, select: { id: true } });
  if (existing !== null) {
    await tx.decision.update({ where: { id: existing.id }, data });
    return { id: existing.id, revised: true };
  }
  const created = await tx.decision.create({ data: { workspaceId: tx.$workspaceId, negotiationId, ...data } });
  return { id: created.id, revised: false };
}

/** Inserts a draft PO with its allocations and lines (lines name their catalog product when the SKU is one). */
export async function insertDraftPurchaseOrder(
  tx: WorkspaceTx,
  draft: { negotiationId: string; decisionId: string; number: string; planned: PlannedPurchaseOrder },
): Promise<string> {
  const { planned } = draft;
  const workspaceId = tx.$workspaceId;
  const po = await tx.purchaseOrder.create({
    data: {
      workspaceId,
      negotiationId: draft.negotiationId,
      decisionId: draft.decisionId,
      number: draft.number,
      status: 'draft',
      currency: planned.currency,
      fobCost: poMoney(planned.fobCost),
      cashFlowCost: poMoney(planned.cashFlowCost),
      otherCosts: poMoney(planned.otherCosts ?? 0),
      splitOverhead: poMoney(planned.splitOverhead),
      effectiveLandedCost: poMoney(planned.effectiveLandedCost),
      basisOfAward: planned.basisOfAward,
    },
  });

  for (const allocation of planned.allocations) {
    const row = await tx.purchaseOrderAllocation.create({
      data: {
        workspaceId,
        purchaseOrderId: po.id,
        supplierId: allocation.supplierId,
        share: allocation.share,
        paymentTerms: allocation.paymentTerms,
        leadTimeDays: allocation.leadTimeDays,
        incoterm: allocation.incoterm,
        fobCost: poMoney(allocation.fobCost),
        cashFlowCost: poMoney(allocation.cashFlowCost),
        otherCosts: poMoney(allocation.otherCosts ?? 0),
        effectiveLandedCost: poMoney(allocation.effectiveLandedCost),
      },
    });
    await insertItems(tx, row.id, allocation.items);
  }
  return po.id;
}

/**
 * An allocation's lines in one statement, each naming its catalog product when the SKU is one: the rows travel as one
 * JSON text parameter that PostgreSQL unpacks (jsonb_to_recordset), as the quotation reader records its lines. Through
 * Prisma (a product lookup of 3,000 SKUs, then createMany's 27,000 bind values compiled one by one) this was seconds
 * of CPU inside the draft's transaction, which on PGlite holds the only connection while the acks wait. The lines keep
 * their order: they are read by creation time, then id, and the ids are the allocation's and the line's position.
 */
async function insertItems(
  tx: WorkspaceTx,
  allocationId: string,
  items: PlannedPurchaseOrder['allocations'][number]['items'],
) {
  if (items.length === 0) return;
  const rows = items.map((item, position) => ({
    id: `${allocationId}_${String(position).padStart(6, '0')}`,
    sku: item.sku,
    description: item.description,
    quantity: item.quantity,
    unitPrice: poUnitPrice(item.unitPrice),
    lineTotal: poMoney(item.lineTotal),
    tiers: item.tiers,
  }));
  await tx.$executeRaw`
    INSERT INTO "PurchaseOrderItem" ("id", "workspaceId", "allocationId", "productId", "sku", "description",
      "quantity", "unitPrice", "lineTotal", "tiers", "createdAt")
    SELECT r."id", ${tx.$workspaceId}, ${allocationId}, p."id", r."sku", r."description", r."quantity",
      r."unitPrice", r."lineTotal", COALESCE(r."tiers", '[]'), CURRENT_TIMESTAMP
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      "id" text, "sku" text, "description" text, "quantity" integer, "unitPrice" numeric, "lineTotal" numeric,
      "tiers" jsonb)
    LEFT JOIN "Product" p ON p."workspaceId" = ${tx.$workspaceId} AND p."sku" = r."sku"`;
}

/** Marks these POs superseded where they are still in one of the statuses `from`. */
export async function markSuperseded(tx: WorkspaceTx, ids: string[], from: PurchaseOrderStatus[]): Promise<void> {
  await tx.purchaseOrder.updateMany({
    where: { id: { in: ids }, status: { in: from } },
    data: { status: 'superseded', version: { increment: 1 } },
  });
}

/**
 * Records one approver's approval of the PO at `expectedVersion` and bumps its version; `complete` also makes it
 * approved. False, with nothing written, when the PO is no longer at that version in one of the statuses `from`.
 */
export async function recordApproval(
  tx: WorkspaceTx,
  approval: {
    purchaseOrderId: string;
    expectedVersion: number;
    from: PurchaseOrderStatus[];
    approverSlackUserId: string;
    complete: boolean;
    /** The digest of the PO as the approver's modal showed it. */
    shownDigest: string;
    now: Date;
  },
): Promise<boolean> {
  const { purchaseOrderId, now } = approval;
  const { count } = await tx.purchaseOrder.updateMany({
    where: { id: purchaseOrderId, version: approval.expectedVersion, status: { in: approval.from } },
    data: approval.complete
      ? { status: 'approved', approvedAt: now, version: { increment: 1 } }
      : { version: { increment: 1 } },
  });
  if (count === 0) return false;
  await tx.purchaseOrderApproval.create({
    data: {
      workspaceId: tx.$workspaceId,
      purchaseOrderId,
      approverSlackUserId: approval.approverSlackUserId,
      approvedAt: now,
      shownDigest: approval.shownDigest,
    },
  });
  return true;
}

/** Rejects the PO at `expectedVersion`; false, with nothing written, when it is no longer there in a status `from`. */
export async function recordRejection(
  tx: WorkspaceTx,
  rejection: {
    purchaseOrderId: string;
    expectedVersion: number;
    from: PurchaseOrderStatus[];
    by: string;
    reason: string;
    now: Date;
  },
): Promise<boolean> {
  const { count } = await tx.purchaseOrder.updateMany({
    where: { id: rejection.purchaseOrderId, version: rejection.expectedVersion, status: { in: rejection.from } },
    data: {
      status: 'rejected',
      rejectedReason: rejection.reason,
      rejectedBySlackUserId: rejection.by,
      rejectedAt: rejection.now,
      version: { increment: 1 },
    },
  });
  return count > 0;
}
