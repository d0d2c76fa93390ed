// A brand brings its own catalog through Slack: `/parley catalog` → the modal's file field → the preview → Replace,
// then a quotation shared in the channel is matched against the brand's products (SKUs that are not Valden's
// STYLE-COLOR-SIZE). Also: someone who may not import is told so in the modal, and a second click changes nothing.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { playCatalogImport } from '../../dev/slack-stand-in/play-catalog-import.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, BLOCK, SLASH_COMMAND } from '../../src/slack/ids.js';

const running = useSandboxedParley({
  afterStart: async ({ db }) => {
    // The approvers are the workspace's own (per-workspace settings), whatever the environment seeds.
    await db.prisma.workspace.update({
      where: { slackTeamId: TEAM_ID },
      data: { settings: { approvers: [PEOPLE.approver.id, PEOPLE.secondApprover.id] } },
    });
  },
});

const CATALOG = [
  'Item code,Product name,Colour,Size,Category',
  'RG-TENT-2P-GRN,Ridgeline Tent 2P,Forest Green,2P,Tents',
  'RG-TENT-3P-GRN,Ridgeline Tent 3P,Forest Green,3P,Tents',
  'RG-BAG-REG-NVY,"Aurora Sleeping Bag, Regular",Navy,Regular,Sleeping bags',
  'RG-BAG-LNG-NVY,,Navy,Long,Sleeping bags',
].join('\n');

async function quotationWithBrandSkus(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Quotation');
  sheet.addRow(['Supplier', 'Northwind Outdoor Manufacturing']);
  sheet.addRow(['Payment terms', '30/70']);
  sheet.addRow(['Lead time', '45 days']);
  sheet.addRow([]);
  sheet.addRow(['SKU', 'Description', 'Quantity', 'Unit Price (USD)', 'Total (USD)']);
  sheet.addRow(['RG-TENT-2P-GRN', 'Ridgeline Tent 2P Forest Green', 400, 62.5, 25000]);
  sheet.addRow(['RG-TENT-3P-GRN', 'Ridgeline Tent 3P Forest Green', 300, 81, 24300]);
  sheet.addRow(['RG-BAG-REG-NVY', 'Aurora Sleeping Bag Regular Navy', 500, 38.2, 19100]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('importing the brand’s catalog through Slack', () => {
  it('refuses a colleague in the modal itself', async () => {
    const { sandbox } = running.parley;
    await sandbox.driver.slashCommand(PEOPLE.colleague.id, CHANNEL.id, SLASH_COMMAND, 'catalog');
    const refusal = await sandbox.waitFor(
      () => sandbox.model.openViews(PEOPLE.colleague.id).find((view) => /:lock:/.test(JSON.stringify(view.view))),
      { what: 'the refusal' },
    );
    expect(JSON.stringify(refusal.view)).toMatch(/approvers and workspace admins/);
    expect(JSON.stringify(refusal.view)).not.toContain(BLOCK.catalogFile);
  });

  it('previews, replaces the catalog on a click, and matches the next quotation against it', async () => {
    const { sandbox } = running.parley;
    const { prisma } = running.db;
    const valden = await prisma.product.count();
    expect(valden).toBeGreaterThan(10_000);

    const result = await playCatalogImport(running.parley, {
      by: { id: PEOPLE.approver.id, name: 'sam' },
      channelId: CHANNEL.id,
      file: { name: 'ridgeline-catalog.csv', bytes: Buffer.from(CATALOG) },
      mode: 'replace',
    });
    expect(result.outcome.join('\n')).toMatch(
      /Imported .*ridgeline-catalog\.csv.*3 new · 0 changed · \d[\d,]* removed/,
    );

    const import_ = await prisma.catalogImport.findFirstOrThrow({ where: { fileName: 'ridgeline-catalog.csv' } });
    expect(import_).toMatchObject({ status: 'applied', mode: 'replace', decidedBySlackUserId: PEOPLE.approver.id });
    expect(import_.preview).toMatchObject({ problemCount: 1, problems: [{ row: 5, message: 'name is empty' }] });
    expect(await prisma.product.count({ where: { retiredAt: null } })).toBe(3);
    expect(await prisma.auditLog.count({ where: { entityId: import_.id, action: 'catalog.replace' } })).toBe(1);

    // A second click on the same preview (Slack shows the modal's last view, but a stale client may not) is a no-op.
    const again = await sandbox.driver.sendInteraction({
      type: 'block_actions',
      team: { id: TEAM_ID, domain: 'valden' },
      user: { id: PEOPLE.approver.id, username: 'sam', name: 'sam', team_id: TEAM_ID },
      api_app_id: sandbox.model.appId,
      token: 'sandbox-verification-token',
      trigger_id: sandbox.model.issueTrigger(PEOPLE.approver.id),
      container: { type: 'view', view_id: 'V0STALE' },
      actions: [
        {
          type: 'button',
          action_id: ACTION.catalogReplace,
          block_id: BLOCK.catalogActions,
          value: JSON.stringify({ ci: import_.id }),
          action_ts: '1767225700.000300',
        },
      ],
    });
    expect(again.status).toBe(200);
    await running.parley.settle();
    expect(await prisma.auditLog.count({ where: { entityId: import_.id } })).toBe(1);

    // The next quotation is read against the brand's products.
    await sandbox.driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
      name: 'northwind.xlsx',
      bytes: await quotationWithBrandSkus(),
    });
    await running.parley.settle();
    const quotation = await prisma.quotation.findFirstOrThrow({
      where: { fileName: 'northwind.xlsx' },
      include: { items: { include: { product: true }, orderBy: { position: 'asc' } } },
    });
    expect(quotation.items.map((item) => [item.product?.sku, item.matchMethod])).toEqual([
      ['RG-TENT-2P-GRN', 'exact_sku'],
      ['RG-TENT-3P-GRN', 'exact_sku'],
      ['RG-BAG-REG-NVY', 'exact_sku'],
    ]);

    // Every Web API call Parley made was one Slack would accept (arguments, scopes, Block Kit limits).
    const { calls } = sandbox.model;
    expect(calls.filter((call) => !call.ok).map((call) => `${call.method}: ${call.error ?? ''}`)).toEqual([]);
    expect(calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  }, 180_000);
});
