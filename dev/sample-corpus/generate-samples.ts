// Regenerates the committed sample quotations and their answer keys: npm run samples:generate
// Writes data/samples/NN-name.xlsx and NN-name.truth.json; stale numbered files from older runs are removed.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { readCatalogCsv } from '../../src/catalog/products-csv.js';
import { generateSampleCorpus } from './generate-corpus.js';
import { formatTruthJson } from './truth.js';

const samplesDir = 'data/samples';
const outputUrl = new URL(`../../${samplesDir}/`, import.meta.url);
const catalogPath = fileURLToPath(new URL('../../data/products.csv', import.meta.url));
const GENERATED_NAME = /^\d{2}-[a-z0-9-]+\.(xlsx|truth\.json)$/;

const files = await generateSampleCorpus({ catalog: await readCatalogCsv(catalogPath) });
const outputDir = fileURLToPath(outputUrl);
await mkdir(outputDir, { recursive: true });

const written = new Set(files.flatMap((file) => [file.fileName, file.truthFileName]));
for (const name of await readdir(outputDir)) {
  if (GENERATED_NAME.test(name) && !written.has(name)) await rm(new URL(name, outputUrl));
}

let totalBytes = 0;
for (const file of files) {
  const json = formatTruthJson(file.truth);
  await writeFile(new URL(file.fileName, outputUrl), file.xlsx);
  await writeFile(new URL(file.truthFileName, outputUrl), json, 'utf8');
  totalBytes += file.xlsx.length + Buffer.byteLength(json);
  const { items, charges, terms } = file.truth;
  const skuless = items.filter((item) => item.sku === null).length;
  console.log(
    [
      file.fileName.padEnd(40),
      `${String(items.length).padStart(5)} items`,
      skuless > 0 ? `(${skuless} not in catalog)` : '',
      `${charges.length} charges`,
      `${terms.currency ?? '-'}`,
      `messes ${file.messes.join(',')}`,
      `${(file.xlsx.length / 1024).toFixed(1)} KB`,
    ]
      .filter((part) => part !== '')
      .join('  '),
  );
}
console.log(`wrote ${files.length} samples to ${samplesDir}: ${(totalBytes / 1024).toFixed(0)} KB`);
