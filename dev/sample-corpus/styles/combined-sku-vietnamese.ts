import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { planLines, truthItem, type SampleStyle } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Saigon Green Garment Co., Ltd.';
const HEADER_ROW = 6;

export const combinedSkuVietnamese: SampleStyle = {
  name: 'combined-sku-vietnamese',
  messes: [9, 13],
  build(context) {
    const lines = planLines(context, { categories: APPAREL_CATEGORIES, styles: 5, variantsPerStyle: [2, 3] });
    const workbook = createWorkbook('Saigon Green');
    const sheet = workbook.addWorksheet('Bao gia');
    setWidths(sheet, [6, 56, 8, 14, 16, 16]);
    setRow(sheet, 1, ['CÔNG TY TNHH MAY MẶC SÀI GÒN XANH']);
    setRow(sheet, 2, [SUPPLIER]);
    sheet.getCell(2, 1).font = { bold: true, size: 13 };
    setRow(sheet, 3, ['BÁO GIÁ / QUOTATION']);
    setRow(sheet, 4, ['Khách hàng / Customer: Valden Outdoor']);
    // The code and the name share one cell: "MJ014-BLK-M Alpine Shell Jacket Black M".
    setRow(sheet, HEADER_ROW, [
      'STT',
      'Tên hàng / Description',
      'ĐVT',
      'Số lượng / Qty',
      'Đơn giá / Unit Price',
      'Thành tiền / Amount',
    ]);
    boldRow(sheet, HEADER_ROW, 1, 6);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const description = `${variant.sku} ${variant.name} ${variant.color} ${variant.size}`;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [i + 1, description, 'pcs', quantity, fromCents(unitCents), fromCents(amount)]);
      return truthItem({
        sheet: sheet.name,
        row,
        sku: variant.sku,
        rawSku: variant.sku,
        description,
        quantity,
        unitPrice: fromCents(unitCents),
      });
    });

    const totalRow = HEADER_ROW + 1 + lines.length;
    const total = sum(amounts);
    setRow(sheet, totalRow, ['Tổng cộng / Total'], 2);
    setRow(sheet, totalRow, [fromCents(total)], 6);
    boldRow(sheet, totalRow, 1, 6);
    for (const column of [5, 6]) sheet.getColumn(column).numFmt = MONEY_FORMAT;
    setRow(sheet, totalRow + 2, ['FOB Ho Chi Minh City, USD']);
    setRow(sheet, totalRow + 3, ['Thanh toán / Payment: T/T 100% before shipment']);

    return {
      workbook,
      description:
        'Vietnamese / English bilingual headers with the code and the name in one "Tên hàng / Description" cell ' +
        '(the truth rawSku is the code at its start) and the terms line "FOB Ho Chi Minh City, USD".',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: 'T/T 100% before shipment',
        leadTimeDays: null,
        currency: 'USD',
        incoterm: 'FOB Ho Chi Minh City',
        moq: null,
        validityDays: null,
      },
      items,
      charges: [],
      statedTotal: fromCents(total),
    };
  },
};
