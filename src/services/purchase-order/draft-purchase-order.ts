// Drafting the PO of a concluded negotiation (seed 002 §6.7): the decision and its draft PO, in one transaction, with
// everything the approved workbook will need — so what is approved later is what was drafted now, whatever the
// business rules or the checkpoint say by then.
//
// Concurrency. Drafting locks the negotiation row first, so two drafts of one negotiation run one after the other and
// the second finds the first. PO numbers (PO-YYYY-NNNN, unique per workspace) are the highest this year + 1, read
// under a per-workspace advisory lock; a transaction that still loses a race for a number (or a write conflict) is
// tried again from the top.
import { writeAudit } from '../../db/audit.js';
import type { DecisionNumbers } from '../../decision/decide.js';
import type { DecisionText } from '../../decision/write-decision.js';
import {
  nextPurchaseOrderNumber,
  planPurchaseOrder,
  resolveSupplierRoles,
  samePurchaseOrder,
  statusesLeadingTo,
  type SupplierRecord,
} from '../../decision/purchase-order-rules.js';
import {
  insertDraftPurchaseOrder,
  isWriteRace,
  listPurchaseOrdersOf,
  loadLatestPurchaseOrder,
  loadNegotiationSuppliers,
  loadPurchaseOrder,
  loadSupplierCodes,
  lockAndListPurchaseOrderNumbers,
  lockNegotiation,
  markSuperseded,
  PO_TRANSACTION_OPTIONS,
  saveDecision,
} from '../../db/stores/purchase-orders.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { formatMoney } from '../../commerce/money.js';
import { refused } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { purchaseOrderDone, type PurchaseOrderResult } from './purchase-order-result.js';

/** Drafts tried again after losing a race for a PO number. */
const NUMBER_ATTEMPTS = 8;

export interface DraftPurchaseOrderOptions {
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
}

/**
 * Records the decision and drafts its PO in one transaction: the Decision row (created, or updated when the decision
 * changed), a `draft` PO with a new number, its allocations, lines and basis of award, any earlier live PO of the
 * negotiation marked `superseded`, and audit rows. Idempotent: when the latest PO of the negotiation already says
 * exactly this (same suppliers, lines, prices and totals) it is returned unchanged — also when it was rejected, so a
 * retried job cannot put a refused award back in front of the approvers unchanged.
 */
export async function draftPurchaseOrder(
  ctx: ServiceContext,
  options: DraftPurchaseOrderOptions,
): Promise<PurchaseOrderResult> {
  for (let attempt = 1; ; attempt++) {
    let result: PurchaseOrderResult | Drafted;
    try {
      result = await ctx.db.$transaction((tx) => draftIn(tx, ctx.now(), options), PO_TRANSACTION_OPTIONS);
    } catch (error) {
      if (attempt < NUMBER_ATTEMPTS && isWriteRace(error)) continue;
      throw error;
    }
    if (!('drafted' in result)) return result;
    // Read back after the commit: a 3,000-line PO through Prisma is most of a second that the transaction (on PGlite,
    // the only connection) need not hold. What the thread shows of it (number, totals) no later change alters.
    const po = await loadPurchaseOrder(ctx.db, result.drafted);
    if (po === null) throw new Error(`PO ${result.drafted} vanished after its draft`);
    return purchaseOrderDone(po, result.message, true);
  }
}

/** A new draft, committed: its id and the sentence about it. */
interface Drafted {
  drafted: string;
  message: string;
}

async function draftIn(
  tx: WorkspaceTx,
  now: Date,
  options: DraftPurchaseOrderOptions,
): Promise<PurchaseOrderResult | Drafted> {
  const { negotiationId, numbers, text } = options;
  const actor = options.actorSlackUserId ?? null;

  if (!(await lockNegotiation(tx, negotiationId, now))) {
    return refused('not_found', 'This negotiation no longer exists.');
  }
  const resolved = resolveSupplierRoles(
    numbers,
    options.supplierIds === undefined
      ? { negotiationSuppliers: await loadNegotiationSuppliers(tx, negotiationId) }
      : { given: await givenSuppliers(tx, options.supplierIds) },
  );
  if (!resolved.ok) return refused('not_found', resolved.message);
  const planned = planPurchaseOrder(numbers, resolved.suppliers, options);

  const latest = await loadLatestPurchaseOrder(tx, negotiationId);
  if (latest !== null && samePurchaseOrder(latest, planned)) {
    return purchaseOrderDone(latest, `${latest.number} already holds this award.`, false);
  }

  const decision = await saveDecision(tx, negotiationId, numbers, text);
  await writeAudit(tx, actor, {
    action: decision.revised ? 'decision.revised' : 'decision.recorded',
    entityType: 'decision',
    entityId: decision.id,
    data: { negotiationId, recommendation: numbers.recommendation.supplierCodes, writer: text.writer },
  });

  const supersedable = statusesLeadingTo('superseded');
  const live = await listPurchaseOrdersOf(tx, negotiationId, supersedable);
  const number = nextPurchaseOrderNumber(now, await lockAndListPurchaseOrderNumbers(tx, now));
  const id = await insertDraftPurchaseOrder(tx, { negotiationId, decisionId: decision.id, number, planned });
  if (live.length > 0) {
    await markSuperseded(
      tx,
      live.map((p) => p.id),
      supersedable,
    );
    for (const old of live) {
      await writeAudit(tx, actor, {
        action: 'purchase_order.superseded',
        entityType: 'purchase_order',
        entityId: old.id,
        data: { number: old.number, previousStatus: old.status, supersededBy: number },
      });
    }
  }
  await writeAudit(tx, actor, {
    action: 'purchase_order.drafted',
    entityType: 'purchase_order',
    entityId: id,
    data: {
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
    },
  });

  const replaced = live.length > 0 ? ` It replaces ${live.map((p) => p.number).join(', ')}.` : '';
  return {
    drafted: id,
    message:
      `Drafted ${number}: ${formatMoney(planned.effectiveLandedCost, planned.currency)} effective landed cost, ` +
      `waiting for approval.${replaced}`,
  };
}

/** The suppliers given by role, with their codes (a code unknown here leaves the basis of award naming them only). */
async function givenSuppliers(
  tx: WorkspaceTx,
  supplierIds: Readonly<Record<string, string>>,
): Promise<Record<string, SupplierRecord>> {
  const codes = await loadSupplierCodes(tx, Object.values(supplierIds));
  return Object.fromEntries(
    Object.entries(supplierIds).map(([role, id]) => [role, { id, code: codes.get(id) ?? null }]),
  );
}
