import { describe, expect, it } from 'vitest';
import { createRng } from '../commerce/rng.js';
import {
  getStrategy,
  knownStrategyIds,
  sampleStrategies,
  STRATEGIES,
  strategiesFor,
  type StrategySide,
} from './strategies.js';

const ids = (strategies: readonly { id: string }[]) => strategies.map((strategy) => strategy.id);

describe('strategy registry', () => {
  it('holds at least 12 well-formed strategies with unique ids', () => {
    expect(STRATEGIES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(ids(STRATEGIES)).size).toBe(STRATEGIES.length);
    for (const strategy of STRATEGIES) {
      expect(strategy.id).toMatch(/^STRAT_[A-Z0-9_]+$/);
      expect(strategy.name.length).toBeGreaterThan(0);
      expect(strategy.description.length).toBeGreaterThan(0);
      expect(strategy.description).not.toContain('\n');
      expect<StrategySide[]>(['brand', 'supplier', 'both']).toContain(strategy.side);
    }
  });

  it('has enough strategies for each side to draw 4', () => {
    expect(strategiesFor('brand').length).toBeGreaterThanOrEqual(4);
    expect(strategiesFor('supplier').length).toBeGreaterThanOrEqual(4);
    expect(strategiesFor('brand').every((strategy) => strategy.side !== 'supplier')).toBe(true);
    expect(strategiesFor('supplier').every((strategy) => strategy.side !== 'brand')).toBe(true);
    expect(strategiesFor()).toHaveLength(STRATEGIES.length);
  });

  it('looks strategies up by id and keeps only known ids an agent reports', () => {
    expect(getStrategy('STRAT_ANCHOR_COMPETITOR')?.side).toBe('brand');
    expect(getStrategy('STRAT_MADE_UP')).toBeNull();
    expect(knownStrategyIds(['STRAT_NIBBLE', 'STRAT_MADE_UP', 'STRAT_NIBBLE', 'STRAT_PACKAGE_DEAL'])).toEqual([
      'STRAT_NIBBLE',
      'STRAT_PACKAGE_DEAL',
    ]);
  });
});

describe('sampleStrategies', () => {
  it('draws 4 distinct strategies by default', () => {
    const drawn = sampleStrategies(createRng(7));
    expect(drawn).toHaveLength(4);
    expect(new Set(ids(drawn)).size).toBe(4);
  });

  it('draws the same strategies for the same seed, and varies across seeds', () => {
    expect(ids(sampleStrategies(createRng(123)))).toEqual(ids(sampleStrategies(createRng(123))));
    const draws = new Set(Array.from({ length: 20 }, (_, seed) => ids(sampleStrategies(createRng(seed))).join()));
    expect(draws.size).toBeGreaterThan(10);
  });

  it('draws only what a side may use', () => {
    for (let seed = 0; seed < 50; seed++) {
      expect(sampleStrategies(createRng(seed), 4, 'brand').every((strategy) => strategy.side !== 'supplier')).toBe(
        true,
      );
      expect(sampleStrategies(createRng(seed), 4, 'supplier').every((strategy) => strategy.side !== 'brand')).toBe(
        true,
      );
    }
  });

  it('reaches every strategy over many draws', () => {
    const rng = createRng(1);
    const seen = new Set<string>();
    for (let run = 0; run < 200; run++) for (const strategy of sampleStrategies(rng)) seen.add(strategy.id);
    expect(seen.size).toBe(STRATEGIES.length);
  });

  it('accepts any RNG with next(), even one at the edges of [0, 1)', () => {
    expect(ids(sampleStrategies({ next: () => 0 }, 3))).toEqual(ids(STRATEGIES.slice(0, 3)));
    const top = sampleStrategies({ next: () => 0.999999999 }, 4);
    expect(new Set(ids(top)).size).toBe(4);
    expect(new Set(ids(sampleStrategies({ next: () => 1 }, 4))).size).toBe(4);
  });

  it('does not change the registry', () => {
    const before = ids(STRATEGIES);
    sampleStrategies(createRng(5), STRATEGIES.length);
    expect(ids(STRATEGIES)).toEqual(before);
  });

  it('draws 0 or all, and refuses more than there are', () => {
    expect(sampleStrategies(createRng(5), 0)).toEqual([]);
    expect(new Set(ids(sampleStrategies(createRng(5), STRATEGIES.length))).size).toBe(STRATEGIES.length);
    expect(() => sampleStrategies(createRng(5), STRATEGIES.length + 1)).toThrow(RangeError);
    expect(() => sampleStrategies(createRng(5), -1)).toThrow(RangeError);
    expect(() => sampleStrategies(createRng(5), 2.5)).toThrow(RangeError);
  });
});
