import { formatPrefixed, fromCents, lineAmountCents, sum } from '../money.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { boldRow, createWorkbook, mergedLine, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Xiamen Haitian Apparel Co., Ltd.';
const HEADER_ROW = 7;
const WIDTH = 8;

/** The Chinese garment word a Xiamen factory puts before the English style name. */
const CHINESE_CATEGORY: Record<string, string> = {
  Jackets: '夹克',
  Fleece: '抓绒衣',
  Tees: 'T恤',
  Pants: '长裤',
};

export const bilingualChinese: SampleStyle = {
  name: 'bilingual-chinese-headers',
  messes: [4, 9, 13],
  build(context) {
    const lines = planLines(context, {
      categories: Object.keys(CHINESE_CATEGORY),
      styles: 6,
      variantsPerStyle: [2, 3],
      currency: 'CNY',
      minQuantity: 100,
    });
    const workbook = createWorkbook('海天外贸部');
    const sheet = workbook.addWorksheet('报价单');
    setWidths(sheet, [8, 16, 38, 18, 10, 10, 14, 16]);
    mergedLine(sheet, 1, WIDTH, '厦门海天服饰有限公司', { bold: true, size: 16 });
    mergedLine(sheet, 2, WIDTH, SUPPLIER, { bold: true, size: 12 });
    mergedLine(
      sheet,
      3,
      WIDTH,
      '地址 Add: 厦门市湖里区高崎南五路12号 / No. 12 Gaoqi South 5th Road, Huli District, Xiamen',
    );
    mergedLine(sheet, 4, WIDTH, '报价单 QUOTATION', { bold: true, size: 14 });
    setRow(sheet, 5, ['客户 Customer: Valden Outdoor']);
    setRow(sheet, 5, ['日期 Date: 2025-05-08'], 6);

    setRow(sheet, HEADER_ROW, [
      '序号\nNo.',
      '款号\nStyle No.',
      '品名\nDescription',
      '颜色 / Colour',
      '尺码 Size',
      '数量 Qty',
      '单价\nUnit Price',
      '金额\nAmount',
    ]);
    boldRow(sheet, HEADER_ROW, 1, WIDTH);
    sheet.getRow(HEADER_ROW).alignment = { wrapText: true, vertical: 'middle' };

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      const description = `${CHINESE_CATEGORY[variant.category] ?? ''} ${variant.name}`.trim();
      setRow(sheet, row, [
        i + 1,
        variant.sku,
        description,
        variant.color,
        variant.size,
        quantity,
        formatPrefixed('¥', unitCents),
        formatPrefixed('¥', amount),
      ]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        color: variant.color,
        size: variant.size,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    const totalRow = HEADER_ROW + lines.length + 1;
    const total = sum(amounts);
    setRow(
      sheet,
      totalRow,
      ['合计 Total', sum(lines.map((line) => line.quantity)), undefined, formatPrefixed('¥', total)],
      5,
    );
    boldRow(sheet, totalRow, 1, WIDTH);

    const remarks = [
      '备注 Remarks:',
      '1. 币种 Currency: 人民币 RMB',
      '2. 付款方式 Payment: 30% T/T deposit, balance before shipment',
      '3. 交货期 Lead time: 50 days after deposit',
      '4. 价格条款 Price term: FOB Xiamen',
      '5. 最小起订量 MOQ: 500 pcs/style',
      '6. 报价有效期 Validity: 30 days',
    ];
    remarks.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        'Chinese factory sheet with bilingual header cells (款号 Style No., 品名 Description, 数量 Qty, 单价 Unit ' +
        'Price...), some split by a line break, prices as text with ¥ (RMB, so CNY) and bilingual numbered remarks.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% T/T deposit, balance before shipment',
        leadTimeDays: 50,
        currency: 'CNY',
        incoterm: 'FOB Xiamen',
        moq: 500,
        validityDays: 30,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
