// Purchase orders on the database (seed 002 §6.7, §11; issue 5 item 5). A PO is always created as a draft; only
// people approve it. Its states: draft → approved (→ sent, out of scope) | rejected | superseded. Every transition
// is one conditional `updateMany … where { id, version, status }` that bumps `version`, so a stale click, a double
// click and two people clicking at once each do the work at most once; every action writes an AuditLog row in the
// same transaction. Expected failures come back as typed results with a sentence the buyer can act on.
//
// Concurrency. Drafting locks the negotiation row first (an UPDATE inside the transaction), so two drafts of one
// negotiation run one after the other and the second finds the first. PO numbers (PO-YYYY-NNNN, unique per
// workspace) are the highest this year + 1; two workspaces' transactions that pick the same number collide on the
// unique key and the loser retries with the next. An approval bumps the version even when it is not the last one
// needed, which serialises two approvers clicking at once: one wins, the other gets a conflict and sees the new state.
import { z } from 'zod';
import { toJsonColumn } from '../json.js';
import type { WorkspaceDb } from '../scoped.js';
import { Prisma, type PurchaseOrderStatus } from '../../generated/prisma/client.js';
import { type PriceTier, priceTierSchema } from '../../negotiation/types.js';
import type { DecisionNumbers } from '../../decision/decide.js';
import { formatMoney } from '../../commerce/money.js';
import type { DecisionText } from '../../decision/write-decision.js';

/** Longest rejection reason (the modal field's limit too). */
export const REJECT_REASON_MAX = 500;
/** Drafts retried after losing a race for a PO number. */
const NUMBER_ATTEMPTS = 8;
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

type WorkspaceTx = Parameters<Parameters<WorkspaceDb['$transaction']>[0]>[0];

export type PurchaseOrderError = 'not_allowed' | 'conflict' | 'invalid_input' | 'not_found' | 'already_final';

export type PurchaseOrderResult =
  | {
      ok: true;
      po: PurchaseOrderView;
      /** False when the call found its work already done (a double click, a retry, an unchanged decision). */
      changed: boolean;
      message: string;
    }
  | {
      ok: false;
      error: PurchaseOrderError;
      message: string;
      /** For modal field errors (`invalid_input`): block id → message. */
      fieldErrors?: { reason?: string };
    };

export interface PurchaseOrderItemView {
  sku: string;
  description: string;
  productId: string | null;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
  tiers: PriceTier[];
}

export interface PurchaseOrderAllocationView {
  supplierId: string;
  supplierCode: string;
  supplierName: string;
  share: number;
  paymentTerms: string;
  leadTimeDays: number;
  incoterm: string | null;
  fobCost: number;
  cashFlowCost: number;
  effectiveLandedCost: number;
  items: PurchaseOrderItemView[];
}

export interface PurchaseOrderView {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  version: number;
  negotiationId: string;
  decisionId: string | null;
  currency: string;
  fobCost: number;
  cashFlowCost: number;
  splitOverhead: number;
  effectiveLandedCost: number;
  approvals: { approverSlackUserId: string; approvedAt: Date }[];
  approvedAt: Date | null;
  rejectedReason: string | null;
  rejectedBySlackUserId: string | null;
  rejectedAt: Date | null;
  createdAt: Date;
  allocations: PurchaseOrderAllocationView[];
}

/**
 * Approvals a PO needs: two different approvers when its effective landed cost is above the threshold. The threshold
 * is in USD and Parley has no exchange rates, so a PO in another currency always needs two: the safe side.
 */
export function approvalsRequired(
  po: Pick<PurchaseOrderView, 'currency' | 'effectiveLandedCost'>,
  dualApprovalAboveUsd: number,
): 1 | 2 {
  if (po.currency !== 'USD') return 2;
  return po.effectiveLandedCost > dualApprovalAboveUsd ? 2 : 1;
}

// ───────────────────────────── Reading ─────────────────────────────

// Allocations and lines come back in the order they were written (the award's, which is the quotation's line order):
// Prisma's cuid ids start with a timestamp and a per-process counter, so within one draft they sort by insertion.
const poInclude = {
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
    currency: row.currency,
    fobCost: num(row.fobCost),
    cashFlowCost: num(row.cashFlowCost),
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
      effectiveLandedCost: num(a.effectiveLandedCost),
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

// ───────────────────────────── Drafting ─────────────────────────────

export interface CreateDraftPurchaseOrderOptions {
  negotiationId: string;
  numbers: DecisionNumbers;
  text: DecisionText;
  /** Default: the decision's currency. */
  currency?: string;
  /** Default: each awarded supplier's own offer incoterm. */
  incoterm?: string | null;
  /**
   * The database supplier behind each engine role (SUP-001 is the quotation's own supplier). Default: the
   * negotiation's suppliers matched by code, and a single role left over paired with the single supplier left over.
   */
  supplierIds?: Readonly<Record<string, string>>;
  /** Who asked for the draft, for the audit log; null for the system. */
  actorSlackUserId?: string | null;
  now?: () => Date;
}

/**
 * Records the decision and drafts its PO in one transaction: the Decision row (created, or updated when the
 * decision changed), a `draft` PO with a new number, its allocations and lines, any earlier live PO of the negotiation
 * marked `superseded`, and audit rows. Idempotent: when the latest PO of the negotiation already says exactly this
 * (same suppliers, lines, prices and totals) it is returned unchanged — also when it was rejected, so a retried job
 * cannot put a refused award back in front of the approvers unchanged.
 */
export async function createDraftPurchaseOrder(
  db: WorkspaceDb,
  options: CreateDraftPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction((tx) => draftIn(tx, db.$workspaceId, options), TRANSACTION_OPTIONS);
    } catch (error) {
      // Another draft took the number (or the transaction lost a write conflict): try again from the top.
      if (attempt < NUMBER_ATTEMPTS && isRetryable(error)) continue;
      throw error;
    }
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2002' || error.code === 'P2034');
}

interface PlannedAllocation {
  supplierId: string;
  share: number;
  paymentTerms: string;
  leadTimeDays: number;
  incoterm: string | null;
  fobCost: number;
  cashFlowCost: number;
  effectiveLandedCost: number;
  items: Omit<PurchaseOrderItemView, 'productId'>[];
}

interface PlannedPo {
  currency: string;
  fobCost: number;
  cashFlowCost: number;
  splitOverhead: number;
  effectiveLandedCost: number;
  allocations: PlannedAllocation[];
}

async function draftIn(
  tx: WorkspaceTx,
  workspaceId: string,
  options: CreateDraftPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const { negotiationId, numbers, text } = options;
  const now = options.now?.() ?? new Date();
  const actor = options.actorSlackUserId ?? null;
  const audit = auditWriter(tx, workspaceId, actor);

  // Locks the negotiation for the rest of the transaction: concurrent drafts of it queue here.
  const { count } = await tx.negotiation.updateMany({ where: { id: negotiationId }, data: { updatedAt: now } });
  if (count === 0) return notFound('This negotiation no longer exists.');

  const supplierIds = await resolveSuppliers(tx, negotiationId, numbers, options.supplierIds);
  if (!supplierIds.ok) return { ok: false, error: 'not_found', message: supplierIds.message };
  const planned = planPurchaseOrder(numbers, supplierIds.ids, options);

  const latest = await tx.purchaseOrder.findFirst({
    where: { negotiationId, status: { not: 'superseded' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: poInclude,
  });
  if (latest !== null && fingerprint(toView(latest)) === fingerprint(planned)) {
    return { ok: true, po: toView(latest), changed: false, message: `${latest.number} already holds this award.` };
  }

  const decisionData = {
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
  const existingDecision = await tx.decision.findUnique({ where: { negotiationId } });
  const decision =
    existingDecision === null
      ? await tx.decision.create({ data: { workspaceId, negotiationId, ...decisionData } })
      : await tx.decision.update({ where: { id: existingDecision.id }, data: decisionData });
  await audit(existingDecision === null ? 'decision.recorded' : 'decision.revised', 'decision', decision.id, {
    negotiationId,
    recommendation: numbers.recommendation.supplierCodes,
    writer: text.writer,
  });

  const live = await tx.purchaseOrder.findMany({
    where: { negotiationId, status: { in: ['draft', 'approved'] } },
    select: { id: true, number: true, status: true },
  });

  const number = await nextNumber(tx, workspaceId, now);
  const po = await tx.purchaseOrder.create({
    data: {
      workspaceId,
      negotiationId,
      decisionId: decision.id,
      number,
      status: 'draft',
      currency: planned.currency,
      fobCost: money(planned.fobCost),
      cashFlowCost: money(planned.cashFlowCost),
      splitOverhead: money(planned.splitOverhead),
      effectiveLandedCost: money(planned.effectiveLandedCost),
    },
  });

  const skus = [...new Set(planned.allocations.flatMap((a) => a.items.map((i) => i.sku)))];
  const products = await tx.product.findMany({ where: { sku: { in: skus } }, select: { id: true, sku: true } });
  const productIds = new Map(products.map((p) => [p.sku, p.id]));
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
        fobCost: money(allocation.fobCost),
        cashFlowCost: money(allocation.cashFlowCost),
        effectiveLandedCost: money(allocation.effectiveLandedCost),
      },
    });
    await tx.purchaseOrderItem.createMany({
      data: allocation.items.map((item) => ({
        workspaceId,
        allocationId: row.id,
        productId: productIds.get(item.sku) ?? null,
        sku: item.sku,
        description: item.description,
        quantity: item.quantity,
        unitPrice: unitPrice(item.unitPrice),
        lineTotal: money(item.lineTotal),
        tiers: toJsonColumn(item.tiers),
      })),
    });
  }

  if (live.length > 0) {
    await tx.purchaseOrder.updateMany({
      where: { id: { in: live.map((p) => p.id) }, status: { in: ['draft', 'approved'] } },
      data: { status: 'superseded', version: { increment: 1 } },
    });
    for (const old of live) {
      await audit('purchase_order.superseded', 'purchase_order', old.id, {
        number: old.number,
        previousStatus: old.status,
        supersededBy: number,
      });
    }
  }
  await audit('purchase_order.drafted', 'purchase_order', po.id, {
    number,
    negotiationId,
    decisionId: decision.id,
    currency: planned.currency,
    fobCost: planned.fobCost,
    cashFlowCost: planned.cashFlowCost,
    splitOverhead: planned.splitOverhead,
    effectiveLandedCost: planned.effectiveLandedCost,
    suppliers: numbers.recommendation.supplierCodes,
    supersedes: live.map((p) => p.number),
  });

  const view = await loadPurchaseOrder(tx, po.id);
  if (view === null) throw new Error(`PO ${po.id} vanished inside its own transaction`);
  const replaced = live.length > 0 ? ` It replaces ${live.map((p) => p.number).join(', ')}.` : '';
  return {
    ok: true,
    po: view,
    changed: true,
    message:
      `Drafted ${number}: ${formatMoney(planned.effectiveLandedCost, planned.currency)} effective landed cost, ` +
      `waiting for approval.${replaced}`,
  };
}

function planPurchaseOrder(
  numbers: DecisionNumbers,
  supplierIds: ReadonlyMap<string, string>,
  options: CreateDraftPurchaseOrderOptions,
): PlannedPo {
  const plan = numbers.allocation;
  return {
    currency: options.currency ?? numbers.currency,
    fobCost: plan.fob,
    cashFlowCost: plan.cashFlowCost,
    splitOverhead: plan.splitOverhead,
    effectiveLandedCost: plan.effectiveLandedCost,
    allocations: numbers.award.map((a) => ({
      supplierId: supplierIds.get(a.supplierCode) ?? '',
      share: a.share,
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: options.incoterm === undefined ? a.incoterm : options.incoterm,
      fobCost: a.fob,
      cashFlowCost: a.cashFlowCost,
      effectiveLandedCost: a.effectiveLandedCost,
      items: a.lines.map(({ sku, description, quantity, unitPrice, lineTotal, tiers }) => ({
        sku,
        description,
        quantity,
        unitPrice,
        lineTotal,
        tiers,
      })),
    })),
  };
}

/** The PO's content, as the database stores it (cents, 4-decimal unit prices): equal fingerprints = the same PO. */
function fingerprint(po: PlannedPo | PurchaseOrderView): string {
  const allocations = po.allocations
    .map((a) => ({
      supplierId: a.supplierId,
      share: a.share.toFixed(4),
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: a.incoterm,
      amounts: [a.fobCost, a.cashFlowCost, a.effectiveLandedCost].map(money),
      items: a.items
        .map((i) => [i.sku, i.description, i.quantity, unitPrice(i.unitPrice), money(i.lineTotal), i.tiers] as const)
        .sort((x, y) => compareText(x[0], y[0])),
    }))
    .sort((x, y) => compareText(x.supplierId, y.supplierId));
  const amounts = [po.fobCost, po.cashFlowCost, po.splitOverhead, po.effectiveLandedCost].map(money);
  return JSON.stringify({ currency: po.currency, amounts, allocations });
}

type SupplierResolution = { ok: true; ids: Map<string, string> } | { ok: false; message: string };

async function resolveSuppliers(
  tx: WorkspaceTx,
  negotiationId: string,
  numbers: DecisionNumbers,
  given: Readonly<Record<string, string>> | undefined,
): Promise<SupplierResolution> {
  const codes = numbers.award.map((a) => a.supplierCode);
  if (given !== undefined) {
    const missing = codes.filter((code) => given[code] === undefined);
    if (missing.length > 0) return { ok: false, message: `No supplier record for ${missing.join(', ')}.` };
    return { ok: true, ids: new Map(codes.map((code) => [code, given[code] ?? ''])) };
  }
  const rows = await tx.negotiationSupplier.findMany({
    where: { negotiationId },
    select: { supplier: { select: { id: true, code: true } } },
  });
  const ids = new Map<string, string>();
  const roles = numbers.offers.map((o) => o.supplierCode);
  for (const role of roles) {
    const row = rows.find((r) => r.supplier.code === role);
    if (row) ids.set(role, row.supplier.id);
  }
  // The quoting supplier keeps its own code in the database (the engine calls it SUP-001): with exactly one role and
  // one supplier left unmatched, they are each other.
  const unmatchedRoles = roles.filter((role) => !ids.has(role));
  const claimed = new Set(ids.values());
  const unmatchedRows = rows.filter((r) => !claimed.has(r.supplier.id));
  const [onlyRole] = unmatchedRoles;
  const [onlyRow] = unmatchedRows;
  if (unmatchedRoles.length === 1 && unmatchedRows.length === 1 && onlyRole && onlyRow) {
    ids.set(onlyRole, onlyRow.supplier.id);
  }
  const missing = codes.filter((code) => !ids.has(code));
  if (missing.length > 0) {
    return { ok: false, message: `${missing.join(', ')} is not one of this negotiation's suppliers.` };
  }
  return { ok: true, ids };
}

/** PO-YYYY-NNNN: the highest number of the year in this workspace + 1 (more digits after 9999). */
/**
 * The workspace's next PO number. Drafts concluded at the same moment would all read the same highest number, so the
 * numbering is serialised per workspace by a transaction-level advisory lock (released at commit or rollback).
 */
async function nextNumber(tx: WorkspaceTx, workspaceId: string, now: Date): Promise<string> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`po-number:${workspaceId}`}))`;
  const prefix = `PO-${now.getUTCFullYear()}-`;
  const rows = await tx.purchaseOrder.findMany({ where: { number: { startsWith: prefix } }, select: { number: true } });
  const highest = rows.reduce((max, row) => {
    const sequence = Number.parseInt(row.number.slice(prefix.length), 10);
    return Number.isSafeInteger(sequence) && sequence > max ? sequence : max;
  }, 0);
  return `${prefix}${String(highest + 1).padStart(4, '0')}`;
}

// ───────────────────────────── Approving and rejecting ─────────────────────────────

export interface ApprovePurchaseOrderOptions {
  purchaseOrderId: string;
  approverSlackUserId: string;
  /** The PO version the approver saw (carried by the button / modal). */
  expectedVersion: number;
  /** Who may approve (APPROVER_SLACK_IDS). */
  approvers: readonly string[];
  /** Above this effective landed cost (USD), two different approvers (PO_DUAL_APPROVAL_ABOVE_USD). */
  dualApprovalAboveUsd: number;
  now?: () => Date;
}

/** Thrown inside a transaction to roll it back when the conditional update finds the PO changed. */
class VersionConflict extends Error {
  override name = 'VersionConflict';
}

/**
 * Records one approver's approval; the last approval needed moves the PO from draft to approved. An approver who
 * already approved gets the PO back unchanged (a double click, a Slack retry). Only an approver id that is in the
 * approvers list can ever approve: there is no other way to reach `approved`.
 */
export async function approvePurchaseOrder(
  db: WorkspaceDb,
  options: ApprovePurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const { purchaseOrderId, approverSlackUserId: approver, expectedVersion } = options;
  const refused = checkApprover(approver, options.approvers, 'approve');
  if (refused) return refused;
  const now = options.now?.() ?? new Date();

  try {
    return await db.$transaction(async (tx): Promise<PurchaseOrderResult> => {
      const po = await loadPurchaseOrder(tx, purchaseOrderId);
      if (po === null) return notFound('This purchase order does not exist.');
      const required = approvalsRequired(po, options.dualApprovalAboveUsd);
      if (po.approvals.some((a) => a.approverSlackUserId === approver)) return alreadyApprovedByYou(po, required);
      if (po.status !== 'draft') return alreadyFinal(po, 'approved');
      if (po.version !== expectedVersion) return conflict(po, required);

      const approvals = po.approvals.length + 1;
      const complete = approvals >= required;
      const { count } = await tx.purchaseOrder.updateMany({
        where: { id: po.id, version: expectedVersion, status: 'draft' },
        data: complete
          ? { status: 'approved', approvedAt: now, version: { increment: 1 } }
          : { version: { increment: 1 } },
      });
      if (count === 0) throw new VersionConflict();
      await tx.purchaseOrderApproval.create({
        data: { workspaceId: db.$workspaceId, purchaseOrderId: po.id, approverSlackUserId: approver, approvedAt: now },
      });
      const audit = auditWriter(tx, db.$workspaceId, approver);
      await audit('purchase_order.approval_recorded', 'purchase_order', po.id, {
        number: po.number,
        approvals,
        required,
        version: expectedVersion + 1,
      });
      if (complete) {
        await audit('purchase_order.approved', 'purchase_order', po.id, {
          number: po.number,
          approvers: [...po.approvals.map((a) => a.approverSlackUserId), approver],
          effectiveLandedCost: po.effectiveLandedCost,
          currency: po.currency,
        });
      }
      const updated = await loadPurchaseOrder(tx, po.id);
      if (updated === null) throw new Error(`PO ${po.id} vanished inside its own transaction`);
      const cost = formatMoney(po.effectiveLandedCost, po.currency);
      return {
        ok: true,
        po: updated,
        changed: true,
        message: complete
          ? `${po.number} is approved (${approvals} of ${required} approval${required === 1 ? '' : 's'}).`
          : `Your approval of ${po.number} is recorded: ${approvals} of ${required} approvals. ` +
            `${needsSecondBecause(po, cost, options.dualApprovalAboveUsd)}`,
      };
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (!isRaceLoss(error)) throw error;
    // Someone acted between our read and our write. If it was this approver (two clicks at once), that is done.
    const po = await loadPurchaseOrder(db, purchaseOrderId);
    if (po === null) return notFound('This purchase order does not exist.');
    const required = approvalsRequired(po, options.dualApprovalAboveUsd);
    if (po.approvals.some((a) => a.approverSlackUserId === approver)) return alreadyApprovedByYou(po, required);
    return po.status === 'draft' ? conflict(po, required) : alreadyFinal(po, 'approved');
  }
}

export interface RejectPurchaseOrderOptions {
  purchaseOrderId: string;
  /** The approver rejecting it. */
  by: string;
  reason: string;
  expectedVersion: number;
  approvers: readonly string[];
  now?: () => Date;
}

/** Rejects a draft with a reason (required, at most 500 characters). Rejecting a rejected PO again changes nothing. */
export async function rejectPurchaseOrder(
  db: WorkspaceDb,
  options: RejectPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  const { purchaseOrderId, by, expectedVersion } = options;
  const refused = checkApprover(by, options.approvers, 'reject');
  if (refused) return refused;
  const reason = options.reason.trim();
  if (reason === '') {
    const message = 'Say why the purchase order is rejected: the buyer will read it.';
    return { ok: false, error: 'invalid_input', message, fieldErrors: { reason: message } };
  }
  if (reason.length > REJECT_REASON_MAX) {
    const message = `Keep the reason to ${REJECT_REASON_MAX} characters (it has ${reason.length}).`;
    return { ok: false, error: 'invalid_input', message, fieldErrors: { reason: message } };
  }
  const now = options.now?.() ?? new Date();

  try {
    return await db.$transaction(async (tx): Promise<PurchaseOrderResult> => {
      const po = await loadPurchaseOrder(tx, purchaseOrderId);
      if (po === null) return notFound('This purchase order does not exist.');
      if (po.status === 'rejected') return alreadyRejected(po);
      if (po.status !== 'draft') return alreadyFinal(po, 'rejected');
      if (po.version !== expectedVersion) return conflict(po, null);

      const { count } = await tx.purchaseOrder.updateMany({
        where: { id: po.id, version: expectedVersion, status: 'draft' },
        data: {
          status: 'rejected',
          rejectedReason: reason,
          rejectedBySlackUserId: by,
          rejectedAt: now,
          version: { increment: 1 },
        },
      });
      if (count === 0) throw new VersionConflict();
      await auditWriter(tx, db.$workspaceId, by)('purchase_order.rejected', 'purchase_order', po.id, {
        number: po.number,
        reason,
        version: expectedVersion + 1,
      });
      const updated = await loadPurchaseOrder(tx, po.id);
      if (updated === null) throw new Error(`PO ${po.id} vanished inside its own transaction`);
      return { ok: true, po: updated, changed: true, message: `${po.number} is rejected. Reason: ${reason}` };
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (!isRaceLoss(error)) throw error;
    const po = await loadPurchaseOrder(db, purchaseOrderId);
    if (po === null) return notFound('This purchase order does not exist.');
    if (po.status === 'rejected') return alreadyRejected(po);
    return po.status === 'draft' ? conflict(po, null) : alreadyFinal(po, 'rejected');
  }
}

/** Lost a race: our conditional update matched nothing, or a concurrent insert took the unique key. */
function isRaceLoss(error: unknown): boolean {
  return error instanceof VersionConflict || isRetryable(error);
}

// ───────────────────────────── Results and messages ─────────────────────────────

function checkApprover(
  user: string,
  approvers: readonly string[],
  verb: 'approve' | 'reject',
): PurchaseOrderResult | null {
  if (approvers.length === 0) {
    return {
      ok: false,
      error: 'not_allowed',
      message: `No PO approvers are configured, so nobody can ${verb} purchase orders yet. Ask an admin to set them.`,
    };
  }
  if (user.trim() === '' || !approvers.includes(user)) {
    return { ok: false, error: 'not_allowed', message: `Only the configured approvers can ${verb} purchase orders.` };
  }
  return null;
}

function notFound(message: string): PurchaseOrderResult {
  return { ok: false, error: 'not_found', message };
}

function conflict(po: PurchaseOrderView, required: number | null): PurchaseOrderResult {
  const progress =
    required !== null && required > 1 && po.approvals.length > 0
      ? ` (it now has ${po.approvals.length} of ${required} approvals)`
      : '';
  return {
    ok: false,
    error: 'conflict',
    message: `${po.number} changed since you opened it${progress}. Open it again to see the latest version.`,
  };
}

function alreadyApprovedByYou(po: PurchaseOrderView, required: number): PurchaseOrderResult {
  const state =
    po.status === 'approved'
      ? `${po.number} is approved.`
      : po.status === 'draft'
        ? `It has ${po.approvals.length} of ${required} approvals.`
        : `${po.number} is ${po.status} now.`;
  return { ok: true, po, changed: false, message: `You have already approved ${po.number}. ${state}` };
}

function alreadyRejected(po: PurchaseOrderView): PurchaseOrderResult {
  const when = po.rejectedAt ? ` on ${day(po.rejectedAt)}` : '';
  return {
    ok: true,
    po,
    changed: false,
    message: `${po.number} was already rejected${when}. Reason: ${po.rejectedReason ?? '(none given)'}`,
  };
}

function alreadyFinal(po: PurchaseOrderView, wanted: 'approved' | 'rejected'): PurchaseOrderResult {
  const verb = wanted === 'approved' ? 'approved' : 'rejected';
  const state =
    po.status === 'approved'
      ? `was already approved${po.approvedAt ? ` on ${day(po.approvedAt)}` : ''}`
      : po.status === 'rejected'
        ? `was rejected${po.rejectedAt ? ` on ${day(po.rejectedAt)}` : ''} (reason: ${po.rejectedReason ?? 'none given'})`
        : 'was replaced by a newer draft';
  return { ok: false, error: 'already_final', message: `${po.number} ${state}, so it cannot be ${verb} now.` };
}

function needsSecondBecause(po: PurchaseOrderView, cost: string, thresholdUsd: number): string {
  return po.currency === 'USD'
    ? `A second approver is needed because its effective landed cost (${cost}) is above ` +
        `${formatMoney(thresholdUsd, 'USD')}.`
    : `A second approver is needed because it is in ${po.currency} and the approval limit is set in USD.`;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// ───────────────────────────── Small helpers ─────────────────────────────

function auditWriter(tx: WorkspaceTx, workspaceId: string, actor: string | null) {
  return async (action: string, entityType: string, entityId: string, data: Record<string, unknown>) => {
    await tx.auditLog.create({
      data: {
        workspaceId,
        actorSlackUserId: actor,
        actorKind: actor === null ? 'system' : 'user',
        action,
        entityType,
        entityId,
        data: toJsonColumn(data),
      },
    });
  };
}

/** Currency amounts as the Decimal(16, 2) columns hold them. */
function money(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2);
}

/** Unit prices as the Decimal(14, 4) column holds them. */
function unitPrice(amount: number): string {
  return (Math.round(amount * 10_000) / 10_000).toFixed(4);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
