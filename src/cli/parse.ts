// `npm run -s parse -- [--json] FILE.xlsx`: reads a supplier quotation and matches it to the catalog in the database
// (seeding it on first use). With --json, stdout is exactly one JSON document; logs go to stderr.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { claudeMatchFallback } from '../catalog/llm-match-fallback.js';
import { loadCatalogIndex } from '../catalog/load-catalog.js';
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { scopeToWorkspace } from '../db/scoped.js';
import { seedWorkspace } from '../db/seed.js';
import { llmFromEnv } from '../llm/llm.js';
import { QuotationError } from '../quotation/errors.js';
import { parseQuotation } from '../quotation/parse-quotation.js';
import { toParseJson, toParseTable } from '../quotation/parse-report.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';

const { values, positionals } = parseArgs({
  options: { json: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) {
  console.error('usage: npm run -s parse -- [--json] FILE.xlsx');
  process.exit(2);
}

const db = await openAppDatabase(env);
try {
  const { workspaceId } = await seedWorkspace(db.prisma, {
    slackTeamId: env.SEED_SLACK_TEAM_ID,
    brandName: env.SEED_BRAND_NAME,
  });
  const workspace = scopeToWorkspace(db.prisma, workspaceId);
  const [catalog, suppliers] = await Promise.all([
    loadCatalogIndex(workspace),
    workspace.supplier.findMany({ select: { id: true, code: true, name: true } }),
  ]);
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
} catch (error) {
  if (!(error instanceof QuotationError)) throw error;
  if (values.json) console.log(JSON.stringify({ error: { code: error.code, message: error.userMessage } }));
  else console.error(error.userMessage);
  process.exitCode = 1;
} finally {
  await db.close();
}
