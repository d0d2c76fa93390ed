import { fromCents, lineAmountCents, sum } from '../money.js';
import { ACCESSORY_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, ref, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Dongguan Brightway Headwear Co., Ltd.';
const HEADER_ROW = 5;

export const uncachedFormulasChineseTerms: SampleStyle = {
  name: 'uncached-formulas-chinese-terms',
  messes: [3, 9, 13],
  build(context) {
    const lines = planLines(context, { categories: ACCESSORY_CATEGORIES, styles: 4, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Brightway');
    const sheet = workbook.addWorksheet('报价单');
    setWidths(sheet, [18, 40, 14, 12, 14, 16]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['报价单 Quotation for Valden Outdoor']);
    setRow(sheet, HEADER_ROW, [
      '货号 Item No.',
      '品名 Description',
      '颜色 Colour',
      '数量 Qty',
      '单价 Unit Price',
      '金额 Amount',
    ]);
    boldRow(sheet, HEADER_ROW, 1, 6);

    // Written by a script that never calculates: the unit prices are "list × 0.9" and the amounts "qty × price",
    // all formulas saved without a value.
    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const listCents = Math.round(unitCents / 0.9 / 10) * 10;
      const netCents = Math.round(listCents * 0.9);
      amounts.push(lineAmountCents(quantity, netCents));
      setRow(sheet, row, [variant.sku, variant.name, variant.color, quantity]);
      sheet.getCell(row, 5).value = { formula: `${fromCents(listCents)}*0.9` } as never;
      sheet.getCell(row, 6).value = { formula: `${ref(row, 4)}*${ref(row, 5)}` } as never;
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description: variant.name,
        color: variant.color,
        quantity,
        unitPrice: fromCents(netCents),
      });
    });

    const totalRow = HEADER_ROW + 1 + lines.length;
    setRow(sheet, totalRow, ['合计 Total'], 2);
    sheet.getCell(totalRow, 6).value = {
      formula: `SUM(${ref(HEADER_ROW + 1, 6)}:${ref(totalRow - 1, 6)})`,
    } as never;
    boldRow(sheet, totalRow, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    const remarks = [
      '币种 Currency: 美元 USD',
      '付款方式 Payment: 30% T/T deposit, balance before shipment',
      '交期 Lead time: 40 days',
    ];
    remarks.forEach((text, i) => setRow(sheet, totalRow + 2 + i, [text]));

    return {
      workbook,
      description:
        'Formulas saved without cached values: every unit price is "list × 0.9" and every amount "qty × price", ' +
        'worked out from the cells they name; bilingual terms such as "币种 Currency: 美元 USD".',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30% T/T deposit, balance before shipment',
        leadTimeDays: 40,
        currency: 'USD',
        incoterm: null,
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(sum(amounts)),
    };
  },
};
