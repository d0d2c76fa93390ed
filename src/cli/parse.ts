// `npm run -s parse -- [--json] FILE.xlsx`: reads a supplier quotation and matches it to the catalog in the database
// (seeding it on first use). With --json, stdout is exactly one JSON document; logs go to stderr.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { claudeMatchFallback } from '../catalog/llm-match-fallback.js';
import { env } from '../config/env.js';
import { llmFromEnv } from '../llm/llm.js';
import { parseQuotation } from '../quotation/parse-quotation.js';
import { toParseJson, toParseTable } from '../quotation/parse-report.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';
import { runQuotationCli } from './quotation-cli.js';

const { values, positionals } = parseArgs({
  options: { json: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) {
  console.error('usage: npm run -s parse -- [--json] FILE.xlsx');
  process.exit(2);
}

await runQuotationCli(values.json, async ({ catalog, suppliers }) => {
  const llm = llmFromEnv(env);
  const parsed = await parseQuotation({
    data: await readFile(file),
    catalog,
    suppliers,
    limits: readLimitsFrom(env),
    llm,
    llmMatchFallback: llm ? claudeMatchFallback(llm) : undefined,
  });
  console.log(values.json ? JSON.stringify(toParseJson(parsed), null, 2) : toParseTable(parsed));
});
