// Which supplier figures are Parley's assumptions, from the quotation to the supplier's own statement of them.
import { describe, expect, it } from 'vitest';
import { QUOTED_SUPPLIER_DEFAULTS, SIMULATED_SUPPLIERS } from '../config/business-rules.js';
import { exampleSetup } from '../../test/support/negotiation-fixtures.js';
import { createNegotiationAgents } from './agents/create-agents.js';
import { baselineFromQuotation } from './baseline.js';
import { createNegotiation } from './engine.js';
import {
  assumedFacts,
  assumeFacts,
  initialAssumptions,
  labelAssumed,
  showFact,
  stateFacts,
  TRACK_RECORD_FACTS,
  wasAssumedAt,
} from './facts.js';
import { runUnattended } from './run-unattended.js';

const profiles = [QUOTED_SUPPLIER_DEFAULTS, ...SIMULATED_SUPPLIERS];

describe('initial assumptions', () => {
  it("assumes the quoting supplier's missing lead time and terms, and any track record without history", () => {
    const none = initialAssumptions({ leadTimeDays: null, paymentTerms: null }, profiles);
    expect(assumedFacts(none, 'SUP-001')).toEqual(['leadTimeDays', 'paymentTerms', ...TRACK_RECORD_FACTS]);
    // The simulated suppliers have order history: their profile figures are known.
    expect(assumedFacts(none, 'SUP-002')).toEqual([]);
    expect(assumedFacts(none, 'SUP-003')).toEqual([]);
    const stated = initialAssumptions({ leadTimeDays: 45, paymentTerms: '30/70' }, profiles);
    expect(assumedFacts(stated, 'SUP-001')).toEqual([...TRACK_RECORD_FACTS]);
    // Prose that does not read as instalments is no stated split.
    const prose = initialAssumptions({ leadTimeDays: 45, paymentTerms: 'T/T' }, profiles);
    expect(assumedFacts(prose, 'SUP-001')).toContain('paymentTerms');
  });

  it('are named by the baseline too, from what the sheet says', () => {
    const source = (leadTimeDays: number | null, paymentTerms: string | null) => ({
      supplier: { name: 'Ningbo Everbright' },
      terms: { paymentTerms, currency: 'USD', leadTimeDays, incoterm: null, moq: null },
      notes: [],
      items: [
        {
          sheet: 'Q',
          row: 2,
          rawSku: 'MC001-BON-XL',
          description: 'Parka',
          quantity: 10,
          unitPrice: 40,
          tiers: [],
          notes: null,
          match: { sku: 'MC001-BON-XL' },
        },
      ],
    });
    const missing = baselineFromQuotation(source(null, null), new Map());
    expect(missing.assumedFacts).toEqual(['leadTimeDays', 'paymentTerms', ...TRACK_RECORD_FACTS]);
    // The profile still carries numbers for scoring: the defaults, which the facts name as assumptions.
    expect(missing.quotedSupplier.leadTimeDays).toBe(QUOTED_SUPPLIER_DEFAULTS.leadTimeDays);
    const full = baselineFromQuotation(source(45, '30% T/T deposit, balance before shipment'), new Map());
    expect(full.assumedFacts).toEqual([...TRACK_RECORD_FACTS]);
  });
});

describe('assuming a fact', () => {
  it('adds a term an offer left out as an assumption, and leaves a fact already tracked as it is', () => {
    const start = initialAssumptions({ leadTimeDays: 45, paymentTerms: '30/70' }, profiles);
    const assumed = assumeFacts(start, 'SUP-003', ['leadTimeDays', 'paymentTerms']);
    expect(assumedFacts(assumed, 'SUP-003')).toEqual(['leadTimeDays', 'paymentTerms']);
    expect(wasAssumedAt(assumed, 'SUP-003', 'leadTimeDays', 99)).toBe(true);
    // Stated since: a later offer that leaves it out again does not take the supplier's word back.
    const stated = stateFacts(assumed, 'SUP-003', ['leadTimeDays'], 5);
    expect(assumedFacts(assumeFacts(stated, 'SUP-003', ['leadTimeDays']), 'SUP-003')).toEqual(['paymentTerms']);
    expect(assumeFacts(start, 'SUP-003', [])).toBe(start);
    expect(assumedFacts(assumed, 'SUP-001')).toEqual(assumedFacts(start, 'SUP-001'));
  });
});

describe('stating a fact', () => {
  it('turns an assumption into the supplier’s word from its message on, never before', () => {
    const start = initialAssumptions({ leadTimeDays: null, paymentTerms: null }, profiles);
    const after = stateFacts(start, 'SUP-001', ['leadTimeDays'], 7);
    expect(wasAssumedAt(after, 'SUP-001', 'leadTimeDays', 6)).toBe(true);
    expect(wasAssumedAt(after, 'SUP-001', 'leadTimeDays', 7)).toBe(false);
    expect(wasAssumedAt(after, 'SUP-001', 'paymentTerms', 99)).toBe(true);
    // A second statement does not move the first.
    expect(wasAssumedAt(stateFacts(after, 'SUP-001', ['leadTimeDays'], 9), 'SUP-001', 'leadTimeDays', 8)).toBe(false);
    expect(wasAssumedAt(after, 'SUP-002', 'leadTimeDays', 1)).toBe(false);
    expect(labelAssumed('50 days', true)).toBe('50 days (assumed)');
    expect(labelAssumed('50 days', false)).toBe('50 days');
    // A term the supplier was asked for reads as not stated; a track record it cannot state, as assumed.
    expect(showFact('leadTimeDays', '50 days', true)).toBe('not stated (50 days assumed)');
    expect(showFact('onTimeDeliveryRate', '90%', true)).toBe('90% (assumed)');
    expect(showFact('paymentTerms', '30/70', false)).toBe('30/70');
  });

  it('in a negotiation: the quotation is scored on the defaults, labelled, until the supplier’s offer states them', async () => {
    const setup = exampleSetup(5, {
      baseline: { ...exampleSetup(5).baseline, leadTimeDays: null, paymentTerms: null },
    });
    const started = createNegotiation(setup);
    expect(assumedFacts(started.state.assumptions, 'SUP-001')).toEqual([
      'leadTimeDays',
      'paymentTerms',
      ...TRACK_RECORD_FACTS,
    ]);
    expect(started.state.discloseCompetitors).toBe(false);
    const { state, events } = await runUnattended(setup, createNegotiationAgents(null), { answers: 'auto' });
    const reply = events.find(
      (e) => e.type === 'message' && e.role === 'supplier_agent' && e.supplierCode === 'SUP-001',
    );
    const statedAt = state.assumptions['SUP-001']?.find((a) => a.fact === 'leadTimeDays')?.statedAtMessage;
    expect(reply?.type === 'message' ? reply.sequence : null).toBe(statedAt);
    // The track record stays an assumption: no offer states it.
    expect(assumedFacts(state.assumptions, 'SUP-001')).toEqual([...TRACK_RECORD_FACTS]);
    // The first round's analysis came after the reply: nothing of the terms is assumed there any more.
    const first = events.find((e) => e.type === 'round_analysis');
    expect(
      first?.type === 'round_analysis' ? first.offers.find((o) => o.supplierCode === 'SUP-001')?.assumed : null,
    ).toEqual([...TRACK_RECORD_FACTS]);
  });
});
