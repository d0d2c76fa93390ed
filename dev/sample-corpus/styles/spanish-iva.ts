import { fromCents, lineAmountCents, sum } from '../money.js';
import { ACCESSORY_CATEGORIES } from '../sample-catalog.js';
import { charge, planLines, type SampleStyle, variantTruth } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Textiles Levante S.L.';
const HEADER_ROW = 6;

export const spanishIva: SampleStyle = {
  name: 'spanish-iva',
  messes: [1, 12],
  build(context) {
    const lines = planLines(context, {
      categories: ACCESSORY_CATEGORIES,
      styles: 5,
      variantsPerStyle: [1, 3],
      currency: 'EUR',
    });
    const workbook = createWorkbook('Levante Comercial');
    const sheet = workbook.addWorksheet('Cotización');
    setWidths(sheet, [18, 40, 14, 8, 10, 12, 14]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Polígono Industrial El Pla, 46870 Ontinyent, Valencia']);
    setRow(sheet, 3, ['Cotización 2025/118 para Valden Outdoor']);
    setRow(sheet, HEADER_ROW, ['Código', 'Descripción', 'Color', 'Talla', 'Cantidad', 'P/U', 'Importe']);
    boldRow(sheet, HEADER_ROW, 1, 7);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [
        variant.sku,
        variant.name,
        variant.color,
        variant.size,
        quantity,
        fromCents(unitCents),
        fromCents(amount),
      ]);
      return variantTruth(sheet.name, row, { variant, quantity, unitCents });
    });

    const after = HEADER_ROW + 1 + lines.length;
    const goods = sum(amounts);
    const iva = Math.round(goods * 0.21);
    const summary: [string, number][] = [
      ['Base imponible', goods],
      ['IVA 21%', iva],
      ['TOTAL', goods + iva],
    ];
    summary.forEach(([label, cents], i) => {
      setRow(sheet, after + i, [label], 6);
      setRow(sheet, after + i, [fromCents(cents)], 7);
    });
    boldRow(sheet, after + 2, 1, 7);
    for (const column of [6, 7]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    setRow(sheet, after + 4, ['Forma de pago: transferencia a 30 días']);
    setRow(sheet, after + 5, ['Moneda: EUR']);

    return {
      workbook,
      description:
        'Spanish quotation (Cotización): Código, Descripción, Talla, Cantidad, P/U and Importe headers; Base ' +
        'imponible, IVA 21% and TOTAL under the table, labelled in the price column, are subtotal, tax and total.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: 'transferencia a 30 días',
        leadTimeDays: null,
        currency: 'EUR',
        incoterm: null,
        moq: null,
        validityDays: null,
      },
      items,
      charges: [charge('IVA 21%', iva)],
      statedTotal: fromCents(goods + iva),
    };
  },
};
