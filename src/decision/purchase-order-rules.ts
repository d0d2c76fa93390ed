// A purchase order's rules, pure (seed 002 §6.7, §11): which status may follow which, how many approvals a PO needs and
// who may give them, what a draft holds, and what an approver was shown. The store (src/db/stores/purchase-orders.ts)
// reads and writes the rows; the use cases (src/services/purchase-order/) ask these rules what to do between the two.
//
// A PO is always created as a draft; only people approve it. draft → approved (→ sent, out of scope) | rejected |
// superseded; an approved PO is superseded too when the decision changes again (it was never sent).
import { canonicalJson } from '../canonical-json.js';
import { createHash } from 'node:crypto';
import { formatMoney, toCents } from '../commerce/money.js';
import type { PriceTier } from '../negotiation/types.js';
import type { DecisionNumbers } from './decide.js';
import { basisOfAward, orderLine, otherCostsOf } from './po-document.js';
import type { PurchaseOrderStatus } from './po-workbook.js';

export type { PurchaseOrderStatus };

/** Longest rejection reason (the modal field's limit too). */
export const REJECT_REASON_MAX = 500;

// ───────────────────────────── The PO as read ─────────────────────────────

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
  /** The workspace's own supplier code and name (the quoting supplier keeps its code; the engine calls it SUP-001). */
  supplierCode: string;
  supplierName: string;
  share: number;
  paymentTerms: string;
  leadTimeDays: number;
  incoterm: string | null;
  fobCost: number;
  cashFlowCost: number;
  /** Charges, freight and duty (landed-cost assumptions); 0 on POs drafted before they were counted. */
  otherCosts?: number;
  effectiveLandedCost: number;
  items: PurchaseOrderItemView[];
  /** A connected supplier's acceptance of its part, once approved (who at the supplier, when); absent or null: none. */
  accepted?: { by: string; at: Date } | null;
}

/** A PO's currency and money, as read and as planned. */
export interface PurchaseOrderTotals {
  currency: string;
  fobCost: number;
  cashFlowCost: number;
  /** Charges, freight and duty (landed-cost assumptions); 0 on POs drafted before they were counted. */
  otherCosts?: number;
  splitOverhead: number;
  effectiveLandedCost: number;
}

export interface PurchaseOrderView extends PurchaseOrderTotals {
  id: string;
  number: string;
  status: PurchaseOrderStatus;
  version: number;
  negotiationId: string;
  decisionId: string | null;
  /** The decision writer's summary, shown above the PO in its modal. */
  decisionSummary: string | null;
  /** The workbook's note on why this award, as drafted; null on POs drafted before it was stored. */
  basisOfAward: string | null;
  approvals: { approverSlackUserId: string; approvedAt: Date }[];
  approvedAt: Date | null;
  rejectedReason: string | null;
  rejectedBySlackUserId: string | null;
  rejectedAt: Date | null;
  createdAt: Date;
  allocations: PurchaseOrderAllocationView[];
}

// ───────────────────────────── Transitions ─────────────────────────────

/** Where each status may go. Rejected and superseded are final. */
export const PO_TRANSITIONS: Readonly<Record<PurchaseOrderStatus, readonly PurchaseOrderStatus[]>> = {
  draft: ['approved', 'rejected', 'superseded'],
  approved: ['superseded'],
  rejected: [],
  superseded: [],
};

export function canTransition(from: PurchaseOrderStatus, to: PurchaseOrderStatus): boolean {
  return PO_TRANSITIONS[from].includes(to);
}

/** The statuses a PO may leave for `to`: the condition of the store's conditional update. */
export function statusesLeadingTo(to: PurchaseOrderStatus): PurchaseOrderStatus[] {
  return (Object.keys(PO_TRANSITIONS) as PurchaseOrderStatus[]).filter((from) => canTransition(from, to));
}

// ───────────────────────────── Who approves ─────────────────────────────

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

export type PurchaseOrderError = 'not_allowed' | 'conflict' | 'invalid_input' | 'not_found' | 'already_final';

/** A refusal with the sentence to show the person, and for modals the field errors (block id → message). */
export interface PurchaseOrderRefusal {
  error: PurchaseOrderError;
  message: string;
  fieldErrors?: { reason: string };
}

/** Only a configured approver may approve or reject; with none configured, nobody can. Null: allowed. */
export function approverRefusal(
  user: string,
  approvers: readonly string[],
  verb: 'approve' | 'reject',
): PurchaseOrderRefusal | null {
  if (approvers.length === 0) {
    return {
      error: 'not_allowed',
      message: `No PO approvers are configured, so nobody can ${verb} purchase orders yet. Ask an admin to set them.`,
    };
  }
  if (user.trim() === '' || !approvers.includes(user)) {
    return { error: 'not_allowed', message: `Only the configured approvers can ${verb} purchase orders.` };
  }
  return null;
}

/** Why this person cannot approve this PO from its modal (the modal then shows it read-only), or null when they can. */
export function whyCannotApprove(
  po: Pick<PurchaseOrderView, 'status' | 'approvals'>,
  user: string,
  approvers: readonly string[],
): string | null {
  if (!approvers.includes(user)) return 'Only the configured approvers can approve.';
  if (po.approvals.some((a) => a.approverSlackUserId === user)) return 'You already approved this purchase order.';
  if (!canTransition(po.status, 'approved')) return `This purchase order is ${po.status}.`;
  return null;
}

export type ApprovalStep =
  | { kind: 'refuse'; refusal: PurchaseOrderRefusal }
  /** This approver already approved (a double click, a Slack retry): nothing to do. */
  | { kind: 'unchanged'; message: string }
  /** Record this approval; `complete` when it is the last one needed, which approves the PO. */
  | { kind: 'record'; approvals: number; required: 1 | 2; complete: boolean; message: string };

/**
 * What one approver's approval of `po` (as read now) does, given the version their modal showed. The same person
 * never counts twice; a PO that moved on (another approval, a newer draft) since the modal opened is a conflict.
 */
export function approvalStep(
  po: PurchaseOrderView,
  approver: string,
  rules: { expectedVersion: number; dualApprovalAboveUsd: number },
): ApprovalStep {
  const required = approvalsRequired(po, rules.dualApprovalAboveUsd);
  if (hasApproved(po, approver)) return { kind: 'unchanged', message: alreadyApprovedByYou(po, required) };
  if (!canTransition(po.status, 'approved')) return { kind: 'refuse', refusal: alreadyFinal(po, 'approved') };
  if (po.version !== rules.expectedVersion) return { kind: 'refuse', refusal: conflict(po, required) };
  const approvals = po.approvals.length + 1;
  const complete = approvals >= required;
  const message = complete
    ? `${po.number} is approved (${approvals} of ${required} approval${required === 1 ? '' : 's'}).`
    : `Your approval of ${po.number} is recorded: ${approvals} of ${required} approvals. ` +
      needsSecondBecause(po, rules.dualApprovalAboveUsd);
  return { kind: 'record', approvals, required, complete, message };
}

/** An approval that lost a race (someone acted between its read and its write), given the PO as it is now. */
export function approvalAfterLostRace(
  po: PurchaseOrderView,
  approver: string,
  dualApprovalAboveUsd: number,
): Exclude<ApprovalStep, { kind: 'record' }> {
  const required = approvalsRequired(po, dualApprovalAboveUsd);
  // Two clicks of this approver at once: the other one did it.
  if (hasApproved(po, approver)) return { kind: 'unchanged', message: alreadyApprovedByYou(po, required) };
  return {
    kind: 'refuse',
    refusal: canTransition(po.status, 'approved') ? conflict(po, required) : alreadyFinal(po, 'approved'),
  };
}

function hasApproved(po: Pick<PurchaseOrderView, 'approvals'>, approver: string): boolean {
  return po.approvals.some((a) => a.approverSlackUserId === approver);
}

// ───────────────────────────── Rejecting ─────────────────────────────

/** The reason, trimmed; required (the buyer reads it) and at most REJECT_REASON_MAX characters. */
export function checkRejectReason(raw: string): { ok: true; reason: string } | ({ ok: false } & PurchaseOrderRefusal) {
  const reason = raw.trim();
  if (reason === '') {
    const message = 'Say why the purchase order is rejected: the buyer will read it.';
    return { ok: false, error: 'invalid_input', message, fieldErrors: { reason: message } };
  }
  if (reason.length > REJECT_REASON_MAX) {
    const message = `Keep the reason to ${REJECT_REASON_MAX} characters (it has ${reason.length}).`;
    return { ok: false, error: 'invalid_input', message, fieldErrors: { reason: message } };
  }
  return { ok: true, reason };
}

export type RejectionStep =
  | { kind: 'refuse'; refusal: PurchaseOrderRefusal }
  /** Already rejected (a double click): nothing to do. */
  | { kind: 'unchanged'; message: string }
  | { kind: 'record'; message: string };

/** What rejecting `po` (as read now) with `reason` does, given the version the approver's modal showed. */
export function rejectionStep(po: PurchaseOrderView, expectedVersion: number | null, reason: string): RejectionStep {
  if (po.status === 'rejected') return { kind: 'unchanged', message: alreadyRejected(po) };
  if (!canTransition(po.status, 'rejected')) return { kind: 'refuse', refusal: alreadyFinal(po, 'rejected') };
  if (po.version !== expectedVersion) return { kind: 'refuse', refusal: conflict(po, null) };
  return { kind: 'record', message: `${po.number} is rejected. Reason: ${reason}` };
}

/** A rejection that lost a race, given the PO as it is now. */
export function rejectionAfterLostRace(po: PurchaseOrderView): Exclude<RejectionStep, { kind: 'record' }> {
  const step = rejectionStep(po, null, '');
  return step.kind === 'record' ? { kind: 'refuse', refusal: conflict(po, null) } : step;
}

// ───────────────────────────── Messages ─────────────────────────────

function conflict(po: PurchaseOrderView, required: number | null): PurchaseOrderRefusal {
  const progress =
    required !== null && required > 1 && po.approvals.length > 0
      ? ` (it now has ${po.approvals.length} of ${required} approvals)`
      : '';
  return {
    error: 'conflict',
    message: `${po.number} changed since you opened it${progress}. Open it again to see the latest version.`,
  };
}

function alreadyApprovedByYou(po: PurchaseOrderView, required: number): string {
  const state =
    po.status === 'approved'
      ? `${po.number} is approved.`
      : po.status === 'draft'
        ? `It has ${po.approvals.length} of ${required} approvals.`
        : `${po.number} is ${po.status} now.`;
  return `You have already approved ${po.number}. ${state}`;
}

function alreadyRejected(po: PurchaseOrderView): string {
  const when = po.rejectedAt ? ` on ${day(po.rejectedAt)}` : '';
  return `${po.number} was already rejected${when}. Reason: ${po.rejectedReason ?? '(none given)'}`;
}

function alreadyFinal(po: PurchaseOrderView, wanted: 'approved' | 'rejected'): PurchaseOrderRefusal {
  const state =
    po.status === 'approved'
      ? `was already approved${po.approvedAt ? ` on ${day(po.approvedAt)}` : ''}`
      : po.status === 'rejected'
        ? `was rejected${po.rejectedAt ? ` on ${day(po.rejectedAt)}` : ''} (reason: ${po.rejectedReason ?? 'none given'})`
        : 'was replaced by a newer draft';
  return { error: 'already_final', message: `${po.number} ${state}, so it cannot be ${wanted} now.` };
}

function needsSecondBecause(po: PurchaseOrderView, thresholdUsd: number): string {
  return po.currency === 'USD'
    ? `A second approver is needed because its effective landed cost ` +
        `(${formatMoney(po.effectiveLandedCost, po.currency)}) is above ${formatMoney(thresholdUsd, 'USD')}.`
    : `A second approver is needed because it is in ${po.currency} and the approval limit is set in USD.`;
}

/** "PO-2026-0007: draft, 1 of 2 approvals." */
export function statusSentence(po: PurchaseOrderView, dualApprovalAboveUsd: number): string {
  const required = approvalsRequired(po, dualApprovalAboveUsd);
  return po.status === 'draft'
    ? `${po.number}: draft, ${po.approvals.length} of ${required} approval${required === 1 ? '' : 's'}.`
    : `${po.number}: ${po.status}.`;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// ───────────────────────────── Drafting ─────────────────────────────

/** The database supplier behind an engine role (SUP-001 is the quotation's own supplier), with its own code. */
export interface SupplierRecord {
  id: string;
  /** Null when unknown: the basis of award then names the supplier without a code. */
  code: string | null;
}

/** An allocation as a draft writes it: the view's without the supplier's code and name, lines without a product. */
export type PlannedAllocation = Omit<PurchaseOrderAllocationView, 'supplierCode' | 'supplierName' | 'items'> & {
  items: Omit<PurchaseOrderItemView, 'productId'>[];
};

/** A draft as it will be written: the award's allocations, lines and amounts, and the words of its basis. */
export interface PlannedPurchaseOrder extends PurchaseOrderTotals {
  basisOfAward: string;
  allocations: PlannedAllocation[];
}

export interface PlanOptions {
  /** Default: the decision's currency. */
  currency?: string;
  /** Default: each awarded supplier's own offer incoterm. */
  incoterm?: string | null;
}

/** The PO a decision's award makes, each awarded role paired with its database supplier (resolveSupplierRoles). */
export function planPurchaseOrder(
  numbers: DecisionNumbers,
  suppliers: ReadonlyMap<string, SupplierRecord>,
  options: PlanOptions = {},
): PlannedPurchaseOrder {
  const plan = numbers.allocation;
  return {
    currency: options.currency ?? numbers.currency,
    fobCost: plan.fob,
    cashFlowCost: plan.cashFlowCost,
    otherCosts: otherCostsOf(plan),
    splitOverhead: plan.splitOverhead,
    effectiveLandedCost: plan.effectiveLandedCost,
    basisOfAward: basisOfAward(numbers, (role) => suppliers.get(role)?.code ?? null),
    allocations: numbers.award.map((a) => ({
      supplierId: suppliers.get(a.supplierCode)?.id ?? '',
      share: a.share,
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: options.incoterm === undefined ? a.incoterm : options.incoterm,
      fobCost: a.fob,
      cashFlowCost: a.cashFlowCost,
      otherCosts: otherCostsOf(a),
      effectiveLandedCost: a.effectiveLandedCost,
      items: a.lines.map(orderLine),
    })),
  };
}

export type SupplierResolution = { ok: true; suppliers: Map<string, SupplierRecord> } | { ok: false; message: string };

/**
 * Pairs the engine's supplier roles with database suppliers: the ones given by role, else the negotiation's suppliers
 * matched by code, and a single role left over paired with the single supplier left over (the quoting supplier keeps
 * its own code in the database, the engine calls it SUP-001). Every awarded role must be paired.
 */
export function resolveSupplierRoles(
  numbers: DecisionNumbers,
  source:
    | { given: Readonly<Record<string, SupplierRecord>> }
    | { negotiationSuppliers: readonly { id: string; code: string }[] },
): SupplierResolution {
  const awarded = numbers.award.map((a) => a.supplierCode);
  const roles = numbers.offers.map((o) => o.supplierCode);
  const suppliers = new Map<string, SupplierRecord>();
  if ('given' in source) {
    for (const role of roles) {
      const record = source.given[role];
      if (record) suppliers.set(role, record);
    }
    const missing = awarded.filter((code) => !suppliers.has(code));
    if (missing.length > 0) return { ok: false, message: `No supplier record for ${missing.join(', ')}.` };
    return { ok: true, suppliers };
  }
  const rows = source.negotiationSuppliers;
  for (const role of roles) {
    const row = rows.find((r) => r.code === role);
    if (row) suppliers.set(role, row);
  }
  const unmatchedRoles = roles.filter((role) => !suppliers.has(role));
  const claimed = new Set([...suppliers.values()].map((s) => s.id));
  const unmatchedRows = rows.filter((r) => !claimed.has(r.id));
  const [onlyRole] = unmatchedRoles;
  const [onlyRow] = unmatchedRows;
  if (unmatchedRoles.length === 1 && unmatchedRows.length === 1 && onlyRole && onlyRow) {
    suppliers.set(onlyRole, onlyRow);
  }
  const missing = awarded.filter((code) => !suppliers.has(code));
  if (missing.length > 0) {
    return { ok: false, message: `${missing.join(', ')} is not one of this negotiation's suppliers.` };
  }
  return { ok: true, suppliers };
}

/**
 * Whether a stored PO already says exactly what a plan says (same suppliers, lines, prices and totals, as the
 * database holds them): drafting it again is then a repeat, not a new PO.
 */
export function samePurchaseOrder(a: PlannedPurchaseOrder | PurchaseOrderView, b: PlannedPurchaseOrder): boolean {
  return fingerprint(a) === fingerprint(b);
}

function fingerprint(po: PlannedPurchaseOrder | PurchaseOrderView): string {
  const allocations = po.allocations
    .map((a) => ({
      supplierId: a.supplierId,
      share: a.share.toFixed(4),
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: a.incoterm,
      amounts: [a.fobCost, a.cashFlowCost, a.effectiveLandedCost, ...nonZero(a.otherCosts)].map(poMoney),
      items: a.items
        .map(
          (i) => [i.sku, i.description, i.quantity, poUnitPrice(i.unitPrice), poMoney(i.lineTotal), i.tiers] as const,
        )
        .sort((x, y) => compareText(x[0], y[0])),
    }))
    .sort((x, y) => compareText(x.supplierId, y.supplierId));
  const amounts = [
    po.fobCost,
    po.cashFlowCost,
    po.splitOverhead,
    po.effectiveLandedCost,
    ...nonZero(po.otherCosts),
  ].map(poMoney);
  return JSON.stringify({ currency: po.currency, amounts, allocations });
}

/** Other costs when there are any: a PO without them fingerprints and digests as it did before they were counted. */
function nonZero(amount: number | undefined): number[] {
  return amount === undefined || toCents(amount) === 0 ? [] : [amount];
}

/**
 * PO-YYYY-NNNN: the highest number of the year among `taken` + 1 (more digits after 9999). Numbers of other years
 * and malformed ones are ignored.
 */
export function nextPurchaseOrderNumber(now: Date, taken: readonly string[]): string {
  const prefix = purchaseOrderNumberPrefix(now);
  const highest = taken.reduce((max, number) => {
    if (!number.startsWith(prefix)) return max;
    const sequence = Number.parseInt(number.slice(prefix.length), 10);
    return Number.isSafeInteger(sequence) && sequence > max ? sequence : max;
  }, 0);
  return `${prefix}${String(highest + 1).padStart(4, '0')}`;
}

/** "PO-2026-": the year's numbers start with it. */
export function purchaseOrderNumberPrefix(now: Date): string {
  return `PO-${now.getUTCFullYear()}-`;
}

/** A PO amount as the PO holds it: whole cents, as a decimal string. */
export function poMoney(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2);
}

/** A unit price as the PO holds it: negotiated prices carry up to a hundredth of a cent. */
export function poUnitPrice(amount: number): string {
  return (Math.round(amount * 10_000) / 10_000).toFixed(4);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ───────────────────────────── What the approver saw ─────────────────────────────

/**
 * The PO as its modal shows it to an approver, in a canonical form: its number and version, its currency and totals,
 * and each supplier's terms, amounts and lines, in the order shown. Amounts are decimal strings as the PO holds them,
 * so a float's last digit cannot change the digest.
 */
export function shownPurchaseOrder(po: PurchaseOrderView) {
  return {
    number: po.number,
    version: po.version,
    currency: po.currency,
    fobCost: poMoney(po.fobCost),
    cashFlowCost: poMoney(po.cashFlowCost),
    splitOverhead: poMoney(po.splitOverhead),
    effectiveLandedCost: poMoney(po.effectiveLandedCost),
    ...(nonZero(po.otherCosts).length === 0 ? {} : { otherCosts: poMoney(po.otherCosts ?? 0) }),
    allocations: po.allocations.map((a) => ({
      supplier: { code: a.supplierCode, name: a.supplierName },
      share: a.share.toFixed(4),
      paymentTerms: a.paymentTerms,
      leadTimeDays: a.leadTimeDays,
      incoterm: a.incoterm,
      fobCost: poMoney(a.fobCost),
      cashFlowCost: poMoney(a.cashFlowCost),
      effectiveLandedCost: poMoney(a.effectiveLandedCost),
      ...(nonZero(a.otherCosts).length === 0 ? {} : { otherCosts: poMoney(a.otherCosts ?? 0) }),
      lines: a.items.map((i) => ({
        sku: i.sku,
        description: i.description,
        quantity: i.quantity,
        unitPrice: poUnitPrice(i.unitPrice),
        lineTotal: poMoney(i.lineTotal),
      })),
    })),
  };
}

/** sha256 (hex) of the canonical JSON of the PO as shown: stored with each approval, it says what was approved. */
export function purchaseOrderDigest(po: PurchaseOrderView): string {
  return createHash('sha256')
    .update(canonicalJson(shownPurchaseOrder(po)))
    .digest('hex');
}

export { canonicalJson };
