// Quotations often reach us as PDFs that went through OCR, or were retyped by hand. These are the slips seen there.
import type { Rng } from '../../src/commerce/rng.js';

export const SKU_NOISES = ['o-zero', 'one-i', 'one-l', 'no-dashes', 'lowercase', 'extra-spaces'] as const;
export type SkuNoise = (typeof SKU_NOISES)[number];

function replaceOne(text: string, from: string, to: string, rng: Rng): string | null {
  const positions = [...text].flatMap((ch, i) => (ch === from ? [i] : []));
  if (positions.length === 0) return null;
  const at = rng.pick(positions);
  return text.slice(0, at) + to + text.slice(at + 1);
}

/** The SKU as the slip would write it, or null when the slip cannot happen to this SKU (no 1 to misread, say). */
export function applySkuNoise(sku: string, noise: SkuNoise, rng: Rng): string | null {
  switch (noise) {
    case 'o-zero':
      return replaceOne(sku, '0', 'O', rng) ?? replaceOne(sku, 'O', '0', rng);
    case 'one-i':
      return replaceOne(sku, '1', 'I', rng) ?? replaceOne(sku, 'I', '1', rng);
    case 'one-l':
      return replaceOne(sku, '1', 'l', rng);
    case 'no-dashes':
      return sku.replaceAll('-', '');
    case 'lowercase':
      return sku.toLowerCase();
    case 'extra-spaces':
      return rng.pick([sku.replaceAll('-', ' - '), `${sku} `, sku.replace('-', ' -'), ` ${sku.replace('-', '- ')}`]);
  }
}

export interface NoisySku {
  written: string;
  noise: SkuNoise;
}

/**
 * A misspelling of `sku` that is not itself a catalog SKU (a slip that lands on another product would make the truth
 * wrong): `preferred` if it fits this SKU, else the next slip in SKU_NOISES order that does.
 */
export function noisySku(
  sku: string,
  preferred: SkuNoise,
  rng: Rng,
  isCatalogSku: (text: string) => boolean,
): NoisySku {
  const start = SKU_NOISES.indexOf(preferred);
  const order = [...SKU_NOISES.slice(start), ...SKU_NOISES.slice(0, start)];
  for (const noise of order) {
    const written = applySkuNoise(sku, noise, rng);
    if (written !== null && written !== sku && !isCatalogSku(written)) return { written, noise };
  }
  throw new Error(`no OCR slip fits ${sku}`);
}
