import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, premiumChoiceCodec } from '../ids.js';
import { buildDecision, type DecisionModel } from './decision.js';
import { acceptedPremiumNote, buildNoAward, type NoAwardModel, type PremiumOffer, premiumBlocks } from './premium.js';
import { HOSTILE, buttons, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const NEGOTIATION = 'clnegotiation0000000000001';

const offer: PremiumOffer = {
  negotiationId: NEGOTIATION,
  optionId: 'p1a2b3c',
  question: 'Pay $1,547.01 more for 33 days sooner?',
  names: ['RapidGear Co'],
  effectiveLandedCost: 131_126.61,
  leadTimeDays: 12,
  overQuote: 1_547.01,
  quoteLandedCost: 129_579.6,
};

const noAward: NoAwardModel = {
  currency: 'USD',
  why: 'every possible award costs more than the walk-away',
  closest: [
    {
      names: ['Ningbo Everbright'],
      effectiveLandedCost: 118_200,
      leadTimeDays: 45,
      violations: ['$3,200.00 above the $115,000.00 walk-away'],
    },
    {
      names: ['Ningbo Everbright', 'Alpine Premium'],
      effectiveLandedCost: 121_000,
      leadTimeDays: 30,
      violations: ['$5,500.00 above the $115,000.00 walk-away'],
    },
  ],
  premium: null,
};

describe('premiumBlocks', () => {
  it('offers the premium award with the decision’s words on a button that names the offer, behind a confirmation', () => {
    const blocks = premiumBlocks(offer, 'USD');
    const [button] = buttons({ blocks });
    expect(button).toMatchObject({ actionId: ACTION.decisionAcceptPremium, blockId: BLOCK.decisionPremium });
    expect(button?.text).toBe('Pay $1,547.01 more for 33 days sooner?');
    expect(premiumChoiceCodec.decode(button?.value)).toEqual({ n: NEGOTIATION, p: 'p1a2b3c' });
    expect(button?.raw.confirm).toMatchObject({ confirm: { text: 'Accept' }, deny: { text: 'Cancel' } });
    const text = visibleText({ blocks });
    expect(text).toContain('*RapidGear Co*, $131,126.61 landed, complete in 12 days');
    expect(text).toContain("$1,547.01 above the quote's landed cost of $129,579.60");
    expectNoViolations({ text: 'x', blocks }, 'message');
  });

  it('keeps a long question within a button and hostile names out of the markup', () => {
    const long = { ...offer, question: `Pay ${'$9,999,999.99 '.repeat(8)}more?`, names: [HOSTILE.repeat(10)] };
    const blocks = premiumBlocks(long, HOSTILE);
    expectNoViolations({ text: 'x', blocks }, 'message');
    expectNoInjection({ blocks });
    expect(buttons({ blocks })[0]?.text?.length).toBeLessThanOrEqual(75);
  });

  it('notes an accepted premium with who accepted it', () => {
    const note = acceptedPremiumNote({ by: 'U0BUYER001', amountOverQuote: 1_547.01 }, 'USD');
    expect(visibleText({ blocks: [note] })).toContain(
      'up to $1,547.01 above its landed cost, accepted by <@U0BUYER001>',
    );
  });
});

describe('buildNoAward', () => {
  it('says nothing can be awarded, why, and lists the closest options with what each breaks; no PO', () => {
    const message = buildNoAward(noAward);
    expectNoViolations(message, 'message');
    expect(message.text).toBe('No award within your mandate: Every possible award costs more than the walk-away.');
    const text = visibleText(message);
    expect(text).toContain('*No award within your mandate.* Every possible award costs more than the walk-away.');
    expect(text).toContain(
      '• *Ningbo Everbright*: $118,200.00 landed, 45 days. $3,200.00 above the $115,000.00 walk-away',
    );
    expect(text).toContain('*Ningbo Everbright* and *Alpine Premium*: $121,000.00 landed, 30 days.');
    expect(text).toContain('No purchase order was drafted.');
    expect(buttons(message)).toEqual([]);
  });

  it('offers the premium’s button when consent would make an award', () => {
    const message = buildNoAward({ ...noAward, why: 'no supplier meets the deadline', premium: offer });
    expectNoViolations(message, 'message');
    expect(buttons(message).map((b) => b.actionId)).toEqual([ACTION.decisionAcceptPremium]);
    expect(visibleText(message)).toContain('accept the premium above for one');
  });

  it('stays within the limits with many hostile options', () => {
    const many = Array.from({ length: 20 }, () => ({
      names: [HOSTILE.repeat(5), HOSTILE],
      effectiveLandedCost: 1e11,
      leadTimeDays: 3650,
      violations: [HOSTILE.repeat(30)],
    }));
    const message = buildNoAward({ currency: HOSTILE, why: HOSTILE.repeat(100), closest: many, premium: offer });
    expectNoViolations(message, 'message');
    expectNoInjection(message);
  });
});

describe('the recommendation with a premium', () => {
  const base: DecisionModel = {
    currency: 'USD',
    modeLabel: 'Speed',
    recommendation: {
      shares: [{ supplierName: 'Ningbo Everbright', share: 1 }],
      isSplit: false,
      forcedSplit: false,
      leadTimeDays: 45,
      awardedTotal: 122_449,
      awardedLandedCost: 129_579.6,
    },
    summary: 'Award the whole order to Ningbo Everbright.',
    tradeOffs: '',
    cheapestNotChosenReason: null,
    scores: [],
    offers: [],
    savings: {
      baselineTotal: 125_000,
      identified: { amount: 2_551, share: 0.0204, bestOfferName: 'Ningbo Everbright' },
      awarded: { amount: 1_000, share: 0.0077, landedAgainst: 130_579.6 },
    },
    purchaseOrder: { id: 'clpurchaseorder0000000001', number: 'PO-2026-0001', approverIds: [] },
  };

  it('shows the within-quote award’s PO button and, beside it, the premium’s', () => {
    const message = buildDecision({ ...base, premium: offer });
    expectNoViolations(message, 'message');
    expect(buttons(message).map((b) => b.actionId)).toEqual([ACTION.decisionAcceptPremium, ACTION.decisionOpenPo]);
    expect(visibleText(message)).toContain("on landed cost, against the quote's $130,579.60 landed");
  });

  it('shows no premium button without an offer, and says when the award includes an accepted premium', () => {
    const plain = buildDecision(base);
    expect(buttons(plain).map((b) => b.actionId)).toEqual([ACTION.decisionOpenPo]);
    const accepted = buildDecision({ ...base, acceptedPremium: { by: 'U0BUYER001', amountOverQuote: 1_547.01 } });
    expect(visibleText(accepted)).toContain('accepted by <@U0BUYER001>');
  });
});
