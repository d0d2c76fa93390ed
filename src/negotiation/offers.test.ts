import { describe, expect, it } from 'vitest';
import { createRng } from '../commerce/rng.js';
import { LINE_PRICE_SPREAD, PRICE_LEVELS, PRICE_RANGES, type PriceLevel } from '../config/business-rules.js';
import { formatMoney } from '../commerce/money.js';
import {
  acceptedOffer,
  effectiveMandate,
  evaluateOffer,
  type NormalizeOfferContext,
  type NormalizedOffer,
  normalizeOffer,
  type OfferDraft,
  OfferTracker,
  PRICE_IMPROVEMENT_EPSILON,
  type TrackedOffer,
  UNMANDATED_NEUTRAL_BAND,
} from './offers.js';
import { type Baseline, type Offer, offerSchema } from './types.js';

const baseline: Baseline = {
  supplierName: 'Quoted supplier',
  currency: 'USD',
  lines: [
    { sku: 'MC001-BON-XL', description: 'Bonded Fleece Jacket', quantity: 500, unitPrice: 12, tiers: [], notes: null },
    {
      sku: 'MB013-0BS-XL',
      description: 'Insulated Winter Jacket',
      quantity: 50,
      unitPrice: 41.5,
      tiers: [],
      notes: null,
    },
    { sku: 'MB015-RED-M', description: 'Fleece Pullover', quantity: 100, unitPrice: 18.25, tiers: [], notes: null },
  ],
  total: 9900,
  paymentTerms: 'T/T 33% deposit, 33% midway, 33% before shipment',
  leadTimeDays: 50,
  incoterm: 'FOB',
  moq: null,
  notes: [],
};

type ContextOverrides = Omit<Partial<NormalizeOfferContext>, 'supplier'> & {
  supplier?: Partial<NormalizeOfferContext['supplier']>;
};

/** The quoting supplier, simulated unless told: the counterpart is what decides how a draft is read. */
const context = ({ supplier, ...overrides }: ContextOverrides = {}): NormalizeOfferContext => ({
  baseline,
  round: 1,
  ...overrides,
  supplier: { code: 'SUP-001', priceLevel: 'cheapest', counterpart: 'simulated', ...supplier },
});

/** A draft the tests expect to be recorded. */
function normalized(draft: OfferDraft, ctx: NormalizeOfferContext): NormalizedOffer {
  const result = normalizeOffer(draft, ctx);
  if (!result.ok) throw new Error(`expected an offer, got: ${result.problems.join('; ')}`);
  return result;
}

/** A complete, in-range draft for a cheapest-tier supplier: 9,200.00 in total. */
const fullDraft = (overrides: Partial<OfferDraft> = {}): OfferDraft => ({
  lines: [
    { sku: 'MC001-BON-XL', quantity: 500, unitPrice: 11 },
    { sku: 'MB013-0BS-XL', quantity: 50, unitPrice: 40 },
    { sku: 'MB015-RED-M', quantity: 100, unitPrice: 17 },
  ],
  total: 9200,
  leadTimeDays: 45,
  paymentTerms: '33/33/33',
  ...overrides,
});

const price = (offer: Offer, sku: string) => offer.lines.find((line) => line.sku === sku)?.unitPrice;

describe('normalizeOffer', () => {
  it('keeps a complete, in-range draft as it is, with no adjustments', () => {
    const { offer, adjustments } = normalized(fullDraft(), context());
    expect(adjustments).toEqual([]);
    expect(offer).toEqual({
      supplierCode: 'SUP-001',
      round: 1,
      lines: [
        { sku: 'MC001-BON-XL', quantity: 500, unitPrice: 11, tiers: [] },
        { sku: 'MB013-0BS-XL', quantity: 50, unitPrice: 40, tiers: [] },
        { sku: 'MB015-RED-M', quantity: 100, unitPrice: 17, tiers: [] },
      ],
      total: 9200,
      leadTimeDays: 45,
      paymentTerms: '33/33/33',
      incoterm: 'FOB',
      currency: 'USD',
      concessions: [],
      conditions: [],
      capacityShare: 1,
    });
  });

  it('recomputes the total from the lines and reports a stated total that disagrees', () => {
    const { offer, adjustments } = normalized(fullDraft({ total: 5000 }), context());
    expect(offer.total).toBe(9200);
    expect(adjustments).toEqual([`Stated total $5,000.00 differs from the lines' $9,200.00: the lines' sum is used`]);
  });

  it('sums in cents, so prices like 0.1 and 0.2 add up exactly', () => {
    const cheap: Baseline = {
      ...baseline,
      lines: [
        { sku: 'A', description: 'a', quantity: 3, unitPrice: 0.1, tiers: [], notes: null },
        { sku: 'B', description: 'b', quantity: 1, unitPrice: 0.2, tiers: [], notes: null },
      ],
      total: 0.5,
    };
    const { offer } = normalized(
      {
        lines: [
          { sku: 'A', unitPrice: 0.1 },
          { sku: 'B', unitPrice: 0.2 },
        ],
        leadTimeDays: 10,
        paymentTerms: '100',
      },
      context({ baseline: cheap }),
    );
    expect(offer.total).toBe(0.5);
  });

  it('clips a single line into its range, in the words the thread shows', () => {
    // The other lines sit at the top of the range, so the offer as a whole is inside it: only this line moves. A line
    // may sit LINE_PRICE_SPREAD.below under the supplier's range (0.85 × 0.65 of 18.25 = 10.09), not further.
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 12 },
        { sku: 'MB013-0BS-XL', unitPrice: 41.5 },
        { sku: 'MB015-RED-M', unitPrice: 10 },
      ],
      total: null,
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(adjustments).toEqual(['MB015-RED-M price 10.00 raised to 10.09 (the floor for a cheapest-tier supplier)']);
    expect(price(offer, 'MB015-RED-M')).toBe(10.09);
    expect(offer.total).toBe(500 * 12 + 50 * 41.5 + 100 * 10.09);
  });

  it('lowers a line above its ceiling', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 10 },
        { sku: 'MB013-0BS-XL', unitPrice: 40 },
        { sku: 'MB015-RED-M', unitPrice: 28 },
      ],
      total: null,
    });
    const { offer, adjustments } = normalized(draft, context());
    // 1.0 × (1 + LINE_PRICE_SPREAD.above = 1.5) of 18.25 = 27.375, rounded down to the cent.
    expect(price(offer, 'MB015-RED-M')).toBe(27.37);
    expect(adjustments).toEqual([
      'MB015-RED-M price 28.00 lowered to 27.37 (the ceiling for a cheapest-tier supplier)',
    ]);
  });

  it('scales all stated prices together when the offer as a whole is outside the range', () => {
    // A mid-tier supplier quoting double the quotation: every line comes down to 1.2× its quoted price.
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 24 },
        { sku: 'MB013-0BS-XL', unitPrice: 83 },
        { sku: 'MB015-RED-M', unitPrice: 36.5 },
      ],
      total: null,
    });
    const { offer, adjustments } = normalized(draft, context({ supplier: { code: 'SUP-003', priceLevel: 'mid' } }));
    expect(offer.lines.map((line) => line.unitPrice)).toEqual([14.4, 49.8, 21.9]);
    expect(adjustments).toEqual([
      'The stated prices average 2.00× the quotation, outside the 0.95–1.20× range of a mid-tier supplier: ' +
        'all scaled down by 40.0%',
    ]);
  });

  it('scales a low offer up, then still clips the line that stays out of range', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 7 },
        { sku: 'MB013-0BS-XL', unitPrice: 65 },
        { sku: 'MB015-RED-M', unitPrice: 27 },
      ],
    });
    const { offer, adjustments } = normalized(
      draft,
      context({ supplier: { code: 'SUP-002', priceLevel: 'expensive' } }),
    );
    expect(adjustments[0]).toMatch(/^The stated prices average 0\.95× .* an expensive-tier supplier: all scaled up/);
    // 7 × 1.205 = 8.44 is still under the line's floor, 12 × 1.15 × 0.65 = 8.97.
    expect(adjustments).toContain('MC001-BON-XL price 8.44 raised to 8.97 (the floor for an expensive-tier supplier)');
    const { min, max } = PRICE_RANGES.expensive;
    for (const line of offer.lines) {
      const quoted = baseline.lines.find((base) => base.sku === line.sku)?.unitPrice ?? 0;
      expect(line.unitPrice).toBeGreaterThanOrEqual(quoted * min * (1 - LINE_PRICE_SPREAD.below) - 0.005);
      expect(line.unitPrice).toBeLessThanOrEqual(quoted * max * (1 + LINE_PRICE_SPREAD.above) + 0.005);
    }
  });

  it('backfills a missing line with the quoted quantity at the middle of the range', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 11 },
        { sku: 'MB013-0BS-XL', unitPrice: 40 },
      ],
    });
    const { offer, adjustments } = normalized(draft, context());
    // Midway between the line's floor 15.52 (18.25 × 0.85, rounded up) and its ceiling 18.25: 16.885, to the cent.
    expect(offer.lines.at(-1)).toEqual({ sku: 'MB015-RED-M', quantity: 100, unitPrice: 16.89, tiers: [] });
    expect(adjustments).toContain(
      'MB015-RED-M missing from the offer: backfilled with the quoted quantity 100 at 16.89 (the middle of the allowed range)',
    );
  });

  it("backfills from the supplier's previous offer when there is one, tiers included", () => {
    const previous = normalized(
      fullDraft({
        lines: [
          { sku: 'MC001-BON-XL', unitPrice: 11.5, tiers: [{ minQty: 1000, unitPrice: 10.8 }] },
          { sku: 'MB013-0BS-XL', unitPrice: 40 },
          { sku: 'MB015-RED-M', unitPrice: 17.5 },
        ],
      }),
      context(),
    ).offer;
    const { offer, adjustments } = normalized(
      { lines: [{ sku: 'MB013-0BS-XL', unitPrice: 39 }] },
      context({ round: 2, previous }),
    );
    expect(offer.lines).toEqual([
      { sku: 'MC001-BON-XL', quantity: 500, unitPrice: 11.5, tiers: [{ minQty: 1000, unitPrice: 10.8 }] },
      { sku: 'MB013-0BS-XL', quantity: 50, unitPrice: 39, tiers: [] },
      { sku: 'MB015-RED-M', quantity: 100, unitPrice: 17.5, tiers: [] },
    ]);
    expect(offer.leadTimeDays).toBe(45);
    expect(offer.paymentTerms).toBe('33/33/33');
    expect(adjustments).toContain(
      'MC001-BON-XL missing from the offer: backfilled with the quoted quantity 500 at 11.50 (the previous offer)',
    );
    expect(adjustments).toContain('Lead time not stated: 45 days kept from the previous offer');
  });

  it('backfills every line of an empty draft', () => {
    const { offer, adjustments } = normalized({}, context());
    expect(offer.lines.map((line) => line.sku)).toEqual(baseline.lines.map((line) => line.sku));
    expect(offer.lines.map((line) => line.quantity)).toEqual([500, 50, 100]);
    expect(adjustments.filter((text) => text.includes('backfilled'))).toHaveLength(3);
  });

  it('prices a line without a readable price like a missing one', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 11 },
        { sku: 'MB013-0BS-XL', unitPrice: 'call us' },
        { sku: 'MB015-RED-M', unitPrice: null },
      ],
      total: null,
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(price(offer, 'MB013-0BS-XL')).toBe(38.39);
    expect(adjustments).toContain('MB013-0BS-XL has an unreadable price: 38.39 used (the middle of the allowed range)');
    expect(adjustments).toContain('MB015-RED-M has no price: 16.89 used (the middle of the allowed range)');
  });

  it('reads a price or total too large for exact cents as unreadable, rather than throw', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: 11, tiers: [{ minQty: 1000, unitPrice: 1e20 }] },
        { sku: 'MB013-0BS-XL', unitPrice: 1e20 },
        { sku: 'MB015-RED-M', unitPrice: 17 },
      ],
      total: 1e20,
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(price(offer, 'MB013-0BS-XL')).toBe(38.39);
    expect(adjustments).toContain('MB013-0BS-XL has an unreadable price: 38.39 used (the middle of the allowed range)');
    expect(offer.lines.find((line) => line.sku === 'MC001-BON-XL')?.tiers).toEqual([]);
  });

  it('reads numbers written as text', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', quantity: '500 pcs', unitPrice: '$11.00' },
        { sku: 'MB013-0BS-XL', quantity: '50', unitPrice: 'US$ 40' },
        { sku: 'MB015-RED-M', unitPrice: '17.00' },
      ],
      total: '$9,200.00',
      leadTimeDays: '45 days',
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(adjustments).toEqual([]);
    expect(offer.total).toBe(9200);
    expect(offer.leadTimeDays).toBe(45);
  });

  it('keeps a stated quantity, rounds it to whole units, and defaults an unusable one to the quotation', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'MC001-BON-XL', quantity: 600, unitPrice: 11 },
        { sku: 'MB013-0BS-XL', quantity: 60.4, unitPrice: 40 },
        { sku: 'MB015-RED-M', quantity: -3, unitPrice: 17 },
      ],
      total: null,
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(offer.lines.map((line) => line.quantity)).toEqual([600, 60, 100]);
    expect(adjustments).toEqual([
      'MB013-0BS-XL quantity 60.4 rounded to 60',
      'MB015-RED-M quantity -3 is not a positive number: the quoted 100 used',
    ]);
  });

  it('drops SKUs the quotation does not have and keeps the first of a duplicated SKU, matching case-insensitively', () => {
    const draft = fullDraft({
      lines: [
        { sku: 'mc001-bon-xl', unitPrice: 11 },
        { sku: 'MC001-BON-XL', unitPrice: 10.5 },
        { sku: 'ZZ999-NEW-S', unitPrice: 5 },
        { sku: 'MB013-0BS-XL', unitPrice: 40 },
        { sku: 'MB015-RED-M', unitPrice: 17 },
      ],
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(offer.lines.map((line) => line.sku)).toEqual(['MC001-BON-XL', 'MB013-0BS-XL', 'MB015-RED-M']);
    expect(price(offer, 'MC001-BON-XL')).toBe(11);
    expect(adjustments).toEqual([
      'MC001-BON-XL listed twice: the first line is used',
      'ZZ999-NEW-S is not in the quotation: line dropped',
    ]);
  });

  it('clips volume-tier prices into the line range and orders tiers by quantity', () => {
    const draft = fullDraft({
      lines: [
        {
          sku: 'MC001-BON-XL',
          unitPrice: 11,
          tiers: [
            { minQty: 2000, unitPrice: 6 },
            { minQty: 1000, unitPrice: '10.50' },
            { minQty: 0, unitPrice: 10 },
          ],
        },
        { sku: 'MB013-0BS-XL', unitPrice: 40 },
        { sku: 'MB015-RED-M', unitPrice: 17 },
      ],
    });
    const { offer, adjustments } = normalized(draft, context());
    expect(offer.lines[0]?.tiers).toEqual([
      { minQty: 1000, unitPrice: 10.5 },
      { minQty: 2000, unitPrice: 6.63 },
    ]);
    expect(adjustments).toEqual([
      'MC001-BON-XL tier ≥2000 price 6.00 raised to 6.63 (the floor for a cheapest-tier supplier)',
    ]);
  });

  describe('lead time', () => {
    const leadTime = (value: OfferDraft['leadTimeDays'], overrides: ContextOverrides = {}) =>
      normalized(fullDraft({ leadTimeDays: value }), context(overrides));

    it('rounds a fractional lead time up', () => {
      const { offer, adjustments } = leadTime(20.5);
      expect(offer.leadTimeDays).toBe(21);
      expect(adjustments).toEqual(['Lead time 20.5 days rounded up to 21']);
    });

    it.each([
      ['45 days', 45],
      ['30-35 days', 35],
      ['6 weeks', 42],
      ['21d', 21],
    ])('reads %j as %d days', (value, days) => {
      const { offer, adjustments } = leadTime(value);
      expect(offer.leadTimeDays).toBe(days);
      expect(adjustments).toEqual([]);
    });

    it('replaces an impossible lead time', () => {
      for (const value of [0, -5, 400, 'soon']) {
        const { offer, adjustments } = leadTime(value);
        expect(offer.leadTimeDays).toBe(50);
        expect(adjustments).toEqual([`Lead time ${value} is not 1–365 days: 50 days from the quotation`]);
      }
    });

    it('falls back to the supplier profile before the quotation', () => {
      const supplier = { code: 'SUP-001', priceLevel: 'cheapest' as const, leadTimeDays: 15, paymentTerms: '100' };
      const { offer, adjustments } = normalized(
        fullDraft({ leadTimeDays: null, paymentTerms: null }),
        context({ supplier }),
      );
      expect(offer.leadTimeDays).toBe(15);
      expect(offer.paymentTerms).toBe('100');
      expect(adjustments).toEqual([
        "Lead time not stated: 15 days kept from the supplier's profile",
        "Payment terms not stated: 100 kept from the supplier's profile",
      ]);
    });
  });

  describe('payment terms', () => {
    it('normalises instalments written in words', () => {
      const { offer, adjustments } = normalized(
        fullDraft({ paymentTerms: '30% deposit, 70% within 30 days of B/L' }),
        context(),
      );
      expect(offer.paymentTerms).toBe('30/70');
      expect(adjustments).toEqual([]);
    });

    it('replaces terms that are not instalments, from the quotation when nothing else is known', () => {
      const { offer, adjustments } = normalized(fullDraft({ paymentTerms: 'to be agreed' }), context());
      expect(offer.paymentTerms).toBe('33/33/33');
      expect(adjustments).toEqual([
        'Payment terms "to be agreed" are not instalments adding up to 100%: 33/33/33 from the quotation',
      ]);
    });

    it('refuses a split that does not add up to 100% rather than rescale it', () => {
      const { offer, adjustments } = normalized(fullDraft({ paymentTerms: '30/60' }), context());
      expect(offer.paymentTerms).toBe('33/33/33');
      expect(adjustments).toEqual([
        'Payment terms "30/60" are not instalments adding up to 100%: 33/33/33 from the quotation',
      ]);
    });

    // The negotiation used to refuse these, while the decision priced the same words as paying on delivery: an offer
    // now stores what the decision will price.
    it.each([
      ['Net 30', '0/100'],
      ['0/100', '0/100'],
      ['50% deposit, 50% during production', '50/50/0'],
      ['100% upfront', '100'],
      ['40-60', '40/60'],
      ['T/T 50% / 50%', '50/50'],
    ])('stores %j as %j, as the decision reads it', (text, expected) => {
      const { offer, adjustments } = normalized(fullDraft({ paymentTerms: text }), context());
      expect(offer.paymentTerms).toBe(expected);
      expect(adjustments).toEqual([]);
    });
  });

  it('keeps the quotation currency, notes a different one, reads a capacity of "60" as 60%', () => {
    const { offer, adjustments } = normalized(fullDraft({ currency: 'eur', capacityShare: 60 }), context());
    expect(offer.currency).toBe('USD');
    expect(offer.capacityShare).toBe(0.6);
    expect(adjustments).toEqual([
      "Currency EUR differs from the quotation's USD: prices read as USD",
      'Capacity share 60 read as 60%',
    ]);
  });

  it('carries concessions, conditions, incoterm and capacity from the previous offer when unstated', () => {
    const previous = normalized(
      fullDraft({
        concessions: [' free samples ', ''],
        conditions: ['PO by Friday'],
        incoterm: 'exw',
        capacityShare: 0.6,
      }),
      context(),
    ).offer;
    expect(previous.concessions).toEqual(['free samples']);
    expect(previous.incoterm).toBe('EXW');
    const { offer } = normalized(fullDraft({ concessions: [] }), context({ previous, round: 2 }));
    expect(offer.concessions).toEqual([]);
    expect(offer.conditions).toEqual(['PO by Friday']);
    expect(offer.incoterm).toBe('EXW');
    expect(offer.capacityShare).toBe(0.6);
  });

  it("falls back to the quotation's incoterm, and for a simulated supplier to its rule without the quoting port", () => {
    const ningbo = { ...baseline, incoterm: 'FOB Ningbo' };
    const quoting = normalized(fullDraft(), context({ baseline: ningbo })).offer;
    expect(quoting.incoterm).toBe('FOB Ningbo');
    const simulated = { code: 'SUP-003', priceLevel: 'mid' as const, isSimulated: true };
    expect(normalized(fullDraft(), context({ baseline: ningbo, supplier: simulated })).offer.incoterm).toBe('FOB');
    // What the supplier states stands; an incoterm the quotation does not give stays unknown.
    const stated = normalized(
      fullDraft({ incoterm: 'fob shenzhen' }),
      context({ baseline: ningbo, supplier: simulated }),
    );
    expect(stated.offer.incoterm).toBe('FOB SHENZHEN');
    const none = normalized(fullDraft(), context({ baseline: { ...baseline, incoterm: null }, supplier: simulated }));
    expect(none.offer.incoterm).toBeNull();
  });

  it('never lets a line price leave its range, widened by the line spread, whatever the draft (every level)', () => {
    const rng = createRng(42);
    for (let run = 0; run < 300; run++) {
      const level: PriceLevel = rng.pick(PRICE_LEVELS);
      const lines = baseline.lines
        .filter(() => rng.next() < 0.8)
        .map((line) => ({
          sku: line.sku,
          quantity: rng.next() < 0.2 ? null : rng.int(1, 2000),
          unitPrice: rng.next() < 0.1 ? null : Math.round(line.unitPrice * (0.1 + rng.next() * 3) * 1000) / 1000,
        }));
      const { offer } = normalized(
        { lines, leadTimeDays: rng.int(-10, 500) },
        context({ supplier: { code: 'SUP-X', priceLevel: level } }),
      );
      expect(offerSchema.safeParse(offer).success).toBe(true);
      const min = PRICE_RANGES[level].min * (1 - LINE_PRICE_SPREAD.below);
      const max = PRICE_RANGES[level].max * (1 + LINE_PRICE_SPREAD.above);
      let totalCents = 0;
      for (const line of offer.lines) {
        const quoted = baseline.lines.find((base) => base.sku === line.sku)?.unitPrice ?? 0;
        expect(line.unitPrice).toBeGreaterThanOrEqual(quoted * min - 1e-6);
        expect(line.unitPrice).toBeLessThanOrEqual(quoted * max + 1e-6);
        expect(Math.round(line.unitPrice * 100)).toBeCloseTo(line.unitPrice * 100, 6);
        totalCents += line.quantity * Math.round(line.unitPrice * 100);
      }
      expect(offer.total).toBe(totalCents / 100);
    }
  });
});

describe('normalizeOffer: a connected supplier, recorded as stated', () => {
  const connected = ({ supplier, ...overrides }: ContextOverrides = {}) =>
    context({ ...overrides, supplier: { code: 'SUP-004', counterpart: 'connected', ...supplier } });

  it('keeps its prices and quantities as stated, and a line it leaves out is not offered', () => {
    // Half and nearly twice the quotation: a simulated supplier's prices would be scaled and clipped, the line backfilled.
    const draft: OfferDraft = {
      lines: [
        { sku: 'MC001-BON-XL', unitPrice: '$6.01' },
        { sku: 'MB013-0BS-XL', quantity: 60, unitPrice: 74.7 },
      ],
      total: 7487,
      leadTimeDays: '30 days',
      paymentTerms: '30% deposit, 70% before shipment',
    };
    const { offer, adjustments, stated, assumed } = normalized(draft, connected());
    expect(offer.lines).toEqual([
      { sku: 'MC001-BON-XL', quantity: 500, unitPrice: 6.01, tiers: [] },
      { sku: 'MB013-0BS-XL', quantity: 60, unitPrice: 74.7, tiers: [] },
    ]);
    expect(offer.total).toBe(7487);
    expect([offer.leadTimeDays, offer.paymentTerms]).toEqual([30, '30/70']);
    expect(adjustments).toEqual(['MB015-RED-M not offered']);
    expect(stated).toEqual(['leadTimeDays', 'paymentTerms']);
    expect(assumed).toEqual([]);

    const simulated = normalized(draft, connected({ supplier: { counterpart: 'simulated' } })).offer;
    expect(simulated.lines.map((line) => line.sku)).toEqual(baseline.lines.map((line) => line.sku));
    expect(simulated.total).not.toBe(7487);
  });

  it('keeps stated tiers, and the previous offer’s when it states none', () => {
    const tiered = normalized(
      fullDraft({
        lines: [{ sku: 'MC001-BON-XL', unitPrice: 11, tiers: [{ minQty: 1000, unitPrice: 3.5 }] }],
        total: null,
      }),
      connected(),
    ).offer;
    expect(tiered.lines).toEqual([
      { sku: 'MC001-BON-XL', quantity: 500, unitPrice: 11, tiers: [{ minQty: 1000, unitPrice: 3.5 }] },
    ]);
    const again = normalized(
      fullDraft({ lines: [{ sku: 'MC001-BON-XL', unitPrice: 10.5 }], total: null }),
      connected({ previous: tiered, round: 2 }),
    ).offer;
    expect(again.lines[0]?.tiers).toEqual([{ minQty: 1000, unitPrice: 3.5 }]);
  });

  it('leaves terms it does not state as its previous offer’s, or as Parley’s assumption, and says which', () => {
    const profile = { leadTimeDays: 40, paymentTerms: '100' };
    const unstated = { ...fullDraft(), leadTimeDays: null, paymentTerms: undefined };
    const first = normalized(unstated, connected({ supplier: profile }));
    expect([first.offer.leadTimeDays, first.offer.paymentTerms]).toEqual([40, '100']);
    expect(first.assumed).toEqual(['leadTimeDays', 'paymentTerms']);
    expect(first.stated).toEqual([]);
    expect(first.adjustments).toEqual([
      "Lead time not stated: 40 days assumed (the supplier's profile)",
      "Payment terms not stated: 100 assumed (the supplier's profile)",
    ]);

    const previous = offer(9200, { leadTimeDays: 45, paymentTerms: '40/60' });
    const later = normalized(unstated, connected({ supplier: profile, previous, round: 2 }));
    expect([later.offer.leadTimeDays, later.offer.paymentTerms]).toEqual([45, '40/60']);
    expect(later.assumed).toEqual([]);
    expect(later.adjustments).toEqual([
      'Lead time not stated: 45 days kept from the previous offer',
      'Payment terms not stated: 40/60 kept from the previous offer',
    ]);
  });

  it('refuses what it would have to change or guess, and says what to correct', () => {
    const result = normalizeOffer(
      {
        lines: [
          { sku: 'MC001-BON-XL', unitPrice: 11.555 },
          { sku: 'mc001-bon-xl', unitPrice: 11 },
          { sku: 'MB013-0BS-XL', unitPrice: 'n/a' },
          { sku: 'MB015-RED-M', quantity: 2.5, unitPrice: 17 },
          { sku: 'ZZ-404', unitPrice: 5 },
        ],
        currency: 'eur',
        leadTimeDays: 'soon',
        paymentTerms: '30/60',
        capacityShare: 'most',
      },
      connected(),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'mc001-bon-xl is listed more than once',
        'ZZ-404 is not in the quotation',
        'MC001-BON-XL price 11.555 is not in whole cents',
        'MB013-0BS-XL price n/a is not an amount above zero',
        'MB015-RED-M quantity 2.5 is not a whole number of units',
        'Prices are in EUR; the quotation is in USD',
        'Lead time soon is not a whole number of days from 1 to 365',
        'Payment terms "30/60" are not instalments adding up to 100%',
        'Capacity share most is not a share of 0–100%',
      ],
    });
  });

  it('refuses a total that is not the sum of its lines, and a draft that prices no line of the quotation', () => {
    expect(normalizeOffer(fullDraft({ total: 5000 }), connected())).toEqual({
      ok: false,
      problems: ["The total $5,000.00 is not the lines' sum, $9,200.00"],
    });
    expect(normalizeOffer({ lines: [], leadTimeDays: 30, paymentTerms: '100' }, connected())).toEqual({
      ok: false,
      problems: ['The offer prices none of the quotation’s lines'],
    });
  });
});

describe('acceptedOffer', () => {
  const standing: Offer = {
    supplierCode: 'SUP-001',
    round: 1,
    lines: [
      { sku: 'A', quantity: 600, unitPrice: 150, tiers: [{ minQty: 1000, unitPrice: 140 }] },
      { sku: 'B', quantity: 450, unitPrice: 110, tiers: [] },
      { sku: 'C', quantity: 125, unitPrice: 96, tiers: [] },
      { sku: 'D', quantity: 37, unitPrice: 26, tiers: [] },
    ],
    total: 152_462,
    leadTimeDays: 50,
    paymentTerms: '33/33/33',
    incoterm: 'FOB',
    currency: 'USD',
    concessions: ['Free samples'],
    conditions: [],
    capacityShare: 1,
  };
  const ask = { round: 2, targetTotal: 144_854.1, leadTimeDays: 30, paymentTerms: '30/70' };
  const cents = (lines: Offer['lines']) =>
    lines.reduce((sum, line) => sum + line.quantity * Math.round(line.unitPrice * 100), 0);

  it('records the ask it accepts: its total to the cent, its delivery and terms, every line cut alike', () => {
    const { offer, adjustments, stated } = acceptedOffer({ ask, standing, round: 2 });
    expect(offer.total).toBe(144_854.1);
    expect(cents(offer.lines)).toBe(14_485_410);
    const factor = ask.targetTotal / standing.total;
    for (const [index, line] of offer.lines.entries()) {
      const before = standing.lines[index];
      expect(line.sku).toBe(before?.sku);
      expect(line.quantity).toBe(before?.quantity);
      // The same cut on every line, give or take the few cents that make the total exact.
      expect(Math.abs(line.unitPrice / ((before?.unitPrice ?? 0) * factor) - 1)).toBeLessThan(0.005);
    }
    expect(offer.lines[0]?.tiers).toEqual([{ minQty: 1000, unitPrice: Math.round(140 * factor * 100) / 100 }]);
    expect(offer).toMatchObject({ round: 2, leadTimeDays: 30, paymentTerms: '30/70', concessions: ['Free samples'] });
    expect(adjustments).toEqual([]);
    expect(stated).toEqual(['leadTimeDays', 'paymentTerms']);
  });

  it('takes only the words of the accepting draft, never its numbers', () => {
    const draft: OfferDraft = {
      lines: standing.lines.map((line) => ({ sku: line.sku, unitPrice: line.unitPrice * 0.997 })),
      leadTimeDays: 20,
      paymentTerms: '100',
      conditions: ['Final offer, valid for 7 days'],
    };
    const { offer } = acceptedOffer({ ask, standing, round: 2, draft });
    expect(offer.total).toBe(144_854.1);
    expect([offer.leadTimeDays, offer.paymentTerms]).toEqual([30, '30/70']);
    expect(offer.conditions).toEqual(['Final offer, valid for 7 days']);
  });

  it('keeps the standing prices for an ask at or above them, and the whole standing offer without an ask', () => {
    const above = acceptedOffer({ ask: { ...ask, targetTotal: 160_000, paymentTerms: null }, standing, round: 2 });
    expect(above.offer.lines).toEqual(standing.lines);
    expect([above.offer.total, above.offer.leadTimeDays, above.offer.paymentTerms]).toEqual([152_462, 30, '33/33/33']);
    const words = { lines: [], conditions: ['Final offer'], concessions: ['Free freight'] };
    expect(acceptedOffer({ ask: null, standing, round: 3, draft: words }).offer).toEqual({ ...standing, round: 3 });
  });

  it('makes up the rounding with single cents on lines whose quantities combine to it', () => {
    // 300, 200 and 500 units: totals move in whole dollars, and a dollar is +1¢ on 300 units and −1¢ on 200.
    const lines = [
      { sku: 'A', quantity: 300, unitPrice: 10, tiers: [] },
      { sku: 'B', quantity: 200, unitPrice: 20, tiers: [] },
      { sku: 'C', quantity: 500, unitPrice: 30, tiers: [] },
    ];
    const whole = { ...standing, lines, total: 22_000 };
    for (const target of [20_999, 21_001, 19_876, 21_999]) {
      const { offer, adjustments } = acceptedOffer({ ask: { ...ask, targetTotal: target }, standing: whole, round: 2 });
      expect(offer.total, `ask ${target}`).toBe(target);
      expect(cents(offer.lines)).toBe(target * 100);
      expect(adjustments).toEqual([]);
    }
    // Half a dollar is no sum of whole cents on these quantities: the nearest total, and the adjustment says so.
    const { offer, adjustments } = acceptedOffer({ ask: { ...ask, targetTotal: 20_999.5 }, standing: whole, round: 2 });
    expect(Math.abs(offer.total - 20_999.5)).toBe(0.5);
    expect(adjustments).toEqual([
      `The ask's $20,999.50 cannot be priced in whole cents at these quantities: the lines come to ${formatMoney(offer.total)}`,
    ]);
  });
});

const offer = (total: number, overrides: Partial<Offer> = {}): Offer => ({
  supplierCode: 'SUP-001',
  round: 1,
  lines: [{ sku: 'MC001-BON-XL', quantity: 1, unitPrice: total, tiers: [] }],
  total,
  leadTimeDays: 30,
  paymentTerms: '30/70',
  incoterm: null,
  currency: 'USD',
  concessions: [],
  conditions: [],
  capacityShare: 1,
  ...overrides,
});
const tracked = (round: number, source: TrackedOffer['source'], total: number, overrides: Partial<Offer> = {}) => ({
  round,
  source,
  offer: offer(total, { round, ...overrides }),
});

describe('OfferTracker', () => {
  it('keeps the history in order and finds the latest offers by source', () => {
    const tracker = new OfferTracker('SUP-001');
    expect(tracker.latest()).toBeNull();
    expect(tracker.latestFromSupplier()).toBeNull();
    tracker.addOffer(tracked(0, 'quotation', 100));
    tracker.addOffer(tracked(1, 'supplier', 95));
    tracker.addOffer(tracked(1, 'brand', 80));
    expect(tracker.history.map((entry) => entry.offer.total)).toEqual([100, 95, 80]);
    expect(tracker.latest()?.offer.total).toBe(80);
    expect(tracker.latestBySource('supplier')?.offer.total).toBe(95);
    expect(tracker.latestBySource('quotation')?.offer.total).toBe(100);
    expect(tracker.latestFromSupplier()?.offer.total).toBe(95);
    expect(tracker.supplierOffers().map((entry) => entry.source)).toEqual(['quotation', 'supplier']);
  });

  it("hands out copies, so a caller cannot rewrite the tracker's history", () => {
    const tracker = new OfferTracker('SUP-001', [tracked(1, 'supplier', 95)]);
    const [first] = tracker.history;
    if (first) first.offer.total = 1;
    expect(tracker.latest()?.offer.total).toBe(95);
  });

  it("refuses another supplier's offer, but takes the brand's counter-offer", () => {
    const tracker = new OfferTracker('SUP-001');
    expect(() => tracker.addOffer(tracked(1, 'supplier', 95, { supplierCode: 'SUP-002' }))).toThrow(/SUP-002/);
    tracker.addOffer(tracked(1, 'brand', 90, { supplierCode: 'BRAND' }));
    expect(tracker.history).toHaveLength(1);
  });

  describe('hasPriceImproved', () => {
    const trackerWith = (...totals: number[]) =>
      new OfferTracker(
        'SUP-001',
        totals.map((total, round) => tracked(round, 'supplier', total)),
      );

    it('counts as improving until the window is full', () => {
      expect(trackerWith().hasPriceImproved(3)).toBe(true);
      expect(trackerWith(30, 30).hasPriceImproved(3)).toBe(true);
    });

    it('is false when the total has not fallen over the window', () => {
      expect(trackerWith(30, 30, 30).hasPriceImproved(3)).toBe(false);
      expect(trackerWith(30, 28, 30).hasPriceImproved(3)).toBe(false);
      expect(trackerWith(30, 31, 32).hasPriceImproved(3)).toBe(false);
    });

    it('is true when the total fell, looking only at the latest window', () => {
      expect(trackerWith(30, 28, 26).hasPriceImproved(3)).toBe(true);
      expect(trackerWith(40, 30, 30, 30).hasPriceImproved(3)).toBe(false);
      expect(trackerWith(30, 30, 30, 29).hasPriceImproved(3)).toBe(true);
    });

    it('ignores a drop below the epsilon and counts one above it', () => {
      const total = 10_000;
      expect(trackerWith(total, total, total * (1 - PRICE_IMPROVEMENT_EPSILON / 2)).hasPriceImproved(3)).toBe(false);
      expect(trackerWith(total, total, total * (1 - PRICE_IMPROVEMENT_EPSILON * 2)).hasPriceImproved(3)).toBe(true);
    });

    it("ignores the brand's counter-offers", () => {
      const tracker = trackerWith(30, 30);
      tracker.addOffer(tracked(2, 'brand', 20));
      tracker.addOffer(tracked(2, 'supplier', 30));
      expect(tracker.hasPriceImproved(3)).toBe(false);
    });

    it('rejects a window that cannot show a trend', () => {
      expect(() => trackerWith(1, 2).hasPriceImproved(1)).toThrow(RangeError);
    });
  });

  describe('priceGap', () => {
    it("measures against the brand's latest counter-offer before the target", () => {
      const tracker = new OfferTracker('SUP-001', [tracked(0, 'brand', 20), tracked(0, 'supplier', 30)]);
      expect(tracker.priceGap(25)).toBe(0.5);
      expect(tracker.priceGapDetails(25)).toEqual({
        latestTotal: 30,
        referenceTotal: 20,
        absolute: 10,
        relative: 0.5,
        currency: 'USD',
      });
    });

    it('measures against the target when the brand has not countered', () => {
      const tracker = new OfferTracker('SUP-001', [tracked(0, 'supplier', 30)]);
      expect(tracker.priceGap(24)).toBe(0.25);
    });

    it('is 0 when the supplier is at or below the reference, null without an offer or a reference', () => {
      expect(new OfferTracker('SUP-001', [tracked(0, 'supplier', 20)]).priceGap(25)).toBe(0);
      expect(new OfferTracker('SUP-001', [tracked(0, 'supplier', 20)]).priceGap()).toBeNull();
      expect(new OfferTracker('SUP-001', [tracked(0, 'brand', 20)]).priceGap(25)).toBeNull();
    });
  });

  it('survives a checkpoint round trip through JSON', () => {
    const tracker = new OfferTracker('SUP-002', [
      tracked(1, 'supplier', 120, { supplierCode: 'SUP-002', concessions: ['free freight'] }),
      tracked(1, 'brand', 100),
    ]);
    const restored = OfferTracker.fromJSON(JSON.parse(JSON.stringify(tracker)));
    expect(restored.supplierCode).toBe('SUP-002');
    expect(restored.history).toEqual(tracker.history);
    expect(restored.toJSON()).toEqual(tracker.toJSON());
  });

  it('refuses a corrupt checkpoint', () => {
    expect(() => OfferTracker.fromJSON({ supplierCode: 'SUP-001', history: [{ round: 1, source: 'x' }] })).toThrow();
    expect(() => OfferTracker.fromJSON(null)).toThrow();
  });
});

describe('evaluateOffer', () => {
  const mandate = { targetTotal: 9000, walkAwayTotal: 9500 };
  const options = { baselineTotal: 9900 };

  it('PASS at or below the target, NEUTRAL up to the walk-away, FAIL above it (inclusive limits)', () => {
    expect(evaluateOffer(offer(8500), mandate, options)).toBe('PASS');
    expect(evaluateOffer(offer(9000), mandate, options)).toBe('PASS');
    expect(evaluateOffer(offer(9000.01), mandate, options)).toBe('NEUTRAL');
    expect(evaluateOffer(offer(9500), mandate, options)).toBe('NEUTRAL');
    expect(evaluateOffer(offer(9500.01), mandate, options)).toBe('FAIL');
  });

  it('judges an offer of some lines against the limits prorated to the quoted value of those lines', () => {
    // Two lines quoted at $6,600 and $3,300 (the $9,900 quotation); the offer prices only the second.
    const baselineLines = [
      { sku: 'A', quantity: 100, unitPrice: 66 },
      { sku: 'B', quantity: 100, unitPrice: 33 },
    ];
    const partial = (total: number) => ({ total, lines: [{ sku: 'B', quantity: 100, unitPrice: total / 100 }] });
    const prorated = { ...options, baselineLines };
    // A third of the order: the target is $3,000 for it, the walk-away $3,166.67.
    expect(evaluateOffer(partial(2999), mandate, prorated)).toBe('PASS');
    expect(evaluateOffer(partial(3100), mandate, prorated)).toBe('NEUTRAL');
    expect(evaluateOffer(partial(3200), mandate, prorated)).toBe('FAIL');
    // Judged as the whole order, $3,200 would "meet" a $9,000 target.
    expect(evaluateOffer(partial(3200), mandate, options)).toBe('PASS');
    const whole = { total: 9000, lines: [...baselineLines] };
    expect(evaluateOffer(whole, mandate, prorated)).toBe('PASS');
  });

  it('FAIL without an offer', () => {
    expect(evaluateOffer(null, mandate, options)).toBe('FAIL');
    expect(evaluateOffer(undefined, mandate, options)).toBe('FAIL');
  });

  it('without a mandate: PASS up to the quotation total, NEUTRAL within +10%, FAIL above', () => {
    const none = { targetTotal: null, walkAwayTotal: null };
    expect(evaluateOffer(offer(9900), none, options)).toBe('PASS');
    expect(evaluateOffer(offer(9900 * (1 + UNMANDATED_NEUTRAL_BAND)), none, options)).toBe('NEUTRAL');
    expect(evaluateOffer(offer(10_890.01), none, options)).toBe('FAIL');
  });

  it('with only a target, the walk-away is 10% above it', () => {
    expect(effectiveMandate({ targetTotal: 9000, walkAwayTotal: null }, 9900)).toEqual({
      targetTotal: 9000,
      walkAwayTotal: 9900,
    });
    expect(evaluateOffer(offer(9900), { targetTotal: 9000, walkAwayTotal: null }, options)).toBe('NEUTRAL');
  });

  it('with only a walk-away, the target is the quotation total (or the walk-away when lower)', () => {
    expect(effectiveMandate({ targetTotal: null, walkAwayTotal: 10_500 }, 9900)).toEqual({
      targetTotal: 9900,
      walkAwayTotal: 10_500,
    });
    expect(effectiveMandate({ targetTotal: null, walkAwayTotal: 9000 }, 9900)).toEqual({
      targetTotal: 9000,
      walkAwayTotal: 9000,
    });
    expect(evaluateOffer(offer(10_000), { targetTotal: null, walkAwayTotal: 10_500 }, options)).toBe('NEUTRAL');
  });

  it('reads a walk-away below the target as equal to it', () => {
    const inverted = { targetTotal: 9000, walkAwayTotal: 8000 };
    expect(effectiveMandate(inverted, 9900)).toEqual({ targetTotal: 9000, walkAwayTotal: 9000 });
    expect(evaluateOffer(offer(9000), inverted, options)).toBe('PASS');
    expect(evaluateOffer(offer(9001), inverted, options)).toBe('FAIL');
  });

  it('is direction-aware: for the seller, higher is better', () => {
    const seller = { baselineTotal: 9900, side: 'seller' as const };
    const sellerMandate = { targetTotal: 10_000, walkAwayTotal: 9500 };
    expect(evaluateOffer(offer(10_200), sellerMandate, seller)).toBe('PASS');
    expect(evaluateOffer(offer(9700), sellerMandate, seller)).toBe('NEUTRAL');
    expect(evaluateOffer(offer(9400), sellerMandate, seller)).toBe('FAIL');
    expect(effectiveMandate({ targetTotal: null, walkAwayTotal: null }, 10_000, 'seller')).toEqual({
      targetTotal: 10_000,
      walkAwayTotal: 9000,
    });
  });
});
