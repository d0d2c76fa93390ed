// The buyer accepts a premium: an award above the quote's landed cost, offered under the recommendation or under the
// no-award message (decide.ts PremiumOption). Paying more than the quote takes this click. The click is
// checked against a fresh decision — the offer must still be the one on the table — and recorded as a consent in the
// buyer's mandate, in the checkpoint, with its version check; the negotiation is then concluded again, by the caller,
// in the background: a new decision and a PO draft that replaces the unapproved one, posted in the thread.
//
// Idempotent: a second click of the same offer records nothing; it only resumes a conclusion not yet posted (the
// quotation is `negotiating` again from the consent until the new recommendation is out, so pg-boss's retry or
// queue-unqueued-work also finishes it after a crash). Refused once a PO of the negotiation is approved: approval is final.
import { writeAudit } from '../../db/audit.js';
import { decisionInputFromState, offeredPremium } from '../../decision/decide.js';
import { loadCheckpoint, saveStep, StaleStepError } from '../../db/stores/negotiation-store.js';
import { recordConsent } from '../../negotiation/mandate.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';

export interface AcceptPremiumOptions {
  negotiationId: string;
  /** The offer the button carried. */
  optionId: string;
  by: string;
}

/** `resume`: the negotiation must be concluded again (the caller drives it). */
export async function acceptPremium(
  ctx: ServiceContext,
  options: AcceptPremiumOptions,
): Promise<ServiceResult<{ resume: boolean }>> {
  const { negotiationId, optionId, by } = options;
  const negotiation = await ctx.db.negotiation.findUnique({
    where: { id: negotiationId },
    select: { status: true, quotation: { select: { id: true, status: true, uploadedBySlackUserId: true } } },
  });
  if (!negotiation) return refused('not_found', 'This negotiation no longer exists.');
  const { quotation } = negotiation;
  if (!mayWorkOnQuotation(by, quotation.uploadedBySlackUserId, ctx.workspace.settings)) {
    return refused(
      'not_allowed',
      `Only <@${quotation.uploadedBySlackUserId}>, who shared the quotation, and the approvers can accept a premium.`,
    );
  }
  if (negotiation.status !== 'completed') {
    return refused('conflict', 'This negotiation is not decided yet, so there is no premium to accept.');
  }
  const approved = await ctx.db.purchaseOrder.findFirst({
    where: { negotiationId, status: 'approved' },
    select: { number: true },
  });
  if (approved) {
    return refused('already_final', `${approved.number} is already approved: that award stands, and nothing changed.`);
  }

  const { state, version } = await loadCheckpoint(ctx.db, negotiationId);
  const accepted = (consents: typeof state.mandate.premiumConsents) => consents.some((c) => c.optionId === optionId);
  // Accepted already (a double click, a retry): conclude again only while the new recommendation is not out.
  if (accepted(state.mandate.premiumConsents)) return done({ resume: quotation.status === 'negotiating' }, false);

  const offer = offeredPremium(await ctx.compute.decide(decisionInputFromState(state)));
  if (offer === null || offer.id !== optionId) {
    return refused(
      'conflict',
      'This offer is no longer on the table: the recommendation changed. Nothing was changed.',
    );
  }
  const mandate = recordConsent(state.mandate, {
    optionId,
    amountOverQuote: offer.overQuote,
    reasons: offer.reasons,
    supplierCodes: offer.supplierCodes,
    by,
    at: ctx.now().toISOString(),
  });
  try {
    await saveStep(ctx.db, negotiationId, version, { state: { ...state, mandate }, events: [] }, async (tx) => {
      // The conclusion is open again until the new recommendation is posted.
      await tx.quotation.updateMany({
        where: { id: quotation.id, status: { in: ['completed', 'failed'] } },
        data: { status: 'negotiating', errorCode: null, errorMessage: null },
      });
      await writeAudit(tx, by, {
        action: 'negotiation.premium_accepted',
        entityType: 'negotiation',
        entityId: negotiationId,
        data: { optionId, amountOverQuote: offer.overQuote, suppliers: offer.supplierCodes, reasons: offer.reasons },
      });
    });
  } catch (error) {
    if (!(error instanceof StaleStepError)) throw error;
    // Saved from the same checkpoint at the same moment: the other click's consent, or another change.
    const now = await loadCheckpoint(ctx.db, negotiationId);
    if (accepted(now.state.mandate.premiumConsents)) return done({ resume: false }, false);
    return refused('conflict', 'The negotiation changed at the same moment. Nothing was changed: try again.');
  }
  return done({ resume: true });
}
