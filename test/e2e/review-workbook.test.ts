// The review workbook end to end (issue 16, item 6), through the local Slack stand-in and the real Bolt receiver: the
// buyer shares a quotation, clicks "Download all lines", Parley uploads every line as an XLSX into the thread; the
// buyer fixes two lines in Excel (one right, one a SKU the catalog does not have) and shares the file back in the
// thread; Parley recognises its own workbook, applies the good row, names the bad one and leaves its line alone.
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { buttonsIn } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';
import { LINES_SHEET, REVIEW_WORKBOOK_COLUMNS } from '../../src/quotation/review-workbook.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);
const column = (header: (typeof REVIEW_WORKBOOK_COLUMNS)[number]) => REVIEW_WORKBOOK_COLUMNS.indexOf(header) + 1;

const running = useSandboxedParley();

describe('the review workbook, end to end', () => {
  it('uploads every line, and applies the buyer’s fixes shared back in the thread, naming the rows it cannot apply', async () => {
    const { driver, model } = running.parley.sandbox;
    const buyer = PEOPLE.buyer.id;
    const shared = await driver.shareFile(buyer, CHANNEL.id, { name: 'quote.xlsx', bytes: await readFile(SAMPLE) });
    await running.parley.settle();
    const thread = () => model.thread(CHANNEL.id, shared.ts);

    const review = thread().find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.reviewDownloadLines));
    const download = review && buttonsIn(review).find((b) => b.actionId === ACTION.reviewDownloadLines);
    if (!review || !download) throw new Error('no Download all lines button');
    await driver.clickButton(buyer, { channel: CHANNEL.id, ts: review.ts }, download.actionId, {
      value: download.value,
    });
    await running.parley.settle();
    // A double click with no line changed uploads nothing more.
    await driver.clickButton(buyer, { channel: CHANNEL.id, ts: review.ts }, download.actionId, {
      value: download.value,
    });
    await running.parley.settle();

    const uploads = thread()
      .flatMap((m) => m.fileIds.map((id) => model.file(id)))
      .filter((file) => file?.name.endsWith(' - review.xlsx'));
    expect(uploads).toHaveLength(1);
    const bytes = uploads[0]?.bytes;
    if (!bytes) throw new Error('the workbook has no bytes');

    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: shared.ts } });
    const items = await running.db.prisma.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { position: 'asc' },
      include: { product: true },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet(LINES_SHEET);
    if (!sheet) throw new Error('no Lines sheet');
    // Every line, the auto-accepted ones too.
    expect(sheet.rowCount - 1).toBe(items.length);

    // The buyer re-points line 1 at line 2's product, and types a SKU the catalog lacks on line 3.
    const [first, second, third] = items;
    if (!first || !second?.product || !third) throw new Error('too few lines');
    const rowOf = (itemId: string) => {
      let found = 0;
      sheet.eachRow((row, number) => {
        if (row.getCell(column('Line id')).value === itemId) found = number;
      });
      return found;
    };
    sheet.getRow(rowOf(first.id)).getCell(column('Confirmed SKU')).value = second.product.sku;
    sheet.getRow(rowOf(third.id)).getCell(column('Confirmed SKU')).value = 'ZZ999-<!channel>';
    const back = Buffer.from(await workbook.xlsx.writeBuffer());

    await driver.shareFileInThread(buyer, CHANNEL.id, shared.ts, { name: 'quote - review.xlsx', bytes: back });
    await running.parley.settle();

    const after = await running.db.prisma.quotationItem.findMany({
      where: { quotationId: quotation.id },
      orderBy: { position: 'asc' },
    });
    expect(after[0]).toMatchObject({ productId: second.productId, reviewState: 'confirmed', matchMethod: 'manual' });
    expect(after[2]).toMatchObject({ productId: third.productId, reviewState: third.reviewState });
    // Nothing else moved.
    expect(after.slice(3).map((item) => [item.productId, item.reviewState])).toEqual(
      items.slice(3).map((item) => [item.productId, item.reviewState]),
    );
    // The workbook was not read as a second quotation: its row is done, with no lines.
    const fileRow = await running.db.prisma.quotation.findFirstOrThrow({ where: { fileName: 'quote - review.xlsx' } });
    expect(fileRow.status).toBe('completed');
    expect(await running.db.prisma.quotationItem.count({ where: { quotationId: fileRow.id } })).toBe(0);

    const text = JSON.stringify(thread().map((m) => m.blocks));
    expect(text).toContain('applied to the review of *quote.xlsx*: 1 line confirmed');
    expect(text).toMatch(/Row \d+: “ZZ999-&lt;!channel&gt;” is not a SKU of the catalog/);
    expect(text).not.toContain('<!channel>');
  }, 120_000);
});
