import { describe, expect, it } from 'vitest';
import { IMPASSE, ROUNDS } from '../config/business-rules.js';
import {
  checkForImpasse,
  DEFAULT_IMPASSE_CONFIG,
  IMPASSE_CONTINUE_ANSWER,
  ImpasseDetector,
  impasseQuestion,
  impasseTopic,
  impasseTopicSupplier,
  isExplicitRejection,
  readImpasseAnswer,
  triesDifferentApproach,
} from './impasse.js';
import { OfferTracker, type OfferSource } from './offers.js';
import type { Offer } from './types.js';

/** Seed 000's tests speak of a unit price; here an offer of one unit, so its total is that price. */
const offer = (unitPrice: number, overrides: Partial<Offer> = {}): Offer => ({
  supplierCode: 'SUP-001',
  round: 0,
  lines: [{ sku: 'MC001-BON-XL', quantity: 1, unitPrice, tiers: [] }],
  total: unitPrice,
  leadTimeDays: 30,
  paymentTerms: '30/70',
  incoterm: null,
  currency: 'USD',
  concessions: [],
  conditions: [],
  capacityShare: 1,
  ...overrides,
});
const add = (tracker: OfferTracker, round: number, source: OfferSource, unitPrice: number, extra?: Partial<Offer>) =>
  tracker.addOffer({ round, source, offer: offer(unitPrice, { round, ...extra }) });

describe('Impasse Detector (seed 000)', () => {
  describe('maxRoundsReached', () => {
    it('should detect impasse when max rounds exceeded', () => {
      const detector = new ImpasseDetector({ maxRounds: 5 });
      const tracker = new OfferTracker('SUP-001');

      const result = detector.detect({ round: 6, tracker });

      expect(result.isImpasse).toBe(true);
      expect(result.conditions.maxRoundsReached).toBe(true);
      expect(result.primaryReason).toBe('max_rounds');
    });

    it('counts the last round itself as reaching the limit, and not the one before', () => {
      const detector = new ImpasseDetector({ maxRounds: 4 });
      const tracker = new OfferTracker('SUP-001');
      expect(detector.detect({ round: 4, tracker }).conditions.maxRoundsReached).toBe(true);
      expect(detector.detect({ round: 3, tracker }).isImpasse).toBe(false);
    });

    it('is no impasse when both sides agreed in the last round', () => {
      const detector = new ImpasseDetector({ maxRounds: 4 });
      const result = detector.detect({ round: 4, tracker: new OfferTracker('SUP-001'), agreed: true });
      expect(result.isImpasse).toBe(false);
    });
  });

  describe('explicitRejection', () => {
    it('should detect impasse on explicit rejection', () => {
      const detector = new ImpasseDetector();
      const tracker = new OfferTracker('SUP-001');

      const result = detector.detect({ round: 2, tracker, explicitRejection: true });

      expect(result.isImpasse).toBe(true);
      expect(result.conditions.explicitRejection).toBe(true);
      expect(result.primaryReasonText).toContain('rejection');
      expect(result.primaryReason).toBe('rejected');
      expect(result.details).toBe('Negotiation explicitly ended by one party.');
    });
  });

  describe('noProgressInRounds', () => {
    it('should detect impasse when prices stagnate', () => {
      const detector = new ImpasseDetector({ progressWindowSize: 3 });
      const tracker = new OfferTracker('SUP-001');

      add(tracker, 0, 'supplier', 30);
      add(tracker, 1, 'supplier', 30);
      add(tracker, 2, 'supplier', 30);

      const result = detector.detect({ round: 3, tracker });

      expect(result.conditions.noProgressInRounds).toBe(true);
      expect(result.primaryReason).toBe('no_progress');
      expect(result.details).toBe('No price improvement in the last 3 offers.');
    });

    it('should not flag impasse when prices improve', () => {
      const detector = new ImpasseDetector({ progressWindowSize: 3 });
      const tracker = new OfferTracker('SUP-001');

      add(tracker, 0, 'supplier', 30);
      add(tracker, 1, 'supplier', 28);
      add(tracker, 2, 'supplier', 26);

      const result = detector.detect({ round: 3, tracker });

      expect(result.conditions.noProgressInRounds).toBe(false);
      expect(result.isImpasse).toBe(false);
    });

    it('does not call a stall before the window has filled', () => {
      const detector = new ImpasseDetector({ progressWindowSize: 3 });
      const tracker = new OfferTracker('SUP-001');
      add(tracker, 0, 'quotation', 30);
      add(tracker, 1, 'supplier', 30);
      expect(detector.detect({ round: 1, tracker }).conditions.noProgressInRounds).toBe(false);
    });
  });

  describe('priceGapTooLarge', () => {
    it('should detect impasse when price gap exceeds threshold', () => {
      const detector = new ImpasseDetector({ priceGapThreshold: 0.2 });
      const tracker = new OfferTracker('SUP-001');

      add(tracker, 0, 'brand', 20);
      add(tracker, 0, 'supplier', 30);

      const result = detector.detect({ round: 1, tracker });

      // Gap is 50%, threshold is 20%
      expect(result.conditions.priceGapTooLarge).toBe(true);
      expect(result.primaryReason).toBe('price_gap');
      expect(result.details).toBe('Price gap of $10.00 (50% above $20.00) exceeds the 20% threshold.');
    });

    it("measures the gap against the buyer's target until the brand counters", () => {
      const detector = new ImpasseDetector({ priceGapThreshold: 0.2 });
      const tracker = new OfferTracker('SUP-001');
      add(tracker, 1, 'supplier', 30);
      expect(detector.detect({ round: 1, tracker, targetTotal: 24 }).conditions.priceGapTooLarge).toBe(true);
      expect(detector.detect({ round: 1, tracker, targetTotal: 25 }).conditions.priceGapTooLarge).toBe(false);
      expect(detector.detect({ round: 1, tracker }).conditions.priceGapTooLarge).toBe(false);
    });

    it('is no gap when the supplier is cheaper than the reference', () => {
      const detector = new ImpasseDetector({ priceGapThreshold: 0.2 });
      const tracker = new OfferTracker('SUP-001');
      add(tracker, 1, 'supplier', 10);
      expect(detector.detect({ round: 1, tracker, targetTotal: 30 }).conditions.priceGapTooLarge).toBe(false);
    });
  });

  describe('leadTimeUnacceptable', () => {
    it('should detect impasse when lead time exceeds limit', () => {
      const detector = new ImpasseDetector({ maxAcceptableLeadTimeDays: 45 });
      const tracker = new OfferTracker('SUP-001');

      add(tracker, 0, 'supplier', 25, { leadTimeDays: 60, paymentTerms: '30/70' });

      const result = detector.detect({ round: 1, tracker });

      expect(result.conditions.leadTimeUnacceptable).toBe(true);
      expect(result.primaryReason).toBe('lead_time');
      expect(result.details).toBe('Lead time of 60 days exceeds the 45-day limit.');
    });

    it('accepts a lead time exactly at the limit, and judges the supplier, not the brand', () => {
      const detector = new ImpasseDetector({ maxAcceptableLeadTimeDays: 45 });
      const tracker = new OfferTracker('SUP-001');
      add(tracker, 0, 'supplier', 25, { leadTimeDays: 45 });
      add(tracker, 0, 'brand', 24, { leadTimeDays: 90 });
      expect(detector.detect({ round: 1, tracker }).conditions.leadTimeUnacceptable).toBe(false);
    });

    it('has no lead-time condition unless the buyer set a limit: no hidden rule decides what is too slow', () => {
      const tracker = new OfferTracker('SUP-001');
      for (const days of [30, 60, 90, 365]) add(tracker, days, 'supplier', 25 - days / 100, { leadTimeDays: days });
      expect(new ImpasseDetector().detect({ round: 1, tracker }).conditions.leadTimeUnacceptable).toBe(false);
      expect(
        new ImpasseDetector({ maxAcceptableLeadTimeDays: null }).detect({ round: 1, tracker }).conditions
          .leadTimeUnacceptable,
      ).toBe(false);
    });
  });

  describe('combined conditions', () => {
    it('should report multiple impasse reasons', () => {
      const detector = new ImpasseDetector({ maxRounds: 5, priceGapThreshold: 0.1 });
      const tracker = new OfferTracker('SUP-001');

      add(tracker, 0, 'brand', 20);
      add(tracker, 0, 'supplier', 30);

      const result = detector.detect({ round: 6, tracker });

      expect(result.isImpasse).toBe(true);
      expect(result.conditions.maxRoundsReached).toBe(true);
      expect(result.conditions.priceGapTooLarge).toBe(true);
      expect(result.primaryReason).toBe('price_gap');
      expect(result.details).toBe(
        'Price gap of $10.00 (50% above $20.00) exceeds the 10% threshold. ' +
          'Maximum 5 rounds reached without agreement.',
      );
    });

    it("follows the seed's precedence: rejection, price gap, no progress, max rounds, lead time", () => {
      const detector = new ImpasseDetector({
        maxRounds: 3,
        progressWindowSize: 2,
        priceGapThreshold: 0.1,
        maxAcceptableLeadTimeDays: 60,
      });
      const tracker = new OfferTracker('SUP-001');
      add(tracker, 0, 'brand', 20);
      add(tracker, 1, 'supplier', 30, { leadTimeDays: 90 });
      add(tracker, 2, 'supplier', 30, { leadTimeDays: 90 });
      const all = { round: 3, tracker };

      const result = detector.detect({ ...all, explicitRejection: true });
      expect(Object.values(result.conditions).every(Boolean)).toBe(true);
      expect(result.primaryReason).toBe('rejected');
      expect(result.details.split('. ')).toHaveLength(5);
      expect(detector.detect(all).primaryReason).toBe('price_gap');
      expect(detector.detect({ ...all, targetTotal: null }).primaryReason).toBe('price_gap');

      const noGap = new OfferTracker('SUP-001', tracker.supplierOffers());
      expect(detector.detect({ round: 3, tracker: noGap }).primaryReason).toBe('no_progress');
      const improving = new OfferTracker('SUP-001');
      add(improving, 1, 'supplier', 30, { leadTimeDays: 90 });
      add(improving, 2, 'supplier', 29, { leadTimeDays: 90 });
      expect(detector.detect({ round: 3, tracker: improving }).primaryReason).toBe('max_rounds');
      expect(detector.detect({ round: 2, tracker: improving }).primaryReason).toBe('lead_time');
      expect(detector.detect({ round: 2, tracker: new OfferTracker('SUP-001') })).toEqual({
        isImpasse: false,
        conditions: {
          maxRoundsReached: false,
          explicitRejection: false,
          noProgressInRounds: false,
          priceGapTooLarge: false,
          leadTimeUnacceptable: false,
        },
        primaryReason: null,
        primaryReasonText: null,
        details: '',
      });
    });
  });

  describe('configuration', () => {
    it("defaults to the business rules and the default round limit; a negotiation's own limit overrides it", () => {
      // The lead-time limit is the buyer's (the mandate's): there is none by default.
      expect(new ImpasseDetector().config).toEqual({
        maxRounds: ROUNDS.default,
        ...IMPASSE,
        maxAcceptableLeadTimeDays: null,
      });
      expect(DEFAULT_IMPASSE_CONFIG.maxRounds).toBe(ROUNDS.default);
      expect(new ImpasseDetector({ maxRounds: 2 }).config.maxRounds).toBe(2);
    });

    it('rejects a configuration that cannot work', () => {
      expect(() => new ImpasseDetector({ maxRounds: 0 })).toThrow(RangeError);
      expect(() => new ImpasseDetector({ progressWindowSize: 1 })).toThrow(RangeError);
      expect(() => new ImpasseDetector({ priceGapThreshold: 0 })).toThrow(RangeError);
      expect(() => new ImpasseDetector({ maxAcceptableLeadTimeDays: Number.NaN })).toThrow(RangeError);
    });

    it('checkForImpasse is the one-shot form', () => {
      const result = checkForImpasse({ round: 2, tracker: new OfferTracker('SUP-001') }, { maxRounds: 2 });
      expect(result.primaryReason).toBe('max_rounds');
      expect(result.details).toBe('Maximum 2 rounds reached without agreement.');
    });
  });
});

describe('isExplicitRejection', () => {
  it('treats WALK_AWAY, and a REJECT that ends the negotiation, as explicit rejection', () => {
    expect(isExplicitRejection({ type: 'WALK_AWAY', payload: {} })).toBe(true);
    expect(isExplicitRejection({ type: 'REJECT', payload: { isNegotiationEnded: true } })).toBe(true);
  });

  it('does not treat rejecting one offer, or any other action, as ending the talks', () => {
    expect(isExplicitRejection({ type: 'REJECT', payload: {} })).toBe(false);
    expect(isExplicitRejection({ type: 'REJECT', payload: { isNegotiationEnded: 'yes' } })).toBe(false);
    expect(isExplicitRejection({ type: 'COUNTER_OFFER', payload: { isNegotiationEnded: true } })).toBe(false);
    expect(isExplicitRejection({ type: 'TIMEOUT_END', payload: {} })).toBe(false);
  });
});

describe('asking the buyer about an impasse', () => {
  it('asks with two buttons, going on first, and says why and what ending means', () => {
    const walked = impasseQuestion('Alpine Premium', 'rejected', 'Negotiation explicitly ended by one party.', 1);
    expect(walked.suggestedAnswers).toEqual([IMPASSE_CONTINUE_ANSWER, 'End talks with Alpine Premium']);
    expect(walked.question).toContain('it walked away');
    expect(walked.question).toContain('1 round left');
    expect(walked.question).toContain('its offer is withdrawn');
    const stalled = impasseQuestion('RapidGear Co', 'no_progress', 'No price improvement in the last 3 offers.', 2);
    expect(stalled.question).toContain('No price improvement in the last 3 offers.');
    expect(stalled.question).toContain('its last offer stays in the comparison');
    // Slack limits a button's text to 75 characters.
    for (const text of stalled.suggestedAnswers) expect(text.length).toBeLessThanOrEqual(75);
  });

  it('reads the end button and replies that say stop as ending; anything else goes on', () => {
    expect(readImpasseAnswer('End talks with Alpine Premium')).toBe('end');
    expect(readImpasseAnswer('stop talking to them')).toBe('end');
    expect(readImpasseAnswer('No, drop them')).toBe('end');
    expect(readImpasseAnswer(IMPASSE_CONTINUE_ANSWER)).toBe('continue');
    expect(readImpasseAnswer('keep trying, offer them our standard terms')).toBe('continue');
  });

  it('names the supplier in the topic, so the brand knows whose talks changed approach', () => {
    expect(impasseTopicSupplier(impasseTopic('SUP-002'))).toBe('SUP-002');
    expect(impasseTopicSupplier('lead_time')).toBeNull();
    expect(impasseTopicSupplier(null)).toBeNull();
    const answered = [{ topic: impasseTopic('SUP-002'), answer: IMPASSE_CONTINUE_ANSWER }];
    expect(triesDifferentApproach(answered, 'SUP-002')).toBe(true);
    expect(triesDifferentApproach(answered, 'SUP-003')).toBe(false);
    expect(triesDifferentApproach([{ topic: impasseTopic('SUP-002'), answer: 'End talks' }], 'SUP-002')).toBe(false);
  });
});
