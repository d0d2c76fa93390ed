// Regenerates the committed demo catalog: npm run catalog:generate
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateCatalog, toCatalogCsv } from './catalog-generator.js';
import { parseSku } from '../../src/catalog/sku.js';

const relativePath = 'data/products.csv';
const outputUrl = new URL(`../../${relativePath}`, import.meta.url);

const products = generateCatalog();
const styles = new Set(products.map((product) => parseSku(product.sku)?.skuPrefix));

await mkdir(new URL('.', outputUrl), { recursive: true });
await writeFile(fileURLToPath(outputUrl), toCatalogCsv(products), 'utf8');
console.log(`wrote ${relativePath}: ${products.length} products, ${styles.size} styles`);
