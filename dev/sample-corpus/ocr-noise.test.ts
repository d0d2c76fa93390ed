import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/commerce/rng.js';
import { applySkuNoise, noisySku, SKU_NOISES } from './ocr-noise.js';

describe('applySkuNoise', () => {
  const rng = createRng(1);

  it('makes the slips OCR and retyping make', () => {
    expect(applySkuNoise('MC001-GLW-XL', 'o-zero', rng)).toMatch(/^MC(O01|0O1)-GLW-XL$/);
    expect(applySkuNoise('MC001-GLW-XL', 'one-i', rng)).toBe('MC00I-GLW-XL');
    expect(applySkuNoise('MC001-GLW-XL', 'one-l', rng)).toBe('MC00l-GLW-XL');
    expect(applySkuNoise('MC001-GLW-XL', 'no-dashes', rng)).toBe('MC001GLWXL');
    expect(applySkuNoise('MC001-GLW-XL', 'lowercase', rng)).toBe('mc001-glw-xl');
    expect(applySkuNoise('MC001-GLW-XL', 'extra-spaces', rng)).not.toBe('MC001-GLW-XL');
    expect(applySkuNoise('MC001-GLW-XL', 'extra-spaces', rng)?.replaceAll(' ', '')).toBe('MC001-GLW-XL');
  });

  it('says when a slip cannot happen', () => {
    expect(applySkuNoise('MC220-GLW-XL', 'one-l', rng)).toBeNull();
  });
});

describe('noisySku', () => {
  it('falls through to the next slip that fits and never writes a catalog SKU', () => {
    const slip = noisySku('MC220-GLW-XL', 'one-i', createRng(2), () => false);
    expect(slip.noise).toBe('no-dashes');
    expect(slip.written).toBe('MC220GLWXL');

    const taken = new Set(['MC220GLWXL']);
    expect(noisySku('MC220-GLW-XL', 'one-i', createRng(2), (text) => taken.has(text)).noise).toBe('lowercase');
  });

  it('is deterministic for a seed', () => {
    const run = () => SKU_NOISES.map((noise) => noisySku('WF101-0BS-M', noise, createRng(7), () => false).written);
    expect(run()).toEqual(run());
  });
});
