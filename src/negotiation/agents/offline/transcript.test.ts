// A whole offline negotiation through the scripted driver: does it read like a negotiation, and do the personalities
// and the rules hold from the first RFQ to the last round?
import { describe, expect, it } from 'vitest';
import { PRICE_RANGES } from '../../../config/business-rules.js';
import { baselineValue } from './concessions.js';
import { wordCount } from '../format.js';
import { readOfferDraft } from '../interfaces.js';
import { BASELINE, runScripted, supplierProfile, type ScriptResult } from '../../../../test/support/agents.js';

const VALUE = baselineValue(BASELINE);
const SEEDS = Array.from({ length: 12 }, (_, index) => index + 1);
const MODES = ['balanced', 'cost', 'quality', 'speed', 'cashflow'] as const;

/** The same agent never says the same thing twice: the brand across all suppliers, each supplier in its thread. */
function speakers(result: ScriptResult): Map<string, string[]> {
  const bySpeaker = new Map<string, string[]>();
  for (const entry of result.entries) {
    const key = entry.speaker === 'brand' ? 'brand' : entry.supplierCode;
    bySpeaker.set(key, [...(bySpeaker.get(key) ?? []), entry.turn.message_text]);
  }
  return bySpeaker;
}

describe('a scripted 4-round negotiation with all three suppliers', () => {
  it('reads like a negotiation: no agent repeats a message, every message carries numbers', async () => {
    for (const mode of MODES) {
      for (const seed of SEEDS) {
        const result = await runScripted({ seed, mode });
        for (const [speaker, texts] of speakers(result)) {
          expect(new Set(texts).size, `${mode}/${seed}/${speaker}`).toBe(texts.length);
          for (const text of texts) expect(text).toMatch(/\d/);
        }
      }
    }
  });

  it('runs the round-1 wave: RFQs to SUP-002 and SUP-003 first, then SUP-001 with their quotes as leverage', async () => {
    const { entries } = await runScripted({ seed: 1 });
    const roundOne = entries.filter((entry) => entry.round === 1);
    expect(roundOne.map((entry) => `${entry.supplierCode}:${entry.speaker}`)).toEqual([
      'SUP-002:brand',
      'SUP-002:supplier',
      'SUP-003:brand',
      'SUP-003:supplier',
      'SUP-001:brand',
      'SUP-001:supplier',
    ]);
    expect(roundOne[0]?.turn.action.type).toBe('REQUEST_CRITERIA');
    expect(roundOne[2]?.turn.action.type).toBe('REQUEST_CRITERIA');
    expect(roundOne[4]?.briefs).not.toBeNull();
    // The quotes are leverage without their names: by default the brand names no competitor to another supplier.
    expect(roundOne[4]?.briefs?.negotiator).toMatch(/RapidGear Co|Alpine Premium/);
    expect(roundOne[4]?.turn.message_text).toMatch(/competing|another supplier/i);
    expect(roundOne[4]?.turn.message_text).not.toMatch(/RapidGear Co|Alpine Premium/);
  });

  it('keeps every offer inside its supplier’s price range and SUP-002 at 60% after the curveball', async () => {
    for (const mode of MODES) {
      for (const seed of SEEDS) {
        const result = await runScripted({ seed, mode, mandate: { targetTotal: 36_000, walkAwayTotal: 44_000 } });
        for (const [code, offers] of Object.entries(result.offers)) {
          const range = PRICE_RANGES[supplierProfile(code).priceLevel];
          for (const offer of offers) {
            expect(offer.total / VALUE).toBeGreaterThanOrEqual(range.min);
            expect(offer.total / VALUE).toBeLessThanOrEqual(range.max + 0.001);
          }
        }
        for (const entry of result.entries) {
          if (entry.speaker !== 'supplier' || entry.supplierCode !== 'SUP-002' || entry.round < 2) continue;
          if (entry.turn.action.type === 'WALK_AWAY') continue;
          expect(readOfferDraft(entry.turn.action)?.capacityShare).toBeLessThanOrEqual(0.6);
          expect(entry.turn.message_text).toContain('60%');
        }
      }
    }
  });

  it('keeps the brand’s messages to 80–100 words and asks the buyer once or twice', async () => {
    for (const seed of SEEDS) {
      const result = await runScripted({ seed });
      for (const entry of result.entries) {
        const type = entry.turn.action.type;
        if (entry.speaker === 'brand' && (type === 'COUNTER_OFFER' || type === 'ACCEPT')) {
          const words = wordCount(entry.turn.message_text);
          expect(words).toBeGreaterThanOrEqual(80);
          expect(words).toBeLessThanOrEqual(100);
        }
      }
      expect(result.questions.length).toBeGreaterThanOrEqual(1);
      expect(result.questions.length).toBeLessThanOrEqual(2);
    }
  });

  it('replays identically for the same seed and differently for another', async () => {
    const first = await runScripted({ seed: 42, mode: 'cost' });
    const again = await runScripted({ seed: 42, mode: 'cost' });
    const other = await runScripted({ seed: 43, mode: 'cost' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(first));
  });

  it('can end at an impasse when a cost-first buyer pushes the premium supplier below its floor', async () => {
    const endings = new Set<string | null>();
    for (const seed of Array.from({ length: 40 }, (_, index) => index + 1)) {
      const result = await runScripted({ seed, mode: 'cost', mandate: { targetTotal: 33_000, walkAwayTotal: 40_000 } });
      endings.add(result.ended['SUP-002'] ?? null);
    }
    expect(endings.has('REJECT') || endings.has('WALK_AWAY')).toBe(true);
    expect(endings.has(null)).toBe(true);
  });
});
