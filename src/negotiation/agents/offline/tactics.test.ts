import { describe, expect, it } from 'vitest';
import { createRng } from '../../../commerce/rng.js';
import { STRATEGIES } from '../../strategies.js';
import { formatPercent } from '../../../commerce/money.js';
import { describePaymentTerms } from '../../../commerce/payment-terms.js';
import { productName, skeleton, skuRef } from '../format.js';
import {
  closeSentences,
  creditStrategies,
  missingStrategy,
  phrase,
  pickPhrase,
  tacticsOfStrategy,
  type Tactic,
} from './tactics.js';

describe('strategy ids → tactics', () => {
  it('reads every registry id as exactly one tactic', () => {
    for (const strategy of STRATEGIES) expect(tacticsOfStrategy(strategy.id), strategy.id).toHaveLength(1);
  });

  it('credits the offered ids whose tactic a turn used, in the offered order', () => {
    const offered = ['STRAT_TRADE_TERMS', 'STRAT_NIBBLE', 'STRAT_BATNA_SIGNAL'];
    expect(creditStrategies(offered, new Set<Tactic>(['batna', 'terms']))).toEqual([
      'STRAT_TRADE_TERMS',
      'STRAT_BATNA_SIGNAL',
    ]);
    expect(creditStrategies(offered, new Set<Tactic>(['quality']))).toEqual([]);
    expect(creditStrategies([], new Set<Tactic>(['quality']))).toEqual([]);
  });

  it('finds a fitting line for an unused offered strategy, skipping lines that do not apply', () => {
    const lines = {
      anchor: [
        phrase<{ cheaper: boolean }>(
          ['anchor'],
          () => 'anchor',
          (fill) => fill.cheaper,
        ),
      ],
      terms: [phrase<{ cheaper: boolean }>(['terms'], () => 'terms')],
    };
    const offered = ['STRAT_ANCHOR_COMPETITOR', 'STRAT_TRADE_TERMS'];
    const never = (): boolean => false;
    expect(missingStrategy(offered, new Set(), lines, { cheaper: false }, never)?.[0]?.render({ cheaper: false })).toBe(
      'terms',
    );
    expect(missingStrategy(offered, new Set(), lines, { cheaper: true }, never)?.[0]?.render({ cheaper: true })).toBe(
      'anchor',
    );
    expect(missingStrategy(offered, new Set<Tactic>(['terms']), lines, { cheaper: true }, never)).toBeNull();
  });

  it('avoids a sentence already said when the bank has another', () => {
    const bank = [phrase<null>([], () => 'We can do $10.00.'), phrase<null>([], () => 'Our price is $10.00.')];
    for (let seed = 1; seed <= 20; seed += 1) {
      const picked = pickPhrase(bank, null, createRng(seed), {
        preferred: new Set(),
        said: (sentence) => skeleton(sentence) === skeleton('We can do $9.50.'),
      });
      expect(picked.text).toBe('Our price is $10.00.');
    }
  });
});

describe('message formats', () => {
  it('cites a SKU with its short product name, no space before the parenthesis', () => {
    expect(productName('Sawtooth Down Parka - Storm Blue - L')).toBe('Sawtooth Down Parka');
    expect(skuRef({ sku: 'MC004-STB-L', description: 'Sawtooth Down Parka - Storm Blue - L' })).toBe(
      'MC004-STB-L(Sawtooth Down Parka)',
    );
  });

  it('writes percentages and terms the way people say them', () => {
    expect(formatPercent(0.045, 1, 0)).toBe('4.5%');
    expect(formatPercent(0.05, 1, 0)).toBe('5%');
    expect(formatPercent(0.6, 0)).toBe('60%');
    expect(describePaymentTerms('100')).toBe('100% upfront');
    expect(describePaymentTerms('40/60')).toBe('40/60');
  });

  it('masks numbers and SKUs in a sentence skeleton', () => {
    expect(skeleton('MC004-STB-L(Parka) at $79.10, 4.5% off')).toBe(skeleton('WJ008-0BS-M(Jacket) at $61.35, 3% off'));
  });
});

describe('closing a sentence after a name that ends in a period', () => {
  it('uses one period for both, and leaves an ellipsis and ordinary sentences alone', () => {
    const thanks = phrase<{ name: string }>([], (f) => `Thanks, ${f.name}. We've reviewed your offer.`);
    expect(thanks.render({ name: 'Ningbo Everbright Garments Co., Ltd.' })).toBe(
      "Thanks, Ningbo Everbright Garments Co., Ltd. We've reviewed your offer.",
    );
    expect(thanks.render({ name: 'RapidGear Co' })).toBe("Thanks, RapidGear Co. We've reviewed your offer.");
    expect(closeSentences('We could wait...')).toBe('We could wait...');
    expect(closeSentences('At $12.50. Then 4.5% off.')).toBe('At $12.50. Then 4.5% off.');
  });
});
