// What the quotation CLIs (parse, negotiate) share: the seeded workspace with its catalog and suppliers, and a
// rejected file reported the way the caller asked — one JSON document, or the buyer's sentence on stderr.
import type { CatalogIndex } from '../catalog/catalog-index.js';
import { loadCatalogIndex } from '../db/stores/catalog-store.js';
import { env } from '../config/env.js';
import { openAppDatabase } from '../db/app-database.js';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { seedWorkspace } from '../db/seed.js';
import { QuotationError } from '../quotation/errors.js';

export interface QuotationCliContext {
  workspace: WorkspaceDb;
  catalog: CatalogIndex;
  suppliers: { id: string; code: string; name: string }[];
}

export async function runQuotationCli(json: boolean, work: (context: QuotationCliContext) => Promise<void>) {
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
    await work({ workspace, catalog, suppliers });
  } catch (error) {
    if (!(error instanceof QuotationError)) throw error;
    if (json) console.log(JSON.stringify({ error: { code: error.code, message: error.userMessage } }));
    else console.error(error.userMessage);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}
