// `/parley catalog` behind the Slack layer: preview, merge, replace, cancel, who may, double clicks, and the matcher
// seeing the new catalog. Against a real (PGlite, or DATABASE_URL's PostgreSQL) database; Slack's files API is a fake.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchLine } from '../../catalog/matcher.js';
import type { CatalogProduct } from '../../catalog/products-csv.js';
import { loadEnv } from '../../config/env.js';
import { type GridReader, readGridInProcess } from '../../quotation/sheet-reader.js';
import { loadCatalogIndex } from '../../db/stores/catalog-store.js';
import { seedWorkspace } from '../../db/seed.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { SharedFileInfo, SlackFiles } from '../quotation/download-shared-file.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';
import { cancelCatalogImport } from './cancel-catalog-import.js';
import { describeCatalog } from './describe-catalog.js';
import { applyCatalogImport, claimCatalogImport, IMPORT_CLAIM_MS } from './import-catalog.js';
import { previewCatalogImport } from './preview-catalog-import.js';

const TEAM = 'T0CATALOG1';
const APPROVER = 'U0APPROVE1';
const ADMIN = 'U0SLACKADM';
const BUYER = 'U0BUYER001';

const valden = (sku: string, name: string, color: string, size: string): CatalogProduct => ({
  brand: 'Valden Outdoor',
  sku,
  name,
  color,
  size,
  category: 'Jackets',
});

let db: TestDatabase;
let ctx: ServiceContext;
let now = new Date('2027-03-01T10:00:00Z');
const uploads = new Map<string, string | Buffer>();

const files: SlackFiles = {
  info: async (_workspaceId, fileId): Promise<SharedFileInfo> => ({
    name: `${fileId}.csv`,
    filetype: 'csv',
    sizeBytes: null,
    sharedBy: APPROVER,
    userTeam: TEAM,
    downloadUrl: `https://files.slack.com/files-pri/${fileId}`,
    share: () => null,
  }),
  download: async (_workspaceId, url) => {
    const content = uploads.get(url.split('/').pop() ?? '');
    if (content === undefined) throw new Error(`no upload at ${url}`);
    return Buffer.from(content);
  },
  channel: async () => ({ isMember: true, isIm: false, isExternal: false, connectedTeamIds: [] }),
  recentFiles: async () => [],
};

const HEADER = 'sku,name,color,size,category';

async function preview(fileId: string, csv: string, by = APPROVER) {
  uploads.set(fileId, csv);
  return previewCatalogImport(ctx, { by, fileId, files });
}

async function importAs(importId: string, mode: 'merge' | 'replace', by = APPROVER) {
  const claim = await claimCatalogImport(ctx, { importId, by, mode });
  if (!claim.ok || claim.value.kind !== 'claimed') return { claim, report: null };
  return { claim, report: await applyCatalogImport(ctx, { importId }) };
}

function importId(result: Awaited<ReturnType<typeof preview>>): string {
  if (!result.ok) throw new Error(`preview refused: ${result.message}`);
  return result.value.importId;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, {
    slackTeamId: TEAM,
    brandName: 'Valden Outdoor',
    catalog: [
      valden('MC001-GLW-S', 'Summit Jacket', 'Glacier White', 'S'),
      valden('MC001-GLW-M', 'Summit Jacket', 'Glacier White', 'M'),
      valden('MC002-0BS-L', 'Ridge Parka', 'Obsidian Black', 'L'),
      valden('MC003-EMR-XL', 'Trail Shell', 'Ember Red', 'XL'),
    ],
  });
  const workspace = await db.prisma.workspace.update({
    where: { slackTeamId: TEAM },
    data: { settings: { approvers: [APPROVER] } },
  });
  // A quotation line matched to the parka: a replace that leaves it out must keep it for the quotation.
  const parka = await db.prisma.product.findFirstOrThrow({ where: { sku: 'MC002-0BS-L' } });
  const quotation = await db.prisma.quotation.create({
    data: {
      workspaceId: workspace.id,
      slackFileId: 'F0QUOTE001',
      slackChannelId: 'C0QUOTES01',
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
    },
  });
  await db.prisma.quotationItem.create({
    data: {
      workspaceId: workspace.id,
      quotationId: quotation.id,
      position: 0,
      sheet: 'Q',
      rowNumber: 2,
      productId: parka.id,
    },
  });
  const contexts = createContextFactory({
    prisma: db.prisma,
    env: loadEnv({}),
    llm: null,
    now: () => now,
    directory: { isWorkspaceAdmin: async (_workspaceId, userId) => userId === ADMIN },
  });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
});
afterAll(() => db?.destroy());

describe('previewCatalogImport', () => {
  it("unpacks an Excel catalog with the context's workbook reader (the server's worker thread)", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Products');
    sheet.addRow(HEADER.split(','));
    sheet.addRow(['JK-2001-BLK-M', 'Storm Anorak', 'Obsidian Black', 'M', 'Jackets']);
    uploads.set('F0CATXLSX1', Buffer.from(await workbook.xlsx.writeBuffer()));
    const unpacked: number[] = [];
    const readGrid: GridReader = (data, limits) => {
      unpacked.push(data.length);
      return readGridInProcess(data, limits);
    };
    const result = await previewCatalogImport({ ...ctx, readGrid }, { by: APPROVER, fileId: 'F0CATXLSX1', files });
    expect(result).toMatchObject({ ok: true, value: { importable: 1, merge: { added: 1 } } });
    expect(unpacked).toHaveLength(1);
    await cancelCatalogImport(ctx, { importId: importId(result), by: APPROVER });
  });

  it('counts what Merge and Replace would do, stores the rows, and changes nothing', async () => {
    const csv = [
      HEADER,
      'MC001-GLW-S,Summit Jacket,Glacier White,S,Jackets', // unchanged
      'MC001-GLW-M,Summit Jacket 2.0,Glacier White,M,Jackets', // changed
      'JK-1001-BLK-XL,Ridge Anorak,Obsidian Black,XL,Jackets', // new
      'JK-1002-BLK-L,,Obsidian Black,L,Jackets', // problem
    ].join('\n');
    const result = await preview('F0CATPREV1', csv);
    expect(result).toMatchObject({
      ok: true,
      value: {
        fileName: 'F0CATPREV1.csv',
        rowsRead: 4,
        importable: 3,
        catalogSize: 4,
        merge: { added: 1, changed: 1, unchanged: 1, removed: 0, retired: 0 },
        // MC003 is deleted; the parka is named by a quotation line, so it is retired instead.
        replace: { added: 1, changed: 1, unchanged: 1, removed: 1, retired: 1 },
        problems: [{ row: 5, sku: 'JK-1002-BLK-L', message: 'name is empty' }],
        problemCount: 1,
      },
    });
    expect(await db.prisma.product.count({ where: { workspace: { slackTeamId: TEAM } } })).toBe(4);
    const stored = await db.prisma.catalogImport.findUniqueOrThrow({ where: { id: importId(result) } });
    expect(stored).toMatchObject({
      status: 'previewed',
      requestedBySlackUserId: APPROVER,
      skippedSkus: ['JK-1002-BLK-L'],
    });
  });

  it('lets approvers and Slack workspace admins import, and nobody else', async () => {
    const csv = `${HEADER}\nA-1,Tee,Black,M,Tops\n`;
    expect(await preview('F0CATPERM1', csv, BUYER)).toMatchObject({ ok: false, error: 'not_allowed' });
    expect((await preview('F0CATPERM2', csv, ADMIN)).ok).toBe(true);
    expect(await describeCatalog(ctx, { by: BUYER })).toMatchObject({ ok: false, error: 'not_allowed' });
  });

  it('tells the person why a file cannot be a catalog', async () => {
    const result = await preview('F0CATBAD01', 'sku,price\nA-1,9\n');
    expect(result).toMatchObject({
      ok: false,
      error: 'invalid_input',
      message: expect.stringMatching(/no name, color/),
    });
  });
});

describe('importing a preview', () => {
  it('merges: updates and adds, keeps the rest, audits it, and a second click changes nothing', async () => {
    const id = importId(
      await preview(
        'F0CATMERG1',
        `${HEADER}\nMC001-GLW-M,Summit Jacket Pro,Glacier White,M,Jackets\nRC-77,Camp Mug,Steel,OS,Gear\n`,
      ),
    );
    const before = await loadCatalogIndex(ctx.db);
    expect(before.bySku('MC001-GLW-M')?.name).toBe('Summit Jacket');

    const { report } = await importAs(id, 'merge');
    expect(report).toMatchObject({ mode: 'merge', added: 1, changed: 1, removed: 0, retired: 0, catalogSize: 5 });
    expect(await db.prisma.product.count({ where: { workspaceId: ctx.workspace.id } })).toBe(5);
    const audit = await db.prisma.auditLog.findFirstOrThrow({ where: { entityId: id } });
    expect(audit).toMatchObject({ action: 'catalog.merge', actorSlackUserId: APPROVER });

    // The matcher's cached index is rebuilt: the new name and the new product are there.
    const after = await loadCatalogIndex(ctx.db);
    expect(after).not.toBe(before);
    expect(after.bySku('MC001-GLW-M')?.name).toBe('Summit Jacket Pro');
    expect(matchLine(after, { rawSku: 'rc-77', description: 'Camp Mug', color: null, size: null })).toMatchObject({
      sku: 'RC-77',
      method: 'exact_sku',
    });

    const again = await claimCatalogImport(ctx, { importId: id, by: APPROVER, mode: 'merge' });
    expect(again).toMatchObject({
      ok: true,
      changed: false,
      value: { kind: 'applied', report: { added: 1, repeated: true } },
    });
    expect(await applyCatalogImport(ctx, { importId: id })).toBeNull();
    expect(await db.prisma.auditLog.count({ where: { entityId: id } })).toBe(1);
  });

  it('replaces: deletes what the file leaves out, retires what quotations name, keeps the skipped rows’ SKUs', async () => {
    const csv = [
      HEADER,
      'JK-1001-BLK-XL,Ridge Anorak,Obsidian Black,XL,Jackets',
      'MC001-GLW-S,,Glacier White,S,Jackets', // skipped: its product must survive the replace
    ].join('\n');
    const id = importId(await preview('F0CATREPL1', csv));
    const { report } = await importAs(id, 'replace');
    expect(report).toMatchObject({ mode: 'replace', added: 1, changed: 0, retired: 1, catalogSize: 2 });

    const rows = await db.prisma.product.findMany({
      where: { workspaceId: ctx.workspace.id },
      orderBy: { sku: 'asc' },
    });
    expect(rows.map((p) => [p.sku, p.retiredAt !== null])).toEqual([
      ['JK-1001-BLK-XL', false],
      ['MC001-GLW-S', false],
      ['MC002-0BS-L', true],
    ]);
    const index = await loadCatalogIndex(ctx.db);
    expect(index.size).toBe(2);
    expect(index.bySku('MC002-0BS-L')).toBeUndefined();
    // A brand SKU that is not STYLE-COLOR-SIZE still matches, exactly and by colour and size words.
    expect(matchLine(index, { rawSku: 'JK-1001-BLK-XL', description: null, color: null, size: null }).method).toBe(
      'exact_sku',
    );
    expect(
      matchLine(index, { rawSku: null, description: 'Ridge Anorak', color: 'Obsidian Black', size: 'XL' }).sku,
    ).toBe('JK-1001-BLK-XL');

    // Listing a retired product again brings it back.
    const back = importId(await preview('F0CATBACK1', `${HEADER}\nMC002-0BS-L,Ridge Parka,Obsidian Black,L,Jackets\n`));
    expect((await importAs(back, 'merge')).report).toMatchObject({ added: 0, changed: 1 });
    expect((await loadCatalogIndex(ctx.db)).bySku('MC002-0BS-L')).toBeDefined();
  });

  it('refuses people who may not, and a preview someone cancelled', async () => {
    const id = importId(await preview('F0CATCANC1', `${HEADER}\nZZ-1,Tee,Black,M,Tops\n`));
    expect(await claimCatalogImport(ctx, { importId: id, by: BUYER, mode: 'merge' })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    expect(await cancelCatalogImport(ctx, { importId: id, by: BUYER })).toMatchObject({ ok: false });
    expect(await cancelCatalogImport(ctx, { importId: id, by: APPROVER })).toMatchObject({ ok: true, changed: true });
    expect(await cancelCatalogImport(ctx, { importId: id, by: APPROVER })).toMatchObject({ ok: true, changed: false });
    expect(await claimCatalogImport(ctx, { importId: id, by: APPROVER, mode: 'merge' })).toMatchObject({
      ok: false,
      error: 'already_final',
    });
    expect(await db.prisma.product.count({ where: { sku: 'ZZ-1' } })).toBe(0);
  });

  it('lets a click take over an import whose process died, once its claim is old', async () => {
    const id = importId(await preview('F0CATDEAD1', `${HEADER}\nDD-1,Tee,Black,M,Tops\n`));
    expect((await claimCatalogImport(ctx, { importId: id, by: APPROVER, mode: 'merge' })).ok).toBe(true);
    // The process died here: a second click is refused while the claim is fresh…
    expect(await claimCatalogImport(ctx, { importId: id, by: APPROVER, mode: 'merge' })).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    // …and takes it over once the claim is older than any import takes.
    now = new Date(now.getTime() + IMPORT_CLAIM_MS + 1000);
    const { report } = await importAs(id, 'merge');
    expect(report).toMatchObject({ added: 1 });
  });
});
