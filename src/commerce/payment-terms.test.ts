import { describe, expect, it } from 'vitest';
import {
  describePaymentTerms,
  formatPaymentSplit,
  isValidSplit,
  mentionsPaymentTerms,
  normalisePaymentTerms,
  parsePaymentTerms,
  paymentSchedule,
  paymentTermsSchema,
} from './payment-terms.js';

describe('parsePaymentTerms', () => {
  it.each([
    // The stored form and its variants.
    ['30/70', [30, 70]],
    ['33/33/33', [33, 33, 33]],
    ['0/100', [0, 100]],
    ['100', [100]],
    ['100%', [100]],
    ['30% / 70%', [30, 70]],
    ['33.3%/33.3%/33.4%', [33.3, 33.3, 33.4]],
    ['40-60', [40, 60]],
    ['30/70 T/T', [30, 70]],
    ['T/T 30/70', [30, 70]],
    ['T/T 50% / 50%', [50, 50]],
    // Upfront and credit.
    ['100% upfront', [100]],
    ['T/T in advance', [100]],
    ['100% on delivery', [0, 100]],
    ['Net 30', [0, 100]],
    ['30 days after delivery', [0, 100]],
    ['30 days net from invoice date', [0, 100]],
    ['T/T 30 days after B/L date', [0, 100]],
    ['30-60 days', [0, 100]],
    ['L/C at sight', [0, 100]],
    // Instalments in words.
    ['30% deposit, 70% before shipment', [30, 70]],
    ['40% deposit, 60% on delivery', [40, 60]],
    ['30% T/T deposit, balance before shipment', [30, 70]],
    ['30% deposit, 70% balance before shipment', [30, 70]],
    ['Deposit of 30%, balance on delivery', [30, 70]],
    ['30% deposit 70% before shipment', [30, 70]],
    ['70% before shipment, 30% deposit', [30, 70]],
    ['30%, 70% on delivery', [30, 70]],
    ['T/T 30% with order, 70% against B/L copy', [30, 70]],
    ['50% advance, 50% against copy of B/L', [50, 50]],
    ['30% deposit, 70% within 30 days of B/L', [30, 70]],
    ['30% deposit, 70% within 30 days', [30, 70]],
    ['T/T 33% deposit, 33% midway, 33% before shipment', [33, 33, 33]],
    ['30% deposit, 40% during production, 30% before shipment', [30, 40, 30]],
    ['50% deposit, 50% during production', [50, 50, 0]],
  ])('reads %j as %j', (text, expected) => {
    expect(parsePaymentTerms(text)).toEqual(expected);
  });

  it.each([
    '',
    '   ',
    null,
    undefined,
    'to be agreed',
    '50% deposit',
    // Not adding up to 100%: refused, never rescaled.
    '30/60',
    '60/60',
    '50/51',
    '34/34/33',
    '32/33/33',
    '99',
    '60% deposit, 60% on delivery',
    '80% deposit, balance 30%',
  ])('returns null for %j rather than guess', (text) => {
    expect(parsePaymentTerms(text)).toBeNull();
  });

  // The two old parsers disagreed on these; the decision prices them as read here, and so does the negotiation now.
  it.each([
    // The negotiation's copy refused credit terms and a 0% first instalment; they are what paying on delivery means.
    ['Net 30', '0/100'],
    ['0/100', '0/100'],
    // The decision's copy could not read words before a split, and read "T/T 50% / 50%" as 100% at order.
    ['T/T 30/70', '30/70'],
    ['T/T 50% / 50%', '50/50'],
    // The decision's copy put "70% within 30 days" at order, paying everything upfront.
    ['30% deposit, 70% within 30 days', '30/70'],
    // The negotiation's copy lost the instalment during production ("50/50" is half at delivery).
    ['50% deposit, 50% during production', '50/50/0'],
    // The negotiation's copy accepted a lone 99%; the decision's accepted 101% and 98%.
    ['99', null],
    ['50/51', null],
    ['32/33/33', null],
  ])('normalises %j to %j wherever it is read', (text, expected) => {
    expect(normalisePaymentTerms(text)).toBe(expected);
  });
});

describe('isValidSplit', () => {
  it.each([
    [[100], true],
    [[30, 70], true],
    [[0, 100], true],
    [[33, 33, 33], true],
    [[33, 33, 34], true],
    [[33.3, 33.3, 33.4], true],
    [[49.5, 49.5], true],
    [[99], false],
    [[30, 60], false],
    [[60, 50], false],
    [[34, 34, 33], false],
    [[-10, 110], false],
    [[0, 0], false],
    [[Number.NaN, 100], false],
    [[], false],
  ])('%j → %s', (percentages, expected) => {
    expect(isValidSplit(percentages)).toBe(expected);
  });
});

describe('paymentTermsSchema', () => {
  it.each(['100', '40/60', '33/33/33', '0/100', '30/30/40', '33.3/33.3/33.4'])('accepts %j', (terms) => {
    expect(paymentTermsSchema.safeParse(terms).success).toBe(true);
  });

  it.each(['30/60', '99', '1000', '40-60', 'Net 30', '40/60 T/T', '', '/'])('refuses %j', (terms) => {
    expect(paymentTermsSchema.safeParse(terms).success).toBe(false);
  });

  it('round-trips what the parser normalises', () => {
    const terms = normalisePaymentTerms('30% T/T deposit, 40% during production, balance before shipment');
    expect(terms).toBe('30/40/30');
    expect(paymentTermsSchema.parse(terms)).toBe('30/40/30');
    expect(formatPaymentSplit([50, 50, 0])).toBe('50/50/0');
  });
});

describe('paymentSchedule', () => {
  it('pays one instalment at order, two at order and delivery, three midway too, n evenly', () => {
    expect(paymentSchedule([100], 40)).toEqual([{ share: 1, paidOnDay: 0, daysBeforeDelivery: 40 }]);
    expect(paymentSchedule([30, 70], 40)).toEqual([
      { share: 0.3, paidOnDay: 0, daysBeforeDelivery: 40 },
      { share: 0.7, paidOnDay: 40, daysBeforeDelivery: 0 },
    ]);
    expect(paymentSchedule([30, 40, 30], 40).map((p) => p.paidOnDay)).toEqual([0, 20, 40]);
    expect(paymentSchedule([25, 25, 25, 25], 60).map((p) => p.daysBeforeDelivery)).toEqual([60, 40, 20, 0]);
  });

  it('reads 33/33/33 as thirds', () => {
    for (const instalment of paymentSchedule([33, 33, 33], 30)) expect(instalment.share).toBeCloseTo(1 / 3, 12);
  });

  it('refuses a split that does not add up, or a negative lead time', () => {
    expect(() => paymentSchedule([30, 60], 30)).toThrow(/do not add up to 100/);
    expect(() => paymentSchedule([30, 70], -1)).toThrow(RangeError);
  });
});

describe('describePaymentTerms', () => {
  it.each([
    ['100', {}, '100% upfront'],
    ['40/60', {}, '40/60'],
    ['Net 30', {}, 'Net 30'],
    ['30/60', {}, '30/60'],
    ['100', { leadTimeDays: 50 }, '100% upfront, 50 days before delivery'],
    ['40/60', { leadTimeDays: 25 }, '40/60 over 25 days'],
    ['100', { instalments: true }, '100 (100% at order)'],
    ['40/60', { instalments: true }, '40/60 (40% at order, 60% at delivery)'],
    ['33/33/33', { instalments: true }, '33/33/33 (33% at order, 33% midway, 33% at delivery)'],
    ['25/25/25/25', { instalments: true }, '25/25/25/25'],
    ['Net 30', { instalments: true }, 'Net 30'],
    // A split that does not add up is not spelled out as if it were a schedule.
    ['30/60', { instalments: true }, '30/60'],
  ])('%j with %j → %j', (terms, options, expected) => {
    expect(describePaymentTerms(terms, options)).toBe(expected);
  });
});

describe('mentionsPaymentTerms', () => {
  it.each([
    ['T/T 30% deposit', true],
    ['Net 30', true],
    ['定金30%', true],
    ['Prices valid for 30 days', false],
    ['Delivery 45 days', false],
  ])('%j → %s', (text, expected) => {
    expect(mentionsPaymentTerms(text)).toBe(expected);
  });
});
