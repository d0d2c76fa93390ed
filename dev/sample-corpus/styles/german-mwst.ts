import { fromCents, lineAmountCents, sum } from '../money.js';
import { APPAREL_CATEGORIES } from '../sample-catalog.js';
import { charge, planLines, type SampleStyle, variantTruth } from '../sample.js';
import { MONEY_FORMAT, boldRow, createWorkbook, setRow, setWidths } from '../workbook.js';

const SUPPLIER = 'Bergwerk Textil GmbH';
const HEADER_ROW = 5;

export const germanMwst: SampleStyle = {
  name: 'german-mwst',
  messes: [1, 12],
  build(context) {
    const lines = planLines(context, {
      categories: APPAREL_CATEGORIES,
      styles: 4,
      variantsPerStyle: [2, 4],
      currency: 'EUR',
    });
    const workbook = createWorkbook('Bergwerk Vertrieb');
    const sheet = workbook.addWorksheet('Angebot');
    setWidths(sheet, [6, 18, 36, 14, 8, 8, 16, 16]);
    setRow(sheet, 1, [SUPPLIER]);
    sheet.getCell(1, 1).font = { bold: true, size: 14 };
    setRow(sheet, 2, ['Industriestraße 12, 72770 Reutlingen, Deutschland']);
    setRow(sheet, 3, ['Angebot Nr. 2025-0612 für Valden Outdoor']);
    setRow(sheet, HEADER_ROW, [
      'Pos.',
      'Artikel-Nr.',
      'Bezeichnung',
      'Farbe',
      'Größe',
      'Menge',
      'Einzelpreis (EUR)',
      'Gesamtpreis (EUR)',
    ]);
    boldRow(sheet, HEADER_ROW, 1, 8);

    const amounts: number[] = [];
    const items = lines.map(({ variant, quantity, unitCents }, i) => {
      const row = HEADER_ROW + 1 + i;
      const amount = lineAmountCents(quantity, unitCents);
      amounts.push(amount);
      setRow(sheet, row, [
        i + 1,
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

    // German summary rows: Zwischensumme (subtotal), MwSt. 19 % (VAT), Gesamtbetrag (grand total).
    const after = HEADER_ROW + 1 + lines.length;
    const goods = sum(amounts);
    const vat = Math.round(goods * 0.19);
    setRow(sheet, after, ['Zwischensumme'], 3);
    setRow(sheet, after, [fromCents(goods)], 8);
    setRow(sheet, after + 1, ['MwSt. 19%'], 3);
    setRow(sheet, after + 1, [fromCents(vat)], 8);
    setRow(sheet, after + 2, ['Gesamtbetrag'], 3);
    setRow(sheet, after + 2, [fromCents(goods + vat)], 8);
    boldRow(sheet, after + 2, 1, 8);
    for (const column of [7, 8]) sheet.getColumn(column).numFmt = MONEY_FORMAT;

    setRow(sheet, after + 4, ['Zahlungsbedingungen: 30 Tage netto']);
    setRow(sheet, after + 5, ['Lieferzeit: 6 Wochen']);

    return {
      workbook,
      description:
        'German quotation (Angebot): Pos., Artikel-Nr., Bezeichnung, Menge, Einzelpreis and Gesamtpreis headers; ' +
        'Zwischensumme, MwSt. 19% and Gesamtbetrag rows under the table are a subtotal, a tax and the total.',
      supplier: SUPPLIER,
      terms: {
        paymentTerms: '30 Tage netto',
        leadTimeDays: 42,
        currency: 'EUR',
        incoterm: null,
        moq: null,
        validityDays: null,
      },
      items,
      charges: [charge('MwSt. 19%', vat)],
      statedTotal: fromCents(goods + vat),
    };
  },
};
