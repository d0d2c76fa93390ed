/**
 * Valden Outdoor SKUs read `STYLE-COLOR-SIZE`, e.g. `MC001-GLW-XL`:
 * - style: line letter + family letter + 3 digits (`MC001`, see PRODUCT_LINES / PRODUCT_FAMILIES),
 * - colour: 3 characters, mostly letters, a few with 0 or 1 (`GLW`, `0BS`),
 * - size: 1–3 characters (`XL`, `32`, `7H`, `OS`).
 */
export const SKU_PATTERN = /^[A-Z]{2}\d{3}-[A-Z0-9]{3}-[A-Z0-9]{1,3}$/;

export interface SkuParts {
  skuPrefix: string;
  colorCode: string;
  sizeCode: string;
}

export function parseSku(sku: string): SkuParts | null {
  if (!SKU_PATTERN.test(sku)) return null;
  // The pattern fixes where each part sits, so slicing cannot go wrong.
  return { skuPrefix: sku.slice(0, 5), colorCode: sku.slice(6, 9), sizeCode: sku.slice(10) };
}
